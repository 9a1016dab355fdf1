import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const devIssuerSecretsSchema = z.object({
  /** RS256 private signing key of the development issuer (JWK). */
  signingKey: z.record(z.string(), z.unknown()),
  /** Keys that sign the development issuer's own cookies (newest first). */
  cookieKeys: z.array(z.string().min(32)).min(1),
  /** The secret of the one registered client: Parley itself. */
  clientSecret: z.string().min(32),
});
export type DevIssuerSecrets = z.infer<typeof devIssuerSecretsSchema>;

function writePrivate(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  renameSync(tmp, file);
}

/**
 * Reads a secret file under DATA_DIR, or creates it once with `make` (so keys, and the sessions
 * and tokens signed with them, survive restarts).
 */
function loadOrCreate<T>(file: string, schema: z.ZodType<T>, make: () => T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
    throw new Error(`${file} is not a valid secrets file; delete it to have new keys generated`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const value = make();
  writePrivate(file, JSON.stringify(value, null, 2));
  return value;
}

export function loadDevIssuerSecrets(dataDir: string): DevIssuerSecrets {
  return loadOrCreate(path.join(dataDir, 'identity', 'dev-issuer-keys.json'), devIssuerSecretsSchema, () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return {
      signingKey: { ...privateKey.export({ format: 'jwk' }), kid: randomUUID(), alg: 'RS256', use: 'sig' },
      cookieKeys: [randomBytes(32).toString('base64url')],
      clientSecret: randomBytes(32).toString('base64url'),
    };
  });
}

/** A random 256-bit key kept under DATA_DIR, for sealing short-lived sign-in state. */
export function loadLocalSealingKey(dataDir: string): Buffer {
  const value = loadOrCreate(
    path.join(dataDir, 'identity', 'login-state-key.json'),
    z.object({ key: z.string().min(43) }),
    () => ({ key: randomBytes(32).toString('base64url') }),
  );
  return Buffer.from(value.key, 'base64url');
}
