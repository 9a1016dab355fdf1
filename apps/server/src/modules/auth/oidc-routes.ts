import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  IdentityProviderUnavailable,
  SignInRejected,
  createIdentityProvider,
} from '../../providers/identity/index.js';
import { createUsersRepository } from '../users/repository.js';
import { sendSignInError } from './error-page.js';
import {
  LOGIN_STATE_COOKIE,
  LOGIN_STATE_MAX_AGE_S,
  loginStateKey,
  openLoginState,
  sealLoginState,
} from './login-state.js';

/**
 * Sign-in through OpenID Connect: /api/login starts the authorization code flow (PKCE, state,
 * nonce sealed in a short-lived httpOnly cookie), /api/callback checks them and opens a session,
 * /api/logout ends it (and the provider's session when it supports RP-initiated logout). When
 * OIDC_ISSUER is unset the development issuer is mounted at /oidc.
 */
export const oidcRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app;
  const identity = await createIdentityProvider(app, config);
  const users = createUsersRepository(app.db.db);
  const key = loginStateKey(config);
  const redirectUri = `${config.publicUrl}/api/callback`;
  const secure = config.publicUrl.startsWith('https://');
  const stateCookie = { path: '/api/callback', httpOnly: true, sameSite: 'lax' as const, secure };

  app.get('/api/login', async (request, reply) => {
    let start;
    try {
      start = await identity.startLogin(redirectUri);
    } catch (err) {
      if (err instanceof IdentityProviderUnavailable) {
        request.log.warn({ err }, 'identity provider unavailable');
        return sendSignInError(request, reply, 502, err.message);
      }
      throw err;
    }
    reply.setCookie(LOGIN_STATE_COOKIE, sealLoginState(key, start), {
      ...stateCookie,
      maxAge: LOGIN_STATE_MAX_AGE_S,
    });
    return reply.header('cache-control', 'no-store').redirect(start.url, 302);
  });

  app.get('/api/callback', async (request, reply) => {
    const checks = openLoginState(key, request.cookies[LOGIN_STATE_COOKIE]);
    reply.clearCookie(LOGIN_STATE_COOKIE, stateCookie);
    reply.header('cache-control', 'no-store');
    if (!checks) {
      return sendSignInError(
        request,
        reply,
        400,
        'This sign-in has expired or was started in another browser. Please sign in again.',
      );
    }
    const callbackUrl = new URL(redirectUri);
    callbackUrl.search = new URL(request.url, 'http://parley.invalid').search;

    let who;
    try {
      who = await identity.finishLogin(callbackUrl, checks);
    } catch (err) {
      if (err instanceof SignInRejected) {
        request.log.info({ reason: err.message }, 'sign-in refused');
        return sendSignInError(request, reply, 400, err.message);
      }
      if (err instanceof IdentityProviderUnavailable) {
        request.log.warn({ err }, 'identity provider unavailable');
        return sendSignInError(request, reply, 502, err.message);
      }
      throw err;
    }

    const user = await users.upsertFromIdentity({
      issuer: who.issuer,
      subject: who.subject,
      email: who.email,
      firstName: who.firstName,
      lastName: who.lastName,
    });
    // A new session id at every sign-in; a session this browser already had ends.
    if (request.auth) await app.sessions.end(request.auth.idHash);
    const { token } = await app.sessions.create(user.id, who.idToken);
    app.setSessionCookie(reply, token);
    return reply.redirect('/?login=success', 302);
  });

  app.get('/api/logout', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // A cross-site link must not sign people out (logout CSRF).
    if (request.headers['sec-fetch-site'] === 'cross-site') return reply.redirect('/', 302);
    const auth = request.auth;
    if (auth) await app.sessions.end(auth.idHash);
    app.clearSessionCookie(reply);
    const providerLogout = auth ? await identity.endSessionUrl(auth.idToken, `${config.publicUrl}/`) : null;
    return reply.redirect(providerLogout ?? '/', 302);
  });
};
