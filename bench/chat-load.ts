/**
 * The loopback chat load of issue 15 at full length: BENCH_CLIENTS (500) WebSocket clients in
 * BENCH_MEETINGS (50) meetings across two server instances (two apps in one process, real
 * sockets, a redis-server of its own on a spare port, PostgreSQL when BENCH_DATABASE_URL's server
 * answers, else PGlite), each sending sequence-numbered chat every BENCH_INTERVAL_MS (2000) for
 * BENCH_DURATION_S (60) seconds. Figures: lost, duplicated and out-of-order receipts (targets: 0),
 * send → receipt latency p50/p99/max (target p99 ≤ 50 ms, as for one instance), Redis commands per
 * chat message (INFO commandstats), join time. The clients run in the same process as the two
 * servers, on the same 2 cores: the latency includes their own work.
 * The runner is apps/server/test/load/chat-load.ts (its CI test runs it for 8 s).
 * Also the roster convergence per meeting (from its first member's join to every member knowing
 * all the others; a meeting's members join at once, one meeting after another).
 * The 1,000-participant run: BENCH_CLIENTS=1000 BENCH_MEETINGS=10 BENCH_INTERVAL_MS=10000
 * BENCH_RESULT_NAME=chat-load-1000.
 * Writes bench/results/${BENCH_RESULT_NAME:-chat-load}.json; a miss exits 1.
 */
// The server's own ambient declarations (janode has no types), as apps/server/tsconfig includes them.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient `declare module` file cannot be imported
/// <reference path="../apps/server/src/providers/media/janode.d.ts" />
import os from 'node:os';
import pg from 'pg';
import { createTestDb } from '../apps/server/test/db.js';
import { freePort, runChatLoad, startInstances, startRedis } from '../apps/server/test/load/chat-load.js';
import { recordResult } from './support/results.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 500);
const MEETINGS = Number(process.env.BENCH_MEETINGS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 60);
const INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 2000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers(): Promise<boolean> {
  const c = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

const onPostgres = await postgresAnswers();
if (onPostgres) {
  process.env.PARLEY_TEST_DB = 'postgres';
  process.env.TEST_DATABASE_URL = adminUrl;
}
const loadBefore = os.loadavg()[0];
const port = await freePort();
const redis = await startRedis(port);
const redisUrl = `redis://127.0.0.1:${port}`;
const db = await createTestDb();
const instances = await startInstances(db, redisUrl);
try {
  console.log(
    `${CLIENTS} clients in ${MEETINGS} meetings on 2 instances (${onPostgres ? 'PostgreSQL' : 'PGlite'}), ` +
      `chat every ${INTERVAL_MS} ms for ${DURATION_S} s; load average ${loadBefore?.toFixed(2)}`,
  );
  const r = await runChatLoad(instances, db, redisUrl, {
    clients: CLIENTS,
    meetings: MEETINGS,
    durationS: DURATION_S,
    intervalMs: INTERVAL_MS,
  });
  console.log(JSON.stringify(r, null, 2));
  const missed: string[] = [];
  if (r.lost) missed.push(`${r.lost} receipts lost`);
  if (r.duplicated) missed.push(`${r.duplicated} receipts duplicated`);
  if (r.outOfOrder) missed.push(`${r.outOfOrder} receipts out of order`);
  if (r.errors.length) missed.push(`errors: ${r.errors.join('; ')}`);
  if (!(r.latencyMs.p99 <= 50)) missed.push(`p99 ${r.latencyMs.p99} ms > 50 ms`);
  if (r.rosterConvergenceMs.unconverged)
    missed.push(`${r.rosterConvergenceMs.unconverged} meetings' rosters never converged`);
  if (!(r.rosterConvergenceMs.max <= 2000))
    missed.push(`roster convergence ${r.rosterConvergenceMs.max} ms > 2 s`);
  console.log(
    `written ${recordResult(process.env.BENCH_RESULT_NAME ?? 'chat-load', {
      ...r,
      database: onPostgres ? 'postgresql' : 'pglite',
      intervalMs: INTERVAL_MS,
      runs: 1,
      loadAverageAtStart: loadBefore,
      missedTargets: missed,
    })}`,
  );
  if (missed.length) {
    console.error(`MISSED: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const i of instances) await i.app.close().catch(() => undefined);
  await db.close();
  redis.kill('SIGKILL');
}
