/**
 * The bounded loopback load of issue 15, short enough for CI: 500 WebSocket clients in 50
 * meetings across two instances on a Redis of this file's own, sequence-numbered chat for
 * LOAD_DURATION_S (default 8) seconds: nothing lost, nothing duplicated, nothing out of order
 * per sender; p99 latency printed (the 60 s run with recorded figures is bench/chat-load.ts).
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DbHandle } from '../../src/db/index.js';
import { createTestDb } from '../db.js';
import { freePort, runChatLoad, startInstances, startRedis, type Instance } from './chat-load.js';

const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 8);
const haveRedis = spawnSync('redis-server', ['--version']).status === 0;
const required = process.env.CI === 'true';

describe.skipIf(!haveRedis && !required)('500 WebSocket clients in 50 meetings across two instances', () => {
  let redis: ChildProcess;
  let redisUrl: string;
  let db: DbHandle;
  let instances: Instance[] = [];

  beforeAll(async () => {
    if (!haveRedis) throw new Error('redis-server is not installed');
    const port = await freePort();
    redis = await startRedis(port);
    redisUrl = `redis://127.0.0.1:${port}`;
    db = await createTestDb();
    instances = await startInstances(db, redisUrl);
  });
  afterAll(async () => {
    for (const i of instances) await i.app.close().catch(() => undefined);
    await db?.close();
    redis?.kill('SIGKILL');
  });

  it(
    `sequence-numbered chat for ${DURATION_S} s: every message reaches its meeting exactly once, in order`,
    async () => {
      const r = await runChatLoad(instances, db, redisUrl, {
        clients: 500,
        meetings: 50,
        durationS: DURATION_S,
        intervalMs: 2000,
      });
      console.log(JSON.stringify(r));
      expect(r.perInstance).toEqual([250, 250]);
      expect(r.errors).toEqual([]);
      expect(r.rosterConvergenceMs.unconverged).toBe(0);
      expect(r.sent).toBeGreaterThan(500 * Math.floor(DURATION_S / 2) * 0.9);
      expect(r.expectedReceipts).toBe(r.sent * 10);
      expect(r.lost).toBe(0);
      expect(r.duplicated).toBe(0);
      expect(r.outOfOrder).toBe(0);
      expect(r.received).toBe(r.expectedReceipts);
      expect(r.latencyMs.p99).toBeGreaterThan(0);
    },
    (DURATION_S + 60) * 1000,
  );
});
