import { randomUUID } from 'node:crypto';
import { JSON_BODY_LIMIT_BYTES } from '@parley/protocol';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { createDb, type DbHandle } from './db/index.js';
import { onFrameworkError, registerErrorHandling } from './http/errors.js';
import { registerSecurityHeaders } from './http/security.js';
import { registerSpa } from './http/spa.js';
import aiEnginesPlugin, { type AiEngines } from './modules/ai/engines.js';
import aiPlugin from './modules/ai/plugin.js';
import { aiRoutes } from './modules/ai/routes.js';
import authPlugin from './modules/auth/plugin.js';
import backgroundsPlugin from './modules/backgrounds/plugin.js';
import billingPlugin from './modules/billing/plugin.js';
import { billingRoutes } from './modules/billing/routes.js';
import { backgroundRoutes } from './modules/backgrounds/routes.js';
import { oidcRoutes } from './modules/auth/oidc-routes.js';
import { userRoutes } from './modules/auth/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import jobsPlugin from './modules/jobs/plugin.js';
import mailPlugin from './modules/mail/plugin.js';
import metricsPlugin from './modules/metrics/plugin.js';
import mediaFollowerPlugin from './modules/media/follower.js';
import mediaPlugin from './modules/media/plugin.js';
import { mailRoutes } from './modules/mail/routes.js';
import meetingsPlugin from './modules/meetings/plugin.js';
import { meetingRoutes } from './modules/meetings/routes.js';
import { fileRoutes } from './modules/files/routes.js';
import { roomRoutes } from './modules/rooms/routes.js';
import reportPlugin from './modules/report/plugin.js';
import { reportRoutes } from './modules/report/routes.js';
import subscriptionsPlugin from './modules/subscriptions/plugin.js';
import { subscriptionRoutes } from './modules/subscriptions/routes.js';
import busPlugin from './providers/bus/plugin.js';
import paymentsPlugin from './providers/payments/plugin.js';
import chatPlugin from './modules/chat/plugin.js';
import collaborationPlugin from './modules/collaboration/plugin.js';
import { collaborationRoutes } from './modules/collaboration/routes.js';
import filesPlugin from './modules/files/plugin.js';
import retentionPlugin from './modules/retention/plugin.js';
import roomsPlugin from './modules/rooms/plugin.js';
import recordingsPlugin from './modules/recordings/plugin.js';
import { recordingRoutes } from './modules/recordings/routes.js';
import { featureRoutes } from './modules/features/routes.js';
import realtimePlugin from './realtime/plugin.js';
import { realtimeRoutes } from './realtime/routes.js';

export interface AppDeps {
  /** An already-open database (tests share one); otherwise the app opens its own from config. */
  db?: DbHandle;
  /** Where the log goes (tests read it to check levels); standard output otherwise. */
  logStream?: DestinationStream;
  /** AI engines to use instead of the configuration's (tests give deterministic ones). */
  ai?: Partial<AiEngines>;
  /** The attendance clock of the meeting report (tests script a meeting's timeline). */
  now?: () => number;
}

export type App = FastifyInstance;

/**
 * Builds the whole server from a config object. It never listens: `main.ts` does, and tests call
 * `app.inject`.
 */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    frameworkErrors: onFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const ownsDb = !deps.db;
  const db =
    deps.db ??
    (await createDb({
      ...config.database,
      migrationsDir: config.migrationsDir,
      onIdleError: (err) => app.log.warn({ err }, 'idle database connection failed; the pool replaces it'),
    }));
  app.decorate('config', config);
  app.decorate('db', db);
  if (ownsDb) app.addHook('onClose', async () => db.close());

  registerErrorHandling(app);
  await registerSecurityHeaders(app, config);
  // Services and providers, each a named plugin that declares what it needs.
  await app.register(authPlugin);
  await app.register(jobsPlugin);
  await app.register(mailPlugin);
  await app.register(busPlugin);
  await app.register(realtimePlugin);
  await app.register(metricsPlugin);
  await app.register(chatPlugin);
  await app.register(filesPlugin);
  await app.register(retentionPlugin);
  await app.register(aiEnginesPlugin, { engines: deps.ai });
  await app.register(paymentsPlugin);
  await app.register(subscriptionsPlugin);
  await app.register(mediaPlugin);
  await app.register(roomsPlugin);
  // The features that follow the room's events, each from its own plugin (rooms/events.ts).
  await app.register(mediaFollowerPlugin);
  await app.register(billingPlugin);
  await app.register(recordingsPlugin);
  await app.register(aiPlugin);
  await app.register(reportPlugin, { now: deps.now });
  await app.register(meetingsPlugin);
  await app.register(collaborationPlugin);
  await app.register(backgroundsPlugin);
  // Routes.
  await app.register(healthRoutes, { db });
  await app.register(userRoutes);
  await app.register(oidcRoutes);
  await app.register(subscriptionRoutes);
  await app.register(meetingRoutes);
  await app.register(mailRoutes);
  await app.register(roomRoutes);
  await app.register(fileRoutes);
  await app.register(recordingRoutes);
  await app.register(featureRoutes);
  await app.register(collaborationRoutes);
  await app.register(reportRoutes);
  await app.register(backgroundRoutes);
  await app.register(aiRoutes);
  await app.register(billingRoutes);
  await app.register(realtimeRoutes);
  await registerSpa(app, config.webDistDir);

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: DbHandle;
  }
}
