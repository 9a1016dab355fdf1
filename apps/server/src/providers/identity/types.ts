/** The sign-in state the relying party must remember between /api/login and /api/callback. */
export interface LoginChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface LoginStart extends LoginChecks {
  /** Where to send the browser: the provider's authorization endpoint with all parameters. */
  url: string;
}

/** A verified sign-in: who the provider says the person is. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  idToken: string | null;
}

/**
 * Sign-in through an OpenID Connect provider (a real one found by discovery, or the embedded
 * development issuer). The only seam between Parley and `openid-client`.
 */
export interface IdentityProvider {
  readonly kind: 'oidc' | 'development';
  readonly issuer: string;
  startLogin(redirectUri: string): Promise<LoginStart>;
  /** Checks state, nonce and PKCE, exchanges the code and reads the claims. */
  finishLogin(callbackUrl: URL, checks: LoginChecks): Promise<VerifiedIdentity>;
  /** The provider's RP-initiated logout URL, or null when it has none. */
  endSessionUrl(idToken: string | null, postLogoutRedirectUri: string): Promise<string | null>;
}

/** The provider could not be reached or answered nonsense (discovery, token or key fetch). */
export class IdentityProviderUnavailable extends Error {}

/** The sign-in response was refused: a bad state, a used code, a denied consent... */
export class SignInRejected extends Error {}
