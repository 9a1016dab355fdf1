import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { DbHandle } from '../../db/index.js';

/**
 * The job queue: pg-boss on the app's own database. On PostgreSQL it uses the app's pool; on the
 * embedded PGlite it runs through the same adapter (pg-boss's SQL — its schema, SKIP LOCKED and
 * advisory locks — runs unchanged on PGlite, which serialises queries on its one connection).
 * Jobs are rows in the `pgboss` schema, so they survive a restart.
 */

export interface RetryPolicy {
  /** Attempts after the first. */
  retryLimit: number;
  /** Seconds before the first retry; doubled (with jitter) for each further one. */
  retryDelay: number;
  /** Jobs one worker runs at the same time (default 1). */
  concurrency?: number;
  /**
   * How long one attempt may run before the queue counts it failed (pg-boss's default: 15
   * minutes). A job that may run longer must say so, or it is retried while it still runs.
   */
  expireInSeconds?: number;
}

export interface JobContext {
  /** Retries already made before this attempt (0 on the first). */
  retryCount: number;
  /** True when a failure of this attempt is final. */
  lastAttempt: boolean;
}

export type JobHandler<T> = (data: T, ctx: JobContext) => Promise<void>;

export interface JobQueue {
  /** Declares a queue and its worker; work starts when the queue starts. */
  define<T extends object>(name: string, policy: RetryPolicy, handler: JobHandler<T>): void;
  /** Adds jobs, all in one insert. */
  enqueue<T extends object>(name: string, jobs: T[]): Promise<void>;
  /** Jobs waiting or being retried, by queue (empty before the queue has started). */
  depth(): Promise<Record<string, number>>;
  /** Resolves once no job is waiting, running or due for a retry (tests; bounded by `timeoutMs`). */
  idle(timeoutMs?: number): Promise<void>;
  /** Starts pg-boss (creating its schema the first time) and the workers. Idempotent. */
  start(): Promise<void>;
  /** True once pg-boss's schema exists in this database (jobs may be waiting). */
  installed(): Promise<boolean>;
  stop(): Promise<void>;
}

interface Executor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows: unknown[] }[]>;
}
interface PoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] } | { rows: unknown[] }[]>;
}

/** pg-boss's bring-your-own-database adapter over the app's client. */
export function executorFor(handle: DbHandle): Executor {
  const client = (handle.db as unknown as { $client: unknown }).$client;
  if (handle.kind === 'pglite') {
    const lite = client as PgliteLike;
    return {
      async executeSql(text, values) {
        // pg-boss sends multi-statement scripts (BEGIN; …; COMMIT) without parameters: exec runs them.
        if (values && values.length > 0) return lite.query(text, values);
        const results = await lite.exec(text);
        return results[results.length - 1] ?? { rows: [] };
      },
    };
  }
  const pool = client as PoolLike;
  return {
    async executeSql(text, values) {
      const result = await pool.query(text, values);
      return Array.isArray(result) ? (result[result.length - 1] ?? { rows: [] }) : result;
    },
  };
}

export interface JobQueueOptions {
  handle: DbHandle;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for jobs. */
  pollingSeconds?: number;
}

const SCHEMA = 'pgboss';

export function createJobQueue({ handle, log, pollingSeconds = 2 }: JobQueueOptions): JobQueue {
  const db = executorFor(handle);
  const defined = new Map<string, { policy: RetryPolicy; handler: JobHandler<object> }>();
  let boss: PgBoss | null = null;
  let starting: Promise<PgBoss> | null = null;
  let stopped = false;
  const workers = new Map<string, string>();

  async function startBoss(): Promise<PgBoss> {
    const b = new PgBoss({
      db: db as unknown as PgBoss.Db,
      schema: SCHEMA,
      // Each instance may supervise; pg-boss elects one through an advisory lock.
      supervise: true,
      schedule: false,
      migrate: true,
    });
    b.on('error', (err) => log.error({ err }, 'job queue error'));
    await b.start();
    for (const [name, { policy, handler }] of defined) {
      await b.createQueue(name, {
        name,
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelay,
        retryBackoff: true,
        ...(policy.expireInSeconds ? { expireInSeconds: policy.expireInSeconds } : {}),
      });
      const batchSize = policy.concurrency ?? 1;
      const id: string = await b.work<object>(
        name,
        { pollingIntervalSeconds: pollingSeconds, batchSize, includeMetadata: true },
        async (batch) => {
          // Each job of the batch succeeds or fails on its own: failures are failed here (pg-boss
          // schedules their retry), and pg-boss completes the rest when this returns.
          const results = await Promise.allSettled(
            batch.map((job) =>
              handler(job.data, {
                retryCount: job.retryCount,
                lastAttempt: job.retryCount >= job.retryLimit,
              }),
            ),
          );
          for (const [i, r] of results.entries()) {
            if (r.status === 'rejected') {
              const reason: unknown = r.reason;
              await b.fail(name, batch[i]!.id, {
                message: reason instanceof Error ? reason.message : String(reason),
              });
            }
          }
          // A full batch means more may wait: look again at once instead of after the interval.
          if (batch.length === batchSize) b.notifyWorker(id);
        },
      );
      workers.set(name, id);
    }
    boss = b;
    return b;
  }

  function started(): Promise<PgBoss> {
    if (stopped) return Promise.reject(new Error('The job queue has stopped'));
    starting ??= startBoss().catch((err: unknown) => {
      starting = null;
      throw err;
    });
    return starting;
  }

  return {
    define(name, policy, handler) {
      if (starting) throw new Error(`Define job queue ${name} before the queue starts`);
      defined.set(name, { policy, handler: handler as JobHandler<object> });
    },

    async enqueue(name, jobs) {
      if (!defined.has(name)) throw new Error(`Unknown job queue ${name}`);
      if (jobs.length === 0) return;
      const b = await started();
      // Per job too: a queue made by an earlier version keeps its settings.
      const expireInSeconds = defined.get(name)!.policy.expireInSeconds;
      await b.insert(jobs.map((data) => ({ name, data, ...(expireInSeconds ? { expireInSeconds } : {}) })));
      // This instance's worker looks at once rather than at its next poll.
      const worker = workers.get(name);
      if (worker) b.notifyWorker(worker);
    },

    async depth() {
      // Before pg-boss starts no job of this run exists (a previous run's start it at ready).
      const out: Record<string, number> = {};
      for (const name of defined.keys())
        out[name] = boss ? await boss.getQueueSize(name, { before: 'active' }) : 0;
      return out;
    },

    async idle(timeoutMs = 30_000) {
      if (!starting) return;
      const b = await starting;
      const until = Date.now() + timeoutMs;
      for (;;) {
        let busy = 0;
        for (const name of defined.keys()) busy += await b.getQueueSize(name, { before: 'completed' });
        if (busy === 0) return;
        if (Date.now() > until) throw new Error(`The job queue is still busy (${busy} jobs)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },

    start: async () => {
      await started();
    },

    async installed() {
      const { rows } = await db.executeSql(
        `SELECT to_regclass('${SCHEMA}.job') IS NOT NULL AS installed`,
        [] as unknown[],
      );
      return Boolean((rows[0] as { installed?: boolean } | undefined)?.installed);
    },

    async stop() {
      stopped = true;
      if (!starting) return;
      const b = await starting.catch(() => null);
      await b?.stop({ graceful: true, wait: true, timeout: 5000 });
      boss = null;
    },
  };
}
