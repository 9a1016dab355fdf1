/**
 * Restarts of the real services under a running app (issue 15): a PostgreSQL connection loss
 * and a Redis restart are survived.
 *
 * - PostgreSQL: the app runs on a database of its own on the machine's PostgreSQL; an admin
 *   connection terminates every backend of that database (`pg_terminate_backend`, what a server
 *   restart or a failover does to the pool). The shared server itself is never stopped: other
 *   suites use it.
 * - Redis: a redis-server of this file's own on a spare port (the shared one on 6379 is left
 *   alone), with nothing on disk, as on this machine. Two instances share a meeting; Redis is
 *   killed and started again. Its room state is gone (nothing on disk), so what is lost is said
 *   by the test: the participants of that moment are told to join again; the bus reconnects by
 *   itself, and a new meeting across both instances works again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDb, type DbHandle } from '../../src/db/index.js';
import { signIn, makePro, type TestContext } from '../app.js';
import { createTestDb, migrationsDir } from '../db.js';
import { createMeeting } from '../meetings.js';
import { freePort, startRedis } from '../load/chat-load.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

const required = process.env.CI === 'true';
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function pgReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}
const havePg = await pgReachable();
const redisServer = await new Promise<boolean>((resolve) => {
  const p = spawn('redis-server', ['--version'], { stdio: 'ignore' });
  p.on('error', () => resolve(false));
  p.on('exit', (code) => resolve(code === 0));
});

function testConfig(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-restart-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...env,
  });
}

// ------------------------------------------------------------------------------- PostgreSQL

describe.skipIf(!havePg && !required)('a PostgreSQL connection loss is survived', () => {
  const name = `parley_restart_${process.pid}_${randomBytes(3).toString('hex')}`;
  let admin: pg.Client;
  let t: TestContext;
  const idleErrors: Error[] = [];

  beforeAll(async () => {
    if (!havePg) throw new Error(`PostgreSQL is not reachable at ${PG_ADMIN_URL}`);
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    // The pool as the app makes it (db/index.ts), with its idle-error listener.
    const db: DbHandle = await createDb({
      url: url.toString(),
      pgliteDir: '',
      migrationsDir,
      onIdleError: (err) => idleErrors.push(err),
    });
    const config = testConfig({ DATABASE_URL: url.toString() });
    const app = await buildApp(config, { db });
    await app.ready();
    t = { app, db, config, close: () => app.close() };
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await t?.db.close().catch(() => undefined);
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    await admin?.end();
  });

  /** Requests that each need the database: session lookup, a read, a write. */
  async function databaseRequests(cookie: string, hostId: string): Promise<number[]> {
    const ready = await t.app.inject({ url: '/api/ready' });
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    const list = await t.app.inject({ url: '/api/meetings/scheduled', headers: { cookie } });
    const m = await createMeeting(t, { hostId }).then(
      () => 201,
      () => 500,
    );
    return [ready.statusCode, me.statusCode, list.statusCode, m];
  }

  it('answers again once the pool has replaced the terminated connections', async () => {
    const { cookie, userId } = await signIn(t, { email: 'pg-restart@example.com' });
    await makePro(t, userId);
    // Warm several pooled connections, so that idle ones are terminated too.
    await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ url: '/api/ready' })));
    expect(await databaseRequests(cookie, userId)).toEqual([200, 200, 200, 201]);

    const killed = await admin.query<{ pid: number }>(
      'SELECT pg_terminate_backend(pid), pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    expect(killed.rowCount).toBeGreaterThan(0);
    // The idle connections hear their termination (57P01) and leave the pool: told, no crash.
    // (A request that takes a connection before its termination notice is read fails once:
    // /api/ready answers 503, another route a logged 500; see the next test.)
    const deadline = Date.now() + 3000;
    while (idleErrors.length < (killed.rowCount ?? 0) && Date.now() < deadline) await sleep(20);
    expect(idleErrors.length).toBe(killed.rowCount);
    expect(idleErrors.every((e) => /terminat/i.test(e.message))).toBe(true);

    // The next requests succeed: the pool opens new connections.
    expect(await databaseRequests(cookie, userId)).toEqual([200, 200, 200, 201]);
    const backends = await admin.query('SELECT 1 FROM pg_stat_activity WHERE datname = $1', [name]);
    expect(backends.rowCount).toBeGreaterThan(0);
  });

  it('requests in flight when the connections are terminated fail at worst with a logged 500, then all succeed', async () => {
    const { cookie, userId } = await signIn(t, { email: 'pg-restart-2@example.com' });
    // Terminate while requests are in flight: some may fail (their query died with the
    // connection), and then everything answers again within a second.
    const inFlight = Array.from({ length: 20 }, () =>
      t.app.inject({ url: '/api/auth/user', headers: { cookie } }).then((r) => r.statusCode),
    );
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    const codes = await Promise.all(inFlight);
    // A request whose query died answers the generic 500 (logged), never hangs or crashes.
    expect(codes.every((c) => c === 200 || c === 500)).toBe(true);
    await sleep(200);
    expect(await databaseRequests(cookie, userId)).toEqual([200, 200, 200, 201]);
  });
});

