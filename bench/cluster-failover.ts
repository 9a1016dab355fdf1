/**
 * Issue 15's figures that need real processes: BENCH_CLIENTS (1,000) WebSocket participants in
 * BENCH_MEETINGS (10) meetings across two server processes (the production build,
 * `apps/server/dist/main.js`, each with its inspector open) on one PostgreSQL database and a
 * redis-server of the benchmark's own; half of each meeting on each instance.
 *
 * - roster convergence per meeting (its members join at once, one meeting after another): from
 *   its first REST join to every member knowing all the others (target ≤ 2 s);
 * - server memory per participant: each instance's used JS heap after a full GC inside it
 *   (through its inspector) with its participants joined, minus before, over its participants;
 *   and the RSS difference;
 * - chat: everyone sends sequence-numbered chat every BENCH_INTERVAL_MS (10 s) for
 *   BENCH_DURATION_S (30 s): lost, duplicated, latency p50/p99 (target ≤ 50 ms), Redis commands
 *   per message (bench/chat-load.ts's measureChat);
 * - an instance killed (SIGKILL): its clients reconnect as the web client does (back-off from
 *   250 ms, doubling, half-to-full jitter) to the surviving instance with their join token;
 *   the time from the kill to each one's `joined` as the same participant (target ≤ 10 s), the
 *   `participant_left` the others were shown meanwhile (expected: none), and every meeting's
 *   roster once the dead instance's presence has expired (PRESENCE_TTL_MS 12 s by default; the
 *   sweep could only remove someone who did not come back): each meeting still has all its
 *   members, once each.
 *
 * The clients run in this process, on the same 2 cores as both servers. Needs `npm run build`
 * and a PostgreSQL server (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test).
 * Writes bench/results/cluster-failover.json; a miss exits 1.
 */
// The server's own ambient declarations (janode has no types), as apps/server/tsconfig includes them.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient `declare module` file cannot be imported
/// <reference path="../apps/server/src/providers/media/janode.d.ts" />
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { createDb } from '../apps/server/src/db/index.js';
import { createUsersRepository } from '../apps/server/src/modules/users/repository.js';
import { migrationsDir } from '../apps/server/test/db.js';
import {
  freePort,
  groupByMeeting,
  joinClient,
  measureChat,
  percentile,
  rosterConvergence,
  startRedis,
  type Client,
} from '../apps/server/test/load/chat-load.js';
import { createMeeting } from '../apps/server/test/meetings.js';
import { startServer, type RunningServer } from '../e2e/support/server.js';
import { connectInspector, type ServerInspector } from './support/inspector.js';
import { recordResult, repoRoot } from './support/results.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const MEETINGS = Number(process.env.BENCH_MEETINGS ?? 10);
const PRESENCE_TTL_MS = 12_000;
const CHAT_DURATION_S = Number(process.env.BENCH_DURATION_S ?? 30);
const CHAT_INTERVAL_MS = Number(process.env.BENCH_INTERVAL_MS ?? 10_000);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number) => Math.round(x * 10) / 10;

if (!existsSync(path.join(repoRoot, 'apps/server/dist/main.js'))) {
  console.error('no production build: run npm run build first');
  process.exit(1);
}

interface Node {
  server: RunningServer;
  inspector: ServerInspector;
  http: string;
  ws: string;
}

const rssBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) * 1024;

async function startNode(id: string, databaseUrl: string, redisUrl: string): Promise<Node> {
  const inspectPort = await freePort();
  const server = await startServer({
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    INSTANCE_ID: id,
    TRUST_PROXY: 'loopback',
    PRESENCE_TTL_MS: String(PRESENCE_TTL_MS),
    NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
  });
  const inspector = await connectInspector(inspectPort);
  return { server, inspector, http: server.url, ws: server.url.replace(/^http/, 'ws') };
}

async function memory(nodes: Node[]) {
  const out: Array<{ heap: number; rss: number }> = [];
  for (const n of nodes) out.push({ heap: await n.inspector.heapUsedAfterGc(), rss: rssBytes(n.server.pid) });
  return out;
}

