import net from 'node:net';
import { buildApp } from '../src/app.js';
import { afterAll, beforeAll } from 'vitest';
import type { DbHandle } from '../src/db/index.js';
import { signIn, testConfig, type TestContext } from './app.js';
import { createTestDb } from './db.js';
import { listen, type TestSocket } from './ws-client.js';

/** The machine's Redis, which the tests of several instances share (their keys are their own). */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether the machine's Redis answers on 127.0.0.1:6379. */
export const redisReachable = await new Promise<boolean>((resolve) => {
  const socket = net.connect(6379, '127.0.0.1');
  socket.once('connect', () => {
    socket.destroy();
    resolve(true);
  });
  socket.once('error', () => resolve(false));
});
/** On CI a missing Redis is a failure, not a skip (as in realtime/bus.test.ts). */
export const redisRequired = process.env.CI === 'true';

export interface Instance {
  t: TestContext;
  ws: string;
}

/** One server instance on the shared database and Redis, listening on its own port. */
export async function startInstance(
  db: DbHandle,
  id: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const config = testConfig({ REDIS_URL, INSTANCE_ID: id, ...env });
  const app = await buildApp(config, { db });
  await app.ready();
  const t: TestContext = { app, db, config, close: () => app.close() };
  const { ws } = await listen(t);
  return { t, ws };
}

/**
 * Two instances on one fresh database and the machine's Redis for the `describe` that calls it
 * (started before its tests, closed after them with the sockets pushed to `opened`), and a
 * signed-in user to host meetings. Read its fields inside the tests.
 */
export function twoInstances(name: string) {
  const run = `${name}-${Math.random().toString(36).slice(2, 8)}`;
  const pair = {
    db: null as unknown as DbHandle,
    a: null as unknown as Instance,
    b: null as unknown as Instance,
    hostId: '',
    opened: [] as TestSocket[],
  };
  beforeAll(async () => {
    if (!redisReachable) throw new Error('Redis is not listening on 127.0.0.1:6379');
    pair.db = await createTestDb();
    pair.a = await startInstance(pair.db, `${run}-a`);
    pair.b = await startInstance(pair.db, `${run}-b`);
    ({ userId: pair.hostId } = await signIn(pair.a.t, { email: `${run}-host@example.com` }));
  });
  afterAll(async () => {
    for (const s of pair.opened) s.drop();
    await pair.a?.t.close().catch(() => undefined);
    await pair.b?.t.close().catch(() => undefined);
    await pair.db?.close();
  });
  return pair;
}
