import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../../http/errors.js';
import { isApiPath } from '../../http/spa.js';
import { createUsersRepository } from '../users/repository.js';
import { createSessionRepository } from './session-repository.js';
import {
  SESSION_ABSOLUTE_MS,
  SESSION_COOKIE,
  createSessionService,
  type ActiveSession,
  type SessionService,
} from './session-service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const SWEEP_EVERY_MS = 15 * 60 * 1000;

/**
 * Same-origin check for state-changing requests that a cookie authenticates: the Origin header
 * must name this server's own origin (PUBLIC_URL's, or the Host the request came to: a proxy
 * may rewrite Host), and Sec-Fetch-Site (sent by every current browser) must not say
 * cross-site. Clients that send neither (curl, server-to-server) carry no ambient browser
 * credentials, so they pass.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) {
    if (origin === 'null') return true;
    try {
      const host = request.headers[':authority'] ?? request.headers.host;
      const from = new URL(origin);
      const publicOrigin = request.server.config ? new URL(request.server.config.publicUrl).origin : null;
      if (from.origin !== publicOrigin && from.host !== host) return true;
    } catch {
      return true;
    }
  }
  const site = request.headers['sec-fetch-site'];
  return site !== undefined && site !== 'same-origin' && site !== 'none';
}

async function authPlugin(app: FastifyInstance): Promise<void> {
  await app.register(cookie);
  const sessions = createSessionService(createSessionRepository(app.db.db), createUsersRepository(app.db.db));
  app.decorate('sessions', sessions);
  app.decorateRequest('auth', null);

  const secureCookies = app.config.publicUrl.startsWith('https://');
  app.decorate('setSessionCookie', (reply, token: string) => {
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
      maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
    });
  });
  app.decorate('clearSessionCookie', (reply) => {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies });
  });

  app.addHook('onRequest', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    if (!SAFE_METHODS.has(request.method) && isCrossSite(request)) {
      throw new HttpError(403, 'Cross-site request refused');
    }
    // Only the API and the WebSocket read the session: the SPA's pages and files cost no query.
    if (isApiPath(request.url)) request.auth = await sessions.resolve(token);
  });

  const timer = setInterval(() => {
    sessions.sweep().catch((err: unknown) => app.log.warn({ err }, 'session sweep failed'));
  }, SWEEP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}

export default fp(authPlugin, { name: 'auth' });

declare module 'fastify' {
  interface FastifyInstance {
    sessions: SessionService;
    setSessionCookie(reply: FastifyReply, token: string): void;
    clearSessionCookie(reply: FastifyReply): void;
  }
  interface FastifyRequest {
    /** The signed-in session, resolved from the cookie (null when absent or expired). */
    auth: ActiveSession | null;
  }
}