/** Reconnects a client of the killed instance to `to`, as the web client would; answers when it is back. */
async function comeBack(c: Client, to: Node, meetingId: string, killedAt: number): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    await sleep(Math.round(Math.min(5000, 250 * 2 ** (attempt - 1)) * (0.5 + Math.random() * 0.5)));
    const ws = new WebSocket(`${to.ws}/ws?meetingId=${meetingId}&name=P${c.index}&host=false`, {
      headers: { 'x-forwarded-for': `10.${(c.index >> 16) & 255}.${(c.index >> 8) & 255}.${c.index & 255}` },
    });
    const back = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      ws.once('open', () => ws.send(JSON.stringify({ type: 'join_meeting', joinToken: c.joinToken })));
      ws.once('error', () => resolve(null));
      ws.once('close', () => resolve(null));
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as { type: string; self?: { id: string }; message?: string };
        if (m.type === 'error') {
          console.log(`client ${c.index}: ${m.message}`);
          clearTimeout(timer);
          resolve(null);
          return;
        }
        if (m.type !== 'joined') return;
        clearTimeout(timer);
        resolve(m.self?.id === c.id ? performance.now() - killedAt : -1);
      });
    });
    if (back === -1) throw new Error(`client ${c.index} came back as someone else`);
    if (back !== null) {
      c.ws = ws;
      return back;
    }
    ws.terminate();
    if (attempt > 10) throw new Error(`client ${c.index} did not come back`);
  }
}

