import { stripUnsafeText } from '@parley/protocol';
import * as client from 'openid-client';
import {
  IdentityProviderUnavailable,
  SignInRejected,
  type IdentityProvider,
  type LoginChecks,
  type VerifiedIdentity,
} from './types.js';

export type IdentityFetch = NonNullable<client.DiscoveryRequestOptions[typeof client.customFetch]>;

export interface RelyingPartyOptions {
  kind: IdentityProvider['kind'];
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** How to reach the provider (the embedded issuer is reached in-process); default `fetch`. */
  fetch?: IdentityFetch;
  /** Seconds before a request to the provider is abandoned. */
  timeoutSeconds?: number;
}

const SCOPE = 'openid email profile';

/** A claim as text we can show and store (a provider's names pass the rules of typed names). */
function str(v: unknown): string | null {
  const text = typeof v === 'string' ? stripUnsafeText(v).trim() : '';
  return text ? text : null;
}

/**
 * Who the provider's claims say the person is. The account's email becomes the host's identity
 * in invitation mail (sender name, calendar ORGANIZER), so an address the provider itself says
 * it has not verified (`email_verified: false`) is refused; a provider that does not say is
 * believed (many only send the claim when it is true).
 */
export function identityFromClaims(
  issuer: string,
  claims: Record<string, unknown>,
  idToken: string | null,
): VerifiedIdentity {
  const email = str(claims.email);
  const subject = str(claims.sub);
  if (!subject) throw new SignInRejected('The identity provider sent no subject.');
  if (!email) {
    throw new SignInRejected(
      'The identity provider did not share your email address; Parley needs it (scope "email").',
    );
  }
  if (claims.email_verified === false || claims.email_verified === 'false') {
    throw new SignInRejected(
      'Your email address is not verified at the identity provider. Verify it there, then sign in again.',
    );
  }
  return {
    issuer,
    subject,
    email: email.toLowerCase(),
    firstName: str(claims.given_name)?.slice(0, 100) ?? null,
    lastName: str(claims.family_name)?.slice(0, 100) ?? null,
    idToken,
  };
}

/**
 * The relying party: authorization code flow with PKCE (S256), state and nonce, by
 * `openid-client`. Discovery is lazy (first sign-in) and cached; a failed discovery is retried
 * on the next sign-in instead of being cached.
 */
export function createRelyingParty(opts: RelyingPartyOptions): IdentityProvider {
  let pending: Promise<client.Configuration> | null = null;

  const configuration = (): Promise<client.Configuration> => {
    if (!pending) {
      const issuerUrl = new URL(opts.issuer);
      const auth = opts.clientSecret ? client.ClientSecretBasic(opts.clientSecret) : client.None();
      pending = client
        .discovery(issuerUrl, opts.clientId, undefined, auth, {
          timeout: opts.timeoutSeconds ?? 10,
          ...(opts.fetch ? { [client.customFetch]: opts.fetch } : {}),
          ...(issuerUrl.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        })
        .catch((err: unknown) => {
          pending = null;
          throw new IdentityProviderUnavailable(
            `The identity provider at ${opts.issuer} could not be reached (${(err as Error).message}). Please try again later.`,
          );
        });
    }
    return pending;
  };

  async function readClaims(
    config: client.Configuration,
    tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers,
  ): Promise<Record<string, unknown>> {
    const idClaims = tokens.claims();
    if (!idClaims) throw new SignInRejected('The identity provider sent no ID token.');
    let claims: Record<string, unknown> = { ...idClaims };
    if (!str(claims.email) && config.serverMetadata().userinfo_endpoint) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = {
        ...info,
        ...claims,
        ...Object.fromEntries(Object.entries(info).filter(([, v]) => v != null)),
      };
    }
    return claims;
  }

  return {
    kind: opts.kind,
    issuer: opts.issuer,

    async startLogin(redirectUri) {
      const config = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        response_type: 'code',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async finishLogin(callbackUrl: URL, checks: LoginChecks): Promise<VerifiedIdentity> {
      const config = await configuration();
      let claims: Record<string, unknown>;
      let idToken: string | null;
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        idToken = tokens.id_token ?? null;
        claims = await readClaims(config, tokens);
      } catch (err) {
        if (err instanceof SignInRejected) throw err;
        if (err instanceof client.AuthorizationResponseError) {
          throw new SignInRejected(
            `The identity provider did not sign you in: ${err.error_description ?? err.error}.`,
          );
        }
        if (err instanceof client.ResponseBodyError) {
          throw new SignInRejected(
            'The identity provider refused the sign-in code (it was already used or has expired). Please sign in again.',
          );
        }
        if (err instanceof client.ClientError) {
          throw new SignInRejected('The sign-in response could not be verified. Please sign in again.');
        }
        throw new IdentityProviderUnavailable(
          `The identity provider at ${opts.issuer} could not be reached (${(err as Error).message}). Please try again later.`,
        );
      }
      return identityFromClaims(config.serverMetadata().issuer, claims, idToken);
    },

    async endSessionUrl(idToken, postLogoutRedirectUri) {
      let config: client.Configuration;
      try {
        config = await configuration();
      } catch {
        return null;
      }
      if (!config.serverMetadata().end_session_endpoint) return null;
      const params: Record<string, string> = { post_logout_redirect_uri: postLogoutRedirectUri };
      if (idToken) params.id_token_hint = idToken;
      return client.buildEndSessionUrl(config, params).href;
    },
  };
}
