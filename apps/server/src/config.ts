import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
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

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY's list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: `false` (the default: X-Forwarded-For is ignored), a number of proxy hops in
 * front of the server (`1`: the address the nearest proxy appended is the client's), a list of
 * the proxies' addresses or CIDRs (`10.0.0.0/8, 192.168.1.10`), or `true`: believe every
 * X-Forwarded-For, which lets any client name its own address (a start-up warning says so).
 */
const trustProxyFromEnv = z.string().transform((raw, ctx): boolean | number | string[] => {
  const v = raw.trim().toLowerCase();
  if (v === 'true' || v === 'yes') return true;
  if (v === 'false' || v === 'no' || v === '' || v === '0') return false;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const bad = entries.filter((e) => !isProxyAddress(e));
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `expected true, false, a hop count or a comma-separated list of proxy addresses/CIDRs; not: ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
});

/**
 * The public STUN servers peer connections use unless STUN_URLS says otherwise (spec §7: public
 * STUN servers, two of them). Without any, two people behind home routers offer only their
 * private addresses and may never connect.
 */
export const DEFAULT_STUN_URLS = ['stun:stun.l.google.com:19302', 'stun:stun1.l.google.com:19302'];

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]', '::ffff:127.0.0.1']);

/** True when HOST listens on the loopback interface only. */
export function isLoopbackHost(host: string): boolean {
  const h = host.trim().toLowerCase();
  return LOOPBACK_HOSTS.has(h) || (isIP(h) === 4 && h.startsWith('127.'));
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /** Without HOST: loopback while development services are on, otherwise every interface. */
  HOST: z.string().trim().min(1).optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: trustProxyFromEnv.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  ALLOW_DEV_ISSUER_IN_PRODUCTION: boolFromEnv.default(false),
  ALLOW_DEV_SERVICES_ON_NETWORK: boolFromEnv.default(false),
  STRIPE_SECRET_KEY: z.string().optional(),
  ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: boolFromEnv.default(false),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICE_ID: z.string().optional(),
  STRIPE_API_BASE: z.url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  /** Seconds before a failed job's first retry (doubled for each further one). */
  JOB_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** How often an idle job worker looks for work, in seconds. */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  /** Retries of a failed e-mail before it is recorded as failed. */
  MAIL_RETRIES: z.coerce.number().int().min(0).max(20).default(4),
  REDIS_URL: z.string().optional(),
  /** This server instance's id among several (REDIS_URL); a random one per start by default. */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - (at most 64)')
    .optional(),
  /** With REDIS_URL: an instance that has not beaten for this long is taken as crashed. */
  PRESENCE_TTL_MS: z.coerce.number().int().min(300).max(20_000).default(12_000),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * Without METRICS_TOKEN and with a HOST that is not loopback, /metrics is served only here, on
   * 127.0.0.1 (0: a free port, tests).
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65_535).default(9464),
  /** The files of one meeting, uploads in progress included (500 MB). */
  FILES_QUOTA_PER_MEETING_MB: z.coerce.number().int().min(1).default(500),
  FILES_QUOTA_PER_HOST_MB: z.coerce.number().int().min(1).default(2048),
  FILES_QUOTA_TOTAL_MB: z.coerce.number().int().min(1).default(20_480),
  /** The free tier's minute (spec §9: 60 s); tests run minutes as seconds. Not in production. */
  FREE_TIER_MINUTE_MS: z.coerce.number().int().min(100).max(60_000).default(60_000),
  /** The grace after the free time (spec §9: 30 s). Not in production. */
  FREE_TIER_GRACE_MS: z.coerce.number().int().min(1000).max(30_000).default(30_000),
  /** Unset: DEFAULT_STUN_URLS. `none` or empty: no STUN server (the tests; a private network). */
  STUN_URLS: z
    .string()
    .transform((v) => (v.trim().toLowerCase() === 'none' ? [] : listFromEnv.parse(v)))
    .optional(),
  TURN_URLS: listFromEnv.optional(),
  TURN_SECRET: z.string().optional(),
  /** How meetings' media flows: `auto` (Janus when installed or JANUS_URL is set), `p2p`, `janus`. */
  MEDIA_PROVIDER: z.enum(['auto', 'p2p', 'janus']).optional(),
  /** An external Janus (production): its WebSocket API, e.g. ws://janus.internal:8188, and api_secret. */
  JANUS_URL: z
    .string()
    .regex(/^wss?:\/\//, 'a ws:// or wss:// URL')
    .optional(),
  JANUS_API_SECRET: z.string().min(1).optional(),
  /** Our own Janus: the interfaces/addresses it may gather ICE candidates on (ice_enforce_list). */
  JANUS_ICE_ENFORCE_LIST: listFromEnv.optional(),
  JANUS_BIN: z.string().default('janus'),
  /**
   * An external Janus (JANUS_URL) that should record: the folder its VideoRoom writes recordings to
   * (rec_dir), as both Janus and this server see it (a shared volume). Our own Janus always records
   * into `${DATA_DIR}/recordings/raw`.
   */
  JANUS_RECORDINGS_DIR: z.string().min(1).optional(),
  /** The post-processing tools of recordings (Debian `janus-tools` and `ffmpeg`). */
  JANUS_PP_REC_BIN: z.string().default('janus-pp-rec'),
  FFMPEG_BIN: z.string().default('ffmpeg'),
  FFPROBE_BIN: z.string().default('ffprobe'),
  /**
   * The longest one recording runs (minutes; decimals allowed): the room is warned before, then
   * it stops by itself and is processed (issue 34 item 9). Meet's limit is 8 hours; processing
   * 4 hours here takes about an hour of both cores.
   */
  RECORDING_MAX_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(240),
  /** Recordings one user's meetings may keep on this server, together (MB). */
  RECORDING_QUOTA_PER_HOST_MB: z.coerce.number().int().min(1).default(10_240),
  /** The length of timeline one processing job encodes (seconds): jobs of other recordings run between. */
  RECORDING_SEGMENT_SECONDS: z.coerce.number().int().min(5).max(3600).default(600),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().optional(),
  AI_STT_MODEL: z.string().default('whisper-1'),
  AI_TRANSLATION_MODEL: z.string().default('gpt-4o-mini'),
  AI_SUMMARY_MODEL: z.string().default('gpt-4o-mini'),
  LIBRETRANSLATE_URL: z.url().optional(),
  LIBRETRANSLATE_API_KEY: z.string().optional(),
  AI_STT_PROVIDER: z.enum(['embedded', 'openai', 'off']).optional(),
  AI_TRANSLATION_PROVIDER: z.enum(['embedded', 'openai', 'libretranslate', 'off']).optional(),
  AI_SUMMARY_PROVIDER: z.enum(['embedded', 'openai']).optional(),
  /** The longest audio clip `/api/ai/transcribe` takes (counted on the decoded audio). */
  AI_CLIP_MAX_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
});

export type Env = z.infer<typeof envSchema>;

export interface Config {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** The origin users reach the app at, e.g. http://localhost:3000 (no trailing slash). */
  publicUrl: string;
  /**
   * Fastify's trustProxy: false, true (every X-Forwarded-For), the proxies' addresses/CIDRs, or
   * for a hop count `n` the function that trusts the nearest `n` hops (what Fastify does with a
   * number, whose type it does not declare).
   */
  trustProxy: boolean | string[] | TrustHops;
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
  jobs: { retryDelaySeconds: number; pollingSeconds: number; mailRetries: number };
  redisUrl: string | undefined;
  /** This instance's id (INSTANCE_ID, else random): its sockets' and meetings' owner mark. */
  instanceId: string;
  /**
   * With REDIS_URL: each instance beats every ttlMs/3; once an instance has not beaten for
   * `ttlMs` its participants are swept from their rooms (within ttlMs + ttlMs/3).
   */
  presence: { ttlMs: number };
  /** The bearer token /metrics asks for, if any. */
  metricsToken: string | undefined;
  /** The loopback-only port /metrics moves to when HOST is not loopback and there is no token. */
  metricsPort: number;
  /** Storage quotas of shared files: all meetings of one host, and the whole instance. */
  files: { meetingQuotaBytes: number; hostQuotaBytes: number; instanceQuotaBytes: number };
  /** The free tier's clock: a minute and the grace, in ms (shortened only outside production). */
  freeTier: { minuteMs: number; graceMs: number };
  ice: { stunUrls: string[]; turnUrls: string[]; turnSecret: string | undefined };
  /** Meetings' media (providers/media): peer-to-peer, or the Janus SFU from three participants. */
  media: {
    provider: 'auto' | 'p2p' | 'janus';
    janusUrl: string | undefined;
    janusApiSecret: string | undefined;
    janusBin: string;
    iceEnforceList: string[];
    /** The folder Janus writes recordings to (rec_dir); null: this Janus does not record. */
    recordingsDir: string | null;
  };
  /** Recordings (modules/recordings): the finished files' folder and the post-processing tools. */
  recordings: {
    dir: string;
    ppRecBin: string;
    ffmpegBin: string;
    ffprobeBin: string;
    /** RECORDING_MAX_MINUTES, in ms. */
    maxMs: number;
    /** RECORDING_QUOTA_PER_HOST_MB, in bytes. */
    hostQuotaBytes: number;
    /** RECORDING_SEGMENT_SECONDS, in ms. */
    segmentMs: number;
  };
  /**
   * The three AI providers. Each defaults to the OpenAI-compatible API when AI_BASE_URL is set
   * (translation: LibreTranslate when LIBRETRANSLATE_URL is set), else to the embedded engine.
   */
  ai: {
    stt: 'embedded' | 'openai' | 'off';
    translation: 'embedded' | 'openai' | 'libretranslate' | 'off';
    summaries: 'embedded' | 'openai';
    openai: {
      baseUrl: string | undefined;
      apiKey: string | undefined;
      sttModel: string;
      translationModel: string;
      summaryModel: string;
    };
    libreTranslate: { url: string | undefined; apiKey: string | undefined };
    /** The longest clip the clip calls transcribe, in ms of decoded audio. */
    clipMaxMs: number;
  };
  /** Development services that are on: anyone who reaches them can sign in as anyone, etc. */
  devServices: DevService[];
  /** Things to say loudly at start-up (main.ts logs each as a warning). */
  warnings: string[];
}

/** Trusts the `hops` nearest proxies: the address the farthest of them saw is the client's. */
export type TrustHops = ((address: string, hop: number) => boolean) & { hops: number };

function trustHops(hops: number): TrustHops {
  return Object.assign((_address: string, hop: number) => hop < hops, { hops });
}

export type DevService = 'development sign-in' | 'payments sandbox' | 'mail outbox page';

const DEV_SERVICE_RISK: Record<DevService, string> = {
  'development sign-in': 'anyone can sign in as any email (/oidc)',
  'payments sandbox': 'test cards grant Pro for free',
  'mail outbox page': 'anyone can read every mail sent (/dev/outbox)',
};

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const devServices: DevService[] = [];
  if (!e.OIDC_ISSUER) devServices.push('development sign-in');
  if (!e.STRIPE_SECRET_KEY) devServices.push('payments sandbox');
  if (e.NODE_ENV !== 'production') devServices.push('mail outbox page');
  // `npm start` with no configuration serves http://localhost:3000 to this machine only: the
  // development services must not be offered to the network by default.
  const host = e.HOST ?? (devServices.length > 0 ? 'localhost' : '0.0.0.0');
  const warnings: string[] = [];
  if (devServices.length > 0 && !isLoopbackHost(host)) {
    const risks = devServices.map((d) => `${d}: ${DEV_SERVICE_RISK[d]}`).join('; ');
    if (!e.ALLOW_DEV_SERVICES_ON_NETWORK) {
      throw new ConfigError(
        `Refusing to start: HOST=${host} is not a loopback address and development services are on (${risks}). ` +
          'Configure the real services (OIDC_ISSUER, STRIPE_SECRET_KEY, NODE_ENV=production), listen on ' +
          'HOST=127.0.0.1, or set ALLOW_DEV_SERVICES_ON_NETWORK=true to offer them to the network anyway.',
      );
    }
    warnings.push(
      `DEVELOPMENT SERVICES ARE REACHABLE FROM THE NETWORK (HOST=${host}, ALLOW_DEV_SERVICES_ON_NETWORK=true): ${risks}.`,
    );
  }
  if (e.TRUST_PROXY === true) {
    warnings.push(
      'TRUST_PROXY=true believes every X-Forwarded-For header: any client can name its own address and ' +
        'so escape per-address limits. Set TRUST_PROXY to the number of proxies in front of the server, ' +
        'or to their addresses/CIDRs.',
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');

  if (e.JANUS_URL && !e.JANUS_API_SECRET) {
    throw new ConfigError('Invalid environment: JANUS_API_SECRET is required when JANUS_URL is set');
  }
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

  const wantsOpenAi = [e.AI_STT_PROVIDER, e.AI_TRANSLATION_PROVIDER, e.AI_SUMMARY_PROVIDER].includes(
    'openai',
  );
  if (wantsOpenAi && !e.AI_BASE_URL) {
    throw new ConfigError('Invalid environment: an AI provider is set to openai, which needs AI_BASE_URL');
  }
  if (e.AI_TRANSLATION_PROVIDER === 'libretranslate' && !e.LIBRETRANSLATE_URL) {
    throw new ConfigError(
      'Invalid environment: AI_TRANSLATION_PROVIDER=libretranslate needs LIBRETRANSLATE_URL',
    );
  }
  if (e.NODE_ENV === 'production' && (e.FREE_TIER_MINUTE_MS !== 60_000 || e.FREE_TIER_GRACE_MS !== 30_000)) {
    throw new ConfigError(
      'Invalid environment: FREE_TIER_MINUTE_MS and FREE_TIER_GRACE_MS are for tests; production keeps 60000 and 30000',
    );
  }
  const viaApi = e.AI_BASE_URL ? 'openai' : 'embedded';

  return {
    env: e.NODE_ENV,
    host,
    port: e.PORT,
    publicUrl,
    trustProxy: typeof e.TRUST_PROXY === 'number' ? trustHops(e.TRUST_PROXY) : e.TRUST_PROXY,
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
    jobs: {
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS,
      pollingSeconds: e.JOB_POLL_SECONDS,
      mailRetries: e.MAIL_RETRIES,
    },
    redisUrl: e.REDIS_URL,
    instanceId: e.INSTANCE_ID ?? randomUUID(),
    presence: { ttlMs: e.PRESENCE_TTL_MS },
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    files: {
      meetingQuotaBytes: e.FILES_QUOTA_PER_MEETING_MB * 1024 * 1024,
      hostQuotaBytes: e.FILES_QUOTA_PER_HOST_MB * 1024 * 1024,
      instanceQuotaBytes: e.FILES_QUOTA_TOTAL_MB * 1024 * 1024,
    },
    freeTier: { minuteMs: e.FREE_TIER_MINUTE_MS, graceMs: e.FREE_TIER_GRACE_MS },
    ice: {
      stunUrls: e.STUN_URLS ?? [...DEFAULT_STUN_URLS],
      turnUrls: e.TURN_URLS ?? [],
      turnSecret: e.TURN_SECRET,
    },
    media: {
      // The API tests start many apps at once: no Janus for them unless one asks.
      provider: e.MEDIA_PROVIDER ?? (e.NODE_ENV === 'test' ? 'p2p' : 'auto'),
      janusUrl: e.JANUS_URL,
      janusApiSecret: e.JANUS_API_SECRET,
      janusBin: e.JANUS_BIN,
      iceEnforceList: e.JANUS_ICE_ENFORCE_LIST ?? [],
      recordingsDir: e.JANUS_URL
        ? e.JANUS_RECORDINGS_DIR
          ? path.resolve(e.JANUS_RECORDINGS_DIR)
          : null
        : path.join(dataDir, 'recordings', 'raw'),
    },
    recordings: {
      dir: path.join(dataDir, 'recordings'),
      ppRecBin: e.JANUS_PP_REC_BIN,
      ffmpegBin: e.FFMPEG_BIN,
      ffprobeBin: e.FFPROBE_BIN,
      maxMs: Math.round(e.RECORDING_MAX_MINUTES * 60_000),
      hostQuotaBytes: e.RECORDING_QUOTA_PER_HOST_MB * 1024 * 1024,
      segmentMs: e.RECORDING_SEGMENT_SECONDS * 1000,
    },
    ai: {
      stt: e.AI_STT_PROVIDER ?? viaApi,
      translation: e.AI_TRANSLATION_PROVIDER ?? (e.LIBRETRANSLATE_URL ? 'libretranslate' : viaApi),
      summaries: e.AI_SUMMARY_PROVIDER ?? viaApi,
      openai: {
        baseUrl: e.AI_BASE_URL?.replace(/\/+$/, ''),
        apiKey: e.AI_API_KEY,
        sttModel: e.AI_STT_MODEL,
        translationModel: e.AI_TRANSLATION_MODEL,
        summaryModel: e.AI_SUMMARY_MODEL,
      },
      libreTranslate: { url: e.LIBRETRANSLATE_URL?.replace(/\/+$/, ''), apiKey: e.LIBRETRANSLATE_API_KEY },
      clipMaxMs: e.AI_CLIP_MAX_SECONDS * 1000,
    },
    devServices,
    warnings,
  };
}