const loadBefore = os.loadavg()[0];
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const dbName = `parley_failover_${process.pid}_${randomBytes(3).toString('hex')}`;
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const redisPort = await freePort();
const redis = await startRedis(redisPort);
const redisUrl = `redis://127.0.0.1:${redisPort}`;
const nodes: Node[] = [];
const clients: Client[] = [];
let db: Awaited<ReturnType<typeof createDb>> | null = null;
try {
  // One after the other: the first applies the migrations.
  nodes.push(await startNode(`fo-a-${process.pid}`, dbUrl.toString(), redisUrl));
  nodes.push(await startNode(`fo-b-${process.pid}`, dbUrl.toString(), redisUrl));
  const [a, b] = nodes as [Node, Node];
  db = await createDb({ url: dbUrl.toString(), pgliteDir: '', migrationsDir, onIdleError: () => undefined });
  const owner = await createUsersRepository(db.db).upsertFromIdentity({
    issuer: 'bench',
    subject: `failover-host-${process.pid}`,
    email: `failover-host-${process.pid}@example.com`,
    firstName: 'Bench',
    lastName: 'Host',
  });
  const meetingIds: string[] = [];
  for (let i = 0; i < MEETINGS; i++) {
    meetingIds.push(
      (await createMeeting({ db } as never, { hostId: owner.id, maxParticipants: 100 })).meetingId,
    );
  }
  console.log(
    `${CLIENTS} clients in ${MEETINGS} meetings on 2 server processes (PostgreSQL, Redis); load average ${loadBefore?.toFixed(2)}`,
  );
  const before = await memory(nodes);

  // Meeting by meeting, all its members at once, alternating between the instances.
  const t0 = performance.now();
  for (let meeting = 0; meeting < MEETINGS; meeting++) {
    const indices = Array.from({ length: CLIENTS }, (_, i) => i).filter((i) => i % MEETINGS === meeting);
    clients.push(
      ...(await Promise.all(
        indices.map((index) => {
          const instance = Math.floor(index / MEETINGS) % 2;
          return joinClient(nodes[instance]!, meetingIds[meeting]!, index, meeting, instance, indices.length);
        }),
      )),
    );
  }
  const joinMs = performance.now() - t0;
  await sleep(2000);
  const byMeeting = groupByMeeting(clients);
  const convergence = rosterConvergence(clients);

  const after = await memory(nodes);
  const perInstance = [0, 1].map((i) => clients.filter((c) => c.instance === i).length);
  const memoryPerParticipant = after.map((m, i) => ({
    participants: perInstance[i],
    heapKiB: round((m.heap - before[i]!.heap) / 1024 / perInstance[i]!),
    rssKiB: round((m.rss - before[i]!.rss) / 1024 / perInstance[i]!),
    heapMiB: round(m.heap / 1024 ** 2),
    rssMiB: round(m.rss / 1024 ** 2),
  }));
  console.log('memory per participant', memoryPerParticipant);

  // Chat from everyone, servers in their own processes (the clients in this one).
  const chat = await measureChat(clients, redisUrl, {
    durationS: CHAT_DURATION_S,
    intervalMs: CHAT_INTERVAL_MS,
  });
  console.log(`chat: p50 ${chat.latencyMs.p50} ms, p99 ${chat.latencyMs.p99} ms, ${chat.lost} lost`);

  // Kill B. The others count the participant_left they are shown from now on.
  let leftShown = 0;
  for (const c of clients.filter((x) => x.instance === 0)) {
    c.ws.on('message', (data) => {
      if ((JSON.parse(String(data)) as { type: string }).type === 'participant_left') leftShown++;
    });
  }
  const victims = clients.filter((c) => c.instance === 1);
  const closed = Promise.all(victims.map((c) => new Promise((r) => c.ws.once('close', r))));
  const killedAt = performance.now();
  process.kill(b.server.pid, 'SIGKILL');
  await b.server.stop();
  await closed;
  const backTimes = await Promise.all(victims.map((c) => comeBack(c, a, meetingIds[c.meeting]!, killedAt)));
  backTimes.sort((x, y) => x - y);
  console.log(`all ${victims.length} back after ${Math.round(backTimes[backTimes.length - 1]!)} ms`);

  // Past the dead instance's presence expiry and a sweep: nobody who came back is swept.
  await sleep(PRESENCE_TTL_MS * 2);
  const rosters: number[] = [];
  let duplicates = 0;
  for (const [meeting, members] of byMeeting) {
    const res = await fetch(`${a.http}/api/meetings/${meetingIds[meeting]}/participants`, {
      headers: { authorization: `Bearer ${members[0]!.joinToken}` },
    });
    const list = (await res.json()) as Array<{ id: string }>;
    rosters.push(list.length);
    duplicates += list.length - new Set(list.map((p) => p.id)).size;
  }

  const missed: string[] = [];
  if (convergence.unconverged) missed.push(`${convergence.unconverged} meetings' rosters never converged`);
  if (!(convergence.max <= 2000)) missed.push(`roster convergence ${convergence.max} ms > 2 s`);
  if (!(chat.latencyMs.p99 <= 50)) missed.push(`chat p99 ${chat.latencyMs.p99} ms > 50 ms`);
  if (chat.lost || chat.duplicated) missed.push(`chat: ${chat.lost} lost, ${chat.duplicated} duplicated`);
  if (!(backTimes[backTimes.length - 1]! <= 10_000))
    missed.push(
      `killed instance's clients back after ${Math.round(backTimes[backTimes.length - 1]!)} ms > 10 s`,
    );
  if (leftShown) missed.push(`${leftShown} participant_left shown for people who came back`);
  const expectedRoster = CLIENTS / MEETINGS;
  if (rosters.some((n) => n !== expectedRoster) || duplicates)
    missed.push(
      `rosters after the sweep: ${rosters.join(', ')} (expected ${expectedRoster} each), ${duplicates} duplicated`,
    );
  const result = {
    clients: CLIENTS,
    meetings: MEETINGS,
    perInstance,
    runs: 1,
    database: 'postgresql',
    joinMs: Math.round(joinMs),
    rosterConvergenceMs: convergence,
    memoryPerParticipant,
    chat: { intervalMs: CHAT_INTERVAL_MS, ...chat },
    killedInstance: {
      clients: victims.length,
      backMs: {
        p50: Math.round(percentile(backTimes, 50)),
        p90: Math.round(percentile(backTimes, 90)),
        max: Math.round(backTimes[backTimes.length - 1]!),
      },
      participantLeftShown: leftShown,
      rostersAfterSweep: rosters,
      duplicatedInRosters: duplicates,
      presenceTtlMs: PRESENCE_TTL_MS,
    },
    loadAverageAtStart: loadBefore,
    missedTargets: missed,
  };
  console.log(JSON.stringify(result, null, 2));
  console.log(`written ${recordResult('cluster-failover', result)}`);
  if (missed.length) {
    console.error(`MISSED: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  for (const c of clients) c.ws.terminate();
  for (const n of nodes) {
    n.inspector.close();
    await n.server.stop();
  }
  await db?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
  redis.kill('SIGKILL');
}
