import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { registerDevIssuer } from './dev-issuer.js';
import { createRelyingParty } from './relying-party.js';
import type { IdentityProvider } from './types.js';

export * from './types.js';
export { DEV_ISSUER_PATH } from './dev-issuer.js';

/**
 * The identity provider from the configuration: any OpenID Connect issuer found by discovery
 * (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET), or else the embedded development issuer,
 * mounted on this server at /oidc. Production refuses the development issuer unless
 * ALLOW_DEV_ISSUER_IN_PRODUCTION is set (enforced by config.ts).
 */
export async function createIdentityProvider(
  app: FastifyInstance,
  config: Config,
): Promise<IdentityProvider> {
  if (config.oidc.issuer) {
    return createRelyingParty({
      kind: 'oidc',
      issuer: config.oidc.issuer,
      clientId: config.oidc.clientId ?? '',
      clientSecret: config.oidc.clientSecret,
    });
  }
  if (config.env === 'production') {
    // Only reachable with ALLOW_DEV_ISSUER_IN_PRODUCTION: loadConfig refuses production otherwise.
    app.log.warn(
      'ALLOW_DEV_ISSUER_IN_PRODUCTION: anyone can sign in as anyone through the development issuer',
    );
  }
  const dev = await registerDevIssuer(app, config);
  return createRelyingParty({
    kind: 'development',
    issuer: dev.issuer,
    clientId: dev.clientId,
    clientSecret: dev.clientSecret,
    fetch: dev.fetch,
  });
}
