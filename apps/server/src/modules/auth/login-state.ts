import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { loadLocalSealingKey } from '../../providers/identity/secrets.js';
import type { LoginChecks } from '../../providers/identity/types.js';

/** The short-lived cookie that carries state, nonce and PKCE verifier from /api/login to /api/callback. */
export const LOGIN_STATE_COOKIE = 'parley_login';
export const LOGIN_STATE_MAX_AGE_S = 10 * 60;

const sealedSchema = z.object({
  state: z.string().min(1),
  nonce: z.string().min(1),
  codeVerifier: z.string().min(43),
  exp: z.number(),
});

/**
 * The key that seals the login state: derived from OIDC_CLIENT_SECRET when there is one (so
 * every server instance shares it), else a random key kept under DATA_DIR.
 */
export function loginStateKey(config: Config): Buffer {
  if (config.oidc.issuer && config.oidc.clientSecret) {
    return Buffer.from(hkdfSync('sha256', config.oidc.clientSecret, 'parley', 'login-state-cookie', 32));
  }
  return loadLocalSealingKey(config.dataDir);
}

/** Encrypts and authenticates (AES-256-GCM) the login checks with an expiry. */
export function sealLoginState(key: Buffer, checks: LoginChecks, now = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const plain = JSON.stringify({ ...checks, exp: now + LOGIN_STATE_MAX_AGE_S * 1000 });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** The login checks, or null when the cookie is missing, forged, altered or expired. */
export function openLoginState(
  key: Buffer,
  sealed: string | undefined,
  now = Date.now(),
): LoginChecks | null {
  if (!sealed || sealed.length > 2048) return null;
  try {
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length < 29) return null;
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const parsed = sealedSchema.safeParse(JSON.parse(plain));
    if (!parsed.success || parsed.data.exp < now) return null;
    const { state, nonce, codeVerifier } = parsed.data;
    return { state, nonce, codeVerifier };
  } catch {
    return null;
  }
}
