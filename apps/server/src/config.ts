import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/**
 * The server's configuration, validated once from the environment. Nothing else in the server
 * reads `process.env`. This file sits at the same depth in `src/` as the bundle does in `dist/`,
 * so the paths below resolve the same way in development, tests and production.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '..');

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const listFromEnv = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: boolFromEnv.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  ALLOW_DEV_ISSUER_IN_PRODUCTION: boolFromEnv.default(false),
  STRIPE_SECRET_KEY: z.string().optional(),
  ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: boolFromEnv.default(false),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_ID: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  REDIS_URL: z.string().optional(),
  STUN_URLS: listFromEnv.optional(),
  TURN_URLS: listFromEnv.optional(),
  TURN_SECRET: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** The origin users reach the app at, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  trustProxy: boolean;
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  database: { url: string | undefined; pgliteDir: string };
  webDistDir: string;
  migrationsDir: string;
  oidc: {
    issuer: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    allowDevIssuerInProduction: boolean;
  };
  stripe: {
    secretKey: string | undefined;
    publishableKey: string | undefined;
    webhookSecret: string | undefined;
    priceId: string | undefined;
    apiBase: string | undefined;
    /** With NODE_ENV=production and no STRIPE_SECRET_KEY, the sandbox (test cards) is allowed. */
    allowSandboxInProduction: boolean;
  };
  mail: { smtpUrl: string | undefined; from: string };
  redisUrl: string | undefined;
  ice: { stunUrls: string[]; turnUrls: string[]; turnSecret: string | undefined };
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  if (e.OIDC_ISSUER && !e.OIDC_CLIENT_ID) {
    throw new ConfigError('Invalid environment: OIDC_CLIENT_ID is required when OIDC_ISSUER is set');
  }
  if (e.NODE_ENV === 'production' && !e.OIDC_ISSUER && !e.ALLOW_DEV_ISSUER_IN_PRODUCTION) {
    throw new ConfigError(
      'Refusing to start: NODE_ENV=production without OIDC_ISSUER would use the development sign-in. ' +
        'Set OIDC_ISSUER (and OIDC_CLIENT_ID/OIDC_CLIENT_SECRET), or ALLOW_DEV_ISSUER_IN_PRODUCTION=true.',
    );
  }
  if (e.STRIPE_SECRET_KEY) {
    const missing = (
      [
        ['STRIPE_PUBLISHABLE_KEY', e.STRIPE_PUBLISHABLE_KEY],
        ['STRIPE_WEBHOOK_SECRET', e.STRIPE_WEBHOOK_SECRET],
        ['STRIPE_PRICE_ID', e.STRIPE_PRICE_ID],
      ] as const
    )
      .filter(([, v]) => !v)
      .map(([k]) => k);
    if (missing.length > 0) {
      throw new ConfigError(
        `Invalid environment: STRIPE_SECRET_KEY is set, so Stripe also needs: ${missing.join(', ')}`,
      );
    }
  } else if (e.NODE_ENV === 'production' && !e.ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION) {
    throw new ConfigError(
      'Refusing to start: NODE_ENV=production without STRIPE_SECRET_KEY would use the payments sandbox, ' +
        'where test cards grant Pro for free. Set STRIPE_SECRET_KEY (and STRIPE_PUBLISHABLE_KEY, ' +
        'STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID), or ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION=true.',
    );
  }

  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    dataDir,
    database: { url: e.DATABASE_URL, pgliteDir: path.join(dataDir, 'pglite') },
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(serverRoot, '..', 'web', 'dist')),
    migrationsDir: path.join(serverRoot, 'drizzle'),
    oidc: {
      issuer: e.OIDC_ISSUER,
      clientId: e.OIDC_CLIENT_ID,
      clientSecret: e.OIDC_CLIENT_SECRET,
      allowDevIssuerInProduction: e.ALLOW_DEV_ISSUER_IN_PRODUCTION,
    },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET,
      priceId: e.STRIPE_PRICE_ID,
      apiBase: e.STRIPE_API_BASE,
      allowSandboxInProduction: e.ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION,
    },
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM },
    redisUrl: e.REDIS_URL,
    ice: { stunUrls: e.STUN_URLS ?? [], turnUrls: e.TURN_URLS ?? [], turnSecret: e.TURN_SECRET },
  };
}
