import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { isLoopbackHost } from '../../config.js';

/** Latency buckets (seconds): 5 ms to 10 s. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * `/metrics` in Prometheus' text format (prom-client), one registry per app: HTTP latency by
 * route (the route's pattern, never the raw URL, so ids do not explode the label set), this
 * instance's meetings and participants, WebSocket messages by direction and type, the live
 * captions' speech-to-text latency, and the process defaults (memory, event loop lag, GC). With METRICS_TOKEN the scrape needs
 * `Authorization: Bearer <token>`; without it, keep /metrics off the public proxy.
 */
async function metricsPlugin(app: FastifyInstance): Promise<void> {
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'parley_' });
  const http = new Histogram({
    name: 'parley_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: HTTP_BUCKETS,
    registers: [register],
  });
  const ws = new Counter({
    name: 'parley_ws_messages_total',
    help: 'WebSocket messages handled (in) and sent to a socket (out), by type',
    labelNames: ['direction', 'type'] as const,
    registers: [register],
  });
  const { sockets } = app.realtime;
  new Gauge({
    name: 'parley_active_meetings',
    help: 'Meetings with a participant connected to this instance',
    registers: [register],
    collect() {
      this.set(sockets.rooms().length);
    },
  });
  new Gauge({
    name: 'parley_active_participants',
    help: 'Participants whose socket is connected to this instance',
    registers: [register],
    collect() {
      this.set(sockets.count);
    },
  });

  new Gauge({
    name: 'parley_job_queue_depth',
    help: 'Jobs waiting or due for a retry, by queue',
    labelNames: ['queue'] as const,
    registers: [register],
    async collect() {
      for (const [queue, n] of Object.entries(await app.jobs.depth())) this.set({ queue }, n);
    },
  });

  const speech = new Histogram({
    name: 'parley_speech_to_text_latency_seconds',
    help: 'Live captions: from the audio frame in which an utterance ended arriving to its text from the engine',
    buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
    registers: [register],
  });
  app.decorate('metrics', { speechLatency: (seconds: number) => speech.observe(seconds) });

  app.realtime.settings.countMessage = (direction, type) => ws.inc({ direction, type });
  app.addHook('onResponse', async (request, reply) => {
    http.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
  });

  const token = app.config.metricsToken;
  const scrape = async () => ({ type: register.contentType, body: await register.metrics() });
  if (token || isLoopbackHost(app.config.host)) {
    app.get('/metrics', async (request, reply) => {
      if (token && !sameText(request.headers.authorization ?? '', `Bearer ${token}`)) {
        return reply.status(401).send({ message: 'A bearer token is needed for /metrics' });
      }
      const { type, body } = await scrape();
      return reply.header('content-type', type).send(body);
    });
  } else {
    // Listening on a network without a token: /metrics (who is in how many meetings, the
    // instance's load) is not for anyone who can reach the port. It moves to a loopback-only port.
    app.get('/metrics', async (_request, reply) =>
      reply.status(404).send({
        message: `/metrics is served on 127.0.0.1:${app.config.metricsPort} only; set METRICS_TOKEN to scrape it here`,
      }),
    );
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      scrape().then(
        ({ type, body }) => res.writeHead(200, { 'content-type': type }).end(body),
        (err: unknown) => {
          app.log.error({ err }, 'metrics scrape failed');
          res.writeHead(500).end();
        },
      );
    });
    app.decorate('metricsServer', server);
    app.addHook('onReady', async () => {
      // A port already taken (two instances on one host) costs the metrics, not the instance.
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', (err) => {
          app.log.warn({ err, port: app.config.metricsPort }, 'could not serve /metrics on 127.0.0.1');
          resolve(false);
        });
        server.listen(app.config.metricsPort, '127.0.0.1', () => resolve(true));
      });
      const address = server.address();
      if (listening)
        app.log.info(
          { port: typeof address === 'object' && address ? address.port : app.config.metricsPort },
          'HOST is not loopback and METRICS_TOKEN is not set: /metrics is served on 127.0.0.1 only',
        );
    });
    app.addHook('onClose', async () => {
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  }
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['realtime', 'jobs'] });

declare module 'fastify' {
  interface FastifyInstance {
    /** The loopback-only /metrics listener, when HOST is not loopback and there is no token. */
    metricsServer?: Server;
    /** What other modules report to /metrics. */
    metrics: { speechLatency(seconds: number): void };
  }
}
