import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Sign-in through OpenID Connect: /api/login, /api/callback, /api/logout, and the development issuer at /oidc (identity issue). */
export const oidcRoutes: FastifyPluginAsyncZod = async () => {};