// ------------------------------------------------------------------------------------ Redis

async function stopRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

describe.skipIf(!redisServer && !required)('a Redis restart is survived', () => {
  let port: number;
  let redis: ChildProcess;
  let db: DbHandle;
  const instances: Array<{ t: TestContext; ws: string }> = [];
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    if (!redisServer) throw new Error('redis-server is not installed');
    port = await freePort();
    redis = await startRedis(port);
    db = await createTestDb();
    for (const id of ['ra', 'rb']) {
      const config = testConfig({
        REDIS_URL: `redis://127.0.0.1:${port}`,
        INSTANCE_ID: `${id}-${randomBytes(2).toString('hex')}`,
        PRESENCE_TTL_MS: '1000',
      });
      const app = await buildApp(config, { db });
      await app.ready();
      const t: TestContext = { app, db, config, close: () => app.close() };
      instances.push({ t, ws: (await listen(t)).ws });
    }
  });
  afterAll(async () => {
    for (const s of sockets) s.drop();
    for (const i of instances) await i.t.close().catch(() => undefined);
    await db?.close();
    if (redis) await stopRedis(redis);
  });

  it('reconnects the bus and serves meetings across instances again; the rooms of that moment are lost', async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const { userId: hostId } = await signIn(a.t, { email: 'redis-restart@example.com' });
    const m = await createMeeting(a.t, { hostId });
    const ann = await enter(a.t, a.ws, m.meetingId, { name: 'Ann' });
    const bob = await enter(b.t, b.ws, m.meetingId, { name: 'Bob' });
    sockets.push(ann.socket, bob.socket);
    ann.socket.send({ type: 'chat_message', content: 'before' });
    expect((await bob.socket.next('chat_message')).content).toBe('before');

    // Redis dies and comes back empty (nothing on disk).
    await stopRedis(redis);
    await sleep(300);
    // While it is down a REST join fails (today the generic 500 after ioredis gives up its
    // retries; a 503 would say it better: not built), and nothing crashes.
    const during = await b.t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      payload: { name: 'Dora', isHost: false, isMuted: false, isVideoOn: true, sessionId: 'dora-1' },
    });
    expect(during.statusCode).toBeGreaterThanOrEqual(400);
    console.log(`REST join while Redis is down: ${during.statusCode} ${during.body}`);
    redis = await startRedis(port);

    // The bus and the state client reconnect by themselves (ioredis, resubscribing).
    const deadline = Date.now() + 10_000;
    let cat: Awaited<ReturnType<typeof enter>> | null = null;
    let dan: Awaited<ReturnType<typeof enter>> | null = null;
    let attempts = 0;
    while (!dan && Date.now() < deadline) {
      // A new meeting per attempt: an attempt cut short by the reconnect leaves nobody behind.
      const fresh = await createMeeting(a.t, { hostId });
      attempts++;
      try {
        cat = await enter(a.t, a.ws, fresh.meetingId, { name: 'Cat' });
        dan = await enter(b.t, b.ws, fresh.meetingId, { name: 'Dan' });
      } catch {
        cat?.socket.drop();
        await sleep(200);
      }
    }
    console.log(`Redis restart: a meeting across both instances works again after ${attempts} attempt(s)`);
    expect(cat && dan).toBeTruthy();
    sockets.push(cat!.socket, dan!.socket);
    // Fan-out across the instances works again, both ways.
    cat!.socket.send({ type: 'chat_message', content: 'after, from a' });
    expect((await dan!.socket.next('chat_message')).content).toBe('after, from a');
    expect((await cat!.socket.next('chat_message')).content).toBe('after, from a'); // its echo
    dan!.socket.send({ type: 'chat_message', content: 'after, from b' });
    expect((await cat!.socket.next('chat_message')).content).toBe('after, from b');
    expect(dan!.joined?.participants.map((p) => p.name)).toEqual(['Cat']);

    // What was lost: the old meeting's room state. Ann and Bob's sockets stay open, but their
    // room is gone from Redis: a message from them gets `error not_joined` ('Send join_meeting
    // first') and reaches nobody; they are not told to rejoin (README, "Not built yet").
    ann.socket.send({ type: 'chat_message', content: 'after, from the old room', requestId: 'old-1' });
    await sleep(500);
    const annAfter = ann.socket.received
      .slice(-3)
      .map((r) => (r.type === 'error' ? `error ${r.code}: ${r.message}` : r.type));
    const bobGot = bob.socket.received.filter((r) => r.type === 'chat_message').map((r) => r.content);
    console.log(
      `old room after the Redis restart: Ann's socket ${ann.socket.ws.readyState === WebSocket.OPEN ? 'open' : 'closed'}` +
        ` (last: ${annAfter.join(', ')}); Bob's chat: ${bobGot.join(' | ')}`,
    );
    for (const s of [ann.socket, bob.socket]) {
      for (const r of s.received) if (r.type === 'error') expect(r.code).not.toBe('internal');
    }
    // They can join again (a fresh REST join recreates the room in Redis).
    const again = await enter(b.t, b.ws, m.meetingId, { name: 'Ann again' });
    sockets.push(again.socket);
    expect(again.joined?.self.name).toBe('Ann again');
  });
});
