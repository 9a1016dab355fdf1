import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The browser secret of a guest (issue 34 item 4: money follows the person, never a typed
 * e-mail). A random 256-bit token in an httpOnly cookie on /api, given to every browser that
 * joins a meeting or saves a card without one; only its SHA-256 is kept. A guest's free-time
 * clock and saved card belong to it (`guest:{hash}`), so neither a typed e-mail nor a new
 * `browserId` reaches someone else's clock or card, and the page's scripts never see it.
 */
export const BILLING_COOKIE = 'parley_billing';
const MAX_AGE_S = 365 * 24 * 3600;

export const hashBrowserSecret = (token: string): string => createHash('sha256').update(token).digest('hex');

/** The SHA-256 of the browser secret the request carries (null: none). */
export function browserKeyOf(request: FastifyRequest): string | null {
  const token = request.cookies[BILLING_COOKIE];
  return token && token.length >= 32 && token.length <= 128 ? hashBrowserSecret(token) : null;
}

/** The request's browser secret, set as a cookie on the reply when it carried none; its hash. */
export function ensureBrowserKey(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const known = browserKeyOf(request);
  if (known) return known;
  const token = randomBytes(32).toString('base64url');
  reply.setCookie(BILLING_COOKIE, token, {
    path: '/api',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    maxAge: MAX_AGE_S,
  });
  // Later calls of the same request (and the handlers after it) see the new secret.
  request.cookies[BILLING_COOKIE] = token;
  return hashBrowserSecret(token);
}
