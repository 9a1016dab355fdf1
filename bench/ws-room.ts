/**
 * 100 synthetic WebSocket participants in one meeting against the production server build as a
 * real process (on PostgreSQL, so the meeting row can be written beside it):
 * - roster convergence: from the moment all 100 start joining (POST /join, open /ws, join_meeting)
 *   until every participant knows all 99 others (target ≤ 2 s);
 * - chat fan-out: one participant sends, the 99 others receive; latency from send to each receipt,
 *   p50/p99 over 30 messages (target p99 ≤ 50 ms);
 * - server memory per participant: the server's used JS heap after a full garbage collection
 *   inside the server (through its inspector), with 100 joined minus before, / 100; the RSS
 *   difference is recorded beside it (it also holds socket buffers, but is noisy).
 * - slow reader (security review, issue 10 item 3): in a room of its own, 8 senders of ~40 KB
 *   collaboration updates, a reader and one participant that stops reading; server memory (used
 *   JS heap after a full GC, and RSS after that GC) stays within 10% of what it was under the same
 *   flood with everyone reading, for BENCH_SLOW_READER_S (60) seconds. The server closes the
 *   slow socket (4013, then cuts it off); the slow participant comes back and stops reading
 *   again, for the whole run, as a persistent attacker would.
 * A lost chat receipt counts as a failure (an infinite latency in the percentiles), never dropped.
 * A missed target or a lost receipt is reported and makes the benchmark exit 1.
 * With BENCH_BUILD=bench/dist/<tag> the server is that private build (bench/support/server.ts).
 * Writes bench/results/ws-room.json.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { ServerMessage } from '@parley/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { cpuSeconds, rssBytes } from '../e2e/support/proc.js';
import { freePort, startServer as startAppServer } from '../e2e/support/server.js';
import { connectInspector, type ServerInspector } from './support/inspector.js';
import { recordResult } from './support/results.js';
import { Participant } from './support/bots.js';
import { startBenchServer } from './support/server.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 100);
const SLOW_READER_S = Number(process.env.BENCH_SLOW_READER_S ?? 60);
/** Updates each sender sends a second (under the 50 messages a second a socket may send). */
// Each sender's ~40 KB updates stay within its collaboration budget (256 KiB/s).
const SLOW_UPDATES_PER_S = Number(process.env.BENCH_SLOW_UPDATES_PER_S ?? 6);
const SLOW_SENDERS = 8;
const SLOW_WARM_S = 10;
const CHAT_MESSAGES = 30;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (n: number) => Math.round(n * 100) / 100;

/**
 * A participant of the slow-reader room: collaboration updates (~40 KB) are counted, not parsed
 * (the benchmark's clients share the machine with the server); other messages are parsed.
 */
class RoomClient {
  id = '';
  joinToken = '';
  ws!: WebSocket;
  updates = 0;
  closes: number[] = [];
  onMessage: (m: ServerMessage) => void = () => undefined;

  async enter(base: string, meetingId: string, index: number): Promise<void> {
    const res = await fetch(`${base}/api/meetings/${meetingId}/join`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.78.${index >> 8}.${index & 255}`,
      },
      body: JSON.stringify({
        name: `Slow room ${index}`,
        isHost: false,
        isMuted: true,
        isVideoOn: false,
        sessionId: `bench-slow-${index}`,
      }),
    });
    if (!res.ok) throw new Error(`join ${index}: ${res.status} ${await res.text()}`);
    ({ id: this.id, joinToken: this.joinToken } = (await res.json()) as { id: string; joinToken: string });
    await this.open(base, meetingId);
  }

  /** Opens a socket and joins with the join token (a resume when the participant is known). */
  async open(base: string, meetingId: string): Promise<void> {
    const q = new URLSearchParams({ meetingId, name: 'Slow room', host: 'false' });
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?${q}`);
    this.ws = ws;
    const joined = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no joined in 20 s')), 20_000);
      ws.on('message', (data: Buffer) => {
        if (data.subarray(0, 30).toString() === '{"type":"collaboration_update"') {
          this.updates += 1;
          return;
        }
        const m = JSON.parse(String(data)) as ServerMessage;
        if (m.type === 'joined') {
          clearTimeout(timer);
          resolve();
        }
        this.onMessage(m);
      });
      ws.once('error', reject);
    });
    ws.on('close', (code) => this.closes.push(code));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.send(JSON.stringify({ type: 'join_meeting', joinToken: this.joinToken }));
    await joined;
  }

  send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }
}

/** Used JS heap after a full GC in the server, and the server's RSS right after that GC. */
async function memoryAfterGc(inspector: ServerInspector, pid: number) {
  const heap = await inspector.heapUsedAfterGc();
  return { heap, rss: rssBytes(pid) };
}

/**
 * The slow-reader case: 8 senders flood a room with ~40 KB collaboration updates; memory is taken
 * under that flood with everyone reading (the baseline), then while one participant stops
 * reading for SLOW_READER_S seconds (coming back each time the server closes it).
 */
async function slowReaderCase(base: string, meetingId: string, inspector: ServerInspector, pid: number) {
  const clients: RoomClient[] = [];
  for (let i = 0; i < SLOW_SENDERS + 2; i++) {
    const c = new RoomClient();
    await c.enter(base, meetingId, i);
    clients.push(c);
  }
  const [reader, slow] = clients as [RoomClient, RoomClient];
  const senders = clients.slice(2);
  // Each sender rewrites one whiteboard element of ~40 KB: a real Yjs update the server checks,
  // applies and passes on (the document stays small: overwritten values are garbage-collected).
  const docs = senders.map(() => new Y.Doc());
  const blob = 'x'.repeat(40_000);
  let rounds = 0;
  const flood = setInterval(() => {
    senders.forEach((s, i) => {
      const doc = docs[i]!;
      const before = Y.encodeStateVector(doc);
      doc.getMap('whiteboard').set(`blob-${i}`, { text: blob, n: rounds });
      const update = Buffer.from(Y.encodeStateAsUpdate(doc, before)).toString('base64');
      s.send({ type: 'collaboration_update', data: { kind: 'update', update } });
    });
    rounds += 1;
  }, 1000 / SLOW_UPDATES_PER_S);
  try {
    // Baseline: the same flood, everyone reading.
    const warmRss: number[] = [];
    const warmTimer = setInterval(() => warmRss.push(rssBytes(pid)), 1000);
    await sleep(SLOW_WARM_S * 1000);
    clearInterval(warmTimer);
    const baseline = await memoryAfterGc(inspector, pid);
    const roundsAtBaseline = rounds;
    const readerAtBaseline = reader.updates;
    const slowAtBaseline = slow.updates;

    // The slow participant stops reading. When the others hear it lost its connection (the server
    // closed it), it reads what is left (its close), comes back with its join token and stops again.
    let cycles = 0;
    let cycling = false;
    reader.onMessage = (m) => {
      if (m.type !== 'participant_updated' || m.participant.id !== slow.id || m.participant.isConnected)
        return;
      if (cycling) return;
      cycling = true;
      cycles += 1;
      const old = slow.ws;
      old.resume();
      const gone = new Promise<void>((resolve) => {
        if (old.readyState === WebSocket.CLOSED) return resolve();
        old.once('close', () => resolve());
        setTimeout(() => {
          old.terminate();
          resolve();
        }, 10_000).unref();
      });
      void gone
        .then(() => slow.open(base, meetingId))
        .then(() => slow.ws.pause())
        .catch((err: unknown) => console.error('slow participant could not come back:', err))
        .finally(() => {
          cycling = false;
        });
    };
    slow.ws.pause();
    const samples: Array<{ atS: number; heapMiB: number; rssMiB: number }> = [];
    const rssSamples: number[] = [];
    const t0 = Date.now();
    const rssTimer = setInterval(() => rssSamples.push(rssBytes(pid)), 1000);
    const every = Math.min(15, SLOW_READER_S) * 1000;
    while (Date.now() - t0 < SLOW_READER_S * 1000) {
      await sleep(Math.min(every, SLOW_READER_S * 1000 - (Date.now() - t0)));
      const m = await memoryAfterGc(inspector, pid);
      samples.push({
        atS: round((Date.now() - t0) / 1000),
        heapMiB: round(m.heap / 1024 ** 2),
        rssMiB: round(m.rss / 1024 ** 2),
      });
    }
    clearInterval(rssTimer);
    const readerUpdates = reader.updates - readerAtBaseline;
    const slowUpdates = slow.updates - slowAtBaseline;
    const roundsSlow = rounds - roundsAtBaseline;
    const heapMax = Math.max(...samples.map((x) => x.heapMiB));
    const rssMax = Math.max(...samples.map((x) => x.rssMiB));
    const baseHeap = baseline.heap / 1024 ** 2;
    const baseRss = baseline.rss / 1024 ** 2;
    return {
      seconds: SLOW_READER_S,
      senders: SLOW_SENDERS,
      updateBytes: 40_000,
      updatesPerSecondPerSender: SLOW_UPDATES_PER_S,
      updatesSent: roundsSlow * SLOW_SENDERS,
      updatesToReader: readerUpdates,
      updatesToSlowReader: slowUpdates,
      slowReaderClosedTimes: cycles,
      slowReaderCloseCodes: slow.closes,
      baselineUnder: `the same flood for ${SLOW_WARM_S} s with everyone reading`,
      heapAfterGcBaselineMiB: round(baseHeap),
      heapAfterGcMaxMiB: heapMax,
      heapGrowthPercent: round(((heapMax - baseHeap) / baseHeap) * 100),
      rssAfterGcBaselineMiB: round(baseRss),
      rssAfterGcMaxMiB: rssMax,
      rssGrowthPercent: round(((rssMax - baseRss) / baseRss) * 100),
      rssPeakMiB: round(Math.max(...rssSamples) / 1024 ** 2),
      rssPeakBaselineMiB: round(Math.max(...warmRss) / 1024 ** 2),
      targetGrowthPercent: 10,
      samples,
    };
  } finally {
    clearInterval(flood);
    for (const c of clients) c.ws?.terminate();
  }
}

const dbName = `parley_bench_ws_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
// Production mode on PostgreSQL (the meeting row is written beside it); the development sign-in
// and the payments sandbox are allowed only because the benchmark never signs in nor pays.
const inspectPort = await freePort();
const serverEnv = {
  NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}`,
  NODE_ENV: 'production',
  ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
  ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
  TRUST_PROXY: 'true',
  DATABASE_URL: dbUrl.toString(),
  LOG_LEVEL: 'warn',
};
const { server, build } = process.env.BENCH_BUILD
  ? await startBenchServer(serverEnv)
  : { server: await startAppServer(serverEnv), build: null };
const db = new pg.Client({ connectionString: dbUrl.toString() });
const participants: Participant[] = [];
const inspector = await connectInspector(inspectPort);
try {
  await db.connect();
  const meetingId = `${100 + Math.floor(Math.random() * 900)}-555-${100 + Math.floor(Math.random() * 900)}`;
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (issuer, subject, email) VALUES ('bench', 'host', 'host@bench.local') RETURNING id`,
  );
  const insertMeeting = (id: string) =>
    db.query(
      `INSERT INTO meetings (meeting_id, title, host_id, meeting_type, status, max_participants)
       VALUES ($1, 'Bench room', $2, 'instant', 'live', 500)`,
      [id, user.rows[0]!.id],
    );
  await insertMeeting(meetingId);
  // Warm up the server's code paths in another meeting, then let it settle.
  const warmId = meetingId.replace('-555-', '-556-');
  await insertMeeting(warmId);
  const warm = new Participant();
  await warm.join(server.url, warmId, 999);
  await sleep(300);
  warm.ws.send(JSON.stringify({ type: 'leave_meeting' }));
  await sleep(500);
  const heapBefore = await inspector.heapUsedAfterGc();
  const rssBefore = rssBytes(server.pid);

  // Roster convergence.
  const loadBefore = os.loadavg()[0]!;
  const cpuBefore = cpuSeconds(server.pid) * 1000;
  const t0 = performance.now();
  for (let i = 0; i < PARTICIPANTS; i++) participants.push(new Participant());
  await Promise.all(participants.map((p, i) => p.join(server.url, meetingId, i)));
  const expected = PARTICIPANTS - 1;
  const deadline = Date.now() + 30_000;
  while (participants.some((p) => p.others.size < expected)) {
    if (Date.now() > deadline) throw new Error('roster did not converge in 30 s');
    await sleep(2);
  }
  const convergenceMs = performance.now() - t0;
  const joinCpuMs = cpuSeconds(server.pid) * 1000 - cpuBefore;
  const allJoinedMs = Math.max(...participants.map((p) => p.joinedAt)) - t0;

  await sleep(1000);
  const heapAfter = await inspector.heapUsedAfterGc();
  const rssAfter = rssBytes(server.pid);

  // Chat fan-out latency.
  const latencies: number[] = [];
  const sentAt = new Map<string, number>();
  for (const p of participants.slice(1)) {
    p.onMessage = (m, at) => {
      if (m.type !== 'chat_message') return;
      const start = sentAt.get(m.content);
      if (start !== undefined) latencies.push(at - start);
    };
  }
  const cpuChatBefore = cpuSeconds(server.pid) * 1000;
  const sender = participants[0]!;
  for (let i = 0; i < CHAT_MESSAGES; i++) {
    const content = `bench message ${i}`;
    sentAt.set(content, performance.now());
    sender.ws.send(JSON.stringify({ type: 'chat_message', content }));
    await sleep(100);
  }
  const receiptsExpected = CHAT_MESSAGES * (PARTICIPANTS - 1);
  const chatDeadline = Date.now() + 10_000;
  while (latencies.length < receiptsExpected && Date.now() < chatDeadline) await sleep(10);
  const lostReceipts = receiptsExpected - latencies.length;
  // A receipt that never came is a failure: it stays in the percentiles as an infinite latency.
  for (let i = 0; i < lostReceipts; i++) latencies.push(Infinity);
  latencies.sort((a, b) => a - b);
  const chatCpuMs = cpuSeconds(server.pid) * 1000 - cpuChatBefore;

  // Slow reader, in a room of its own (the 100 stay joined, idle, in theirs).
  const slowRoomId = meetingId.replace('-555-', '-557-');
  await insertMeeting(slowRoomId);
  const loadBeforeSlow = os.loadavg()[0]!;
  const slowReader = await slowReaderCase(server.url, slowRoomId, inspector, server.pid);
  const slowReaderFigures = { ...slowReader, loadAverageAtStart: round(loadBeforeSlow) };

  const figures = {
    runs: 1,
    participants: PARTICIPANTS,
    rosterConvergenceMs: round(convergenceMs),
    rosterTargetMs: 2000,
    allJoinedMs: round(allJoinedMs),
    serverCpuMsForJoins: round(joinCpuMs),
    loadAverageAtStart: round(loadBefore),
    chat: {
      messages: CHAT_MESSAGES,
      receipts: receiptsExpected - lostReceipts,
      receiptsExpected,
      lostReceipts,
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      latencyMaxMs: round(latencies.at(-1) ?? NaN),
      targetP99Ms: 50,
      serverCpuMsPerMessage: round(chatCpuMs / CHAT_MESSAGES),
    },
    memory: {
      measuredIn: 'the server process: used JS heap after a full GC there (inspector)',
      heapBeforeMiB: round(heapBefore / 1024 ** 2),
      heapAfterMiB: round(heapAfter / 1024 ** 2),
      heapPerParticipantKiB: round((heapAfter - heapBefore) / PARTICIPANTS / 1024),
      rssBeforeMiB: round(rssBefore / 1024 ** 2),
      rssAfterMiB: round(rssAfter / 1024 ** 2),
      rssPerParticipantKiB: round((rssAfter - rssBefore) / PARTICIPANTS / 1024),
    },
    slowReader: slowReaderFigures,
    build: build ?? 'apps/server/dist (npm run build)',
    database: 'postgres',
    note: 'server and the 100 clients share this machine (loopback); clients join concurrently; chat messages 100 ms apart, each persisted before fan-out',
  };
  console.log(
    `roster convergence (${PARTICIPANTS} participants): ${figures.rosterConvergenceMs} ms (target ≤ 2000); ` +
      `all joined at ${figures.allJoinedMs} ms; server CPU ${figures.serverCpuMsForJoins} ms; load average ${figures.loadAverageAtStart}`,
  );
  console.log(
    `chat fan-out to ${PARTICIPANTS - 1}: p50 ${figures.chat.latencyP50Ms} ms, p99 ${figures.chat.latencyP99Ms} ms (target ≤ 50), ${figures.chat.receipts}/${receiptsExpected} receipts; server CPU ${figures.chat.serverCpuMsPerMessage} ms per message`,
  );
  console.log(
    `server memory: heap after GC ${figures.memory.heapBeforeMiB} → ${figures.memory.heapAfterMiB} MiB, ${figures.memory.heapPerParticipantKiB} KiB per participant (RSS ${figures.memory.rssBeforeMiB} → ${figures.memory.rssAfterMiB} MiB)`,
  );
  const sr = figures.slowReader;
  console.log(
    `slow reader (${sr.seconds} s, ${sr.senders} senders × ${sr.updatesPerSecondPerSender}/s of 40 KB): ` +
      `heap after GC ${sr.heapAfterGcBaselineMiB} → max ${sr.heapAfterGcMaxMiB} MiB (${sr.heapGrowthPercent}%), ` +
      `RSS after GC ${sr.rssAfterGcBaselineMiB} → max ${sr.rssAfterGcMaxMiB} MiB (${sr.rssGrowthPercent}%; peak ${sr.rssPeakMiB}, ${sr.rssPeakBaselineMiB} everyone reading) (target ≤ 10%); ` +
      `slow reader closed ${sr.slowReaderClosedTimes} times, got ${sr.updatesToSlowReader} of ${sr.updatesSent} updates, reader ${sr.updatesToReader}; load average ${sr.loadAverageAtStart}`,
  );
  const missed: string[] = [];
  if (!(sr.heapGrowthPercent <= sr.targetGrowthPercent))
    missed.push(`slow reader: heap after GC grew ${sr.heapGrowthPercent}% > 10%`);
  if (!(sr.rssGrowthPercent <= sr.targetGrowthPercent))
    missed.push(`slow reader: RSS after GC grew ${sr.rssGrowthPercent}% > 10%`);
  if (sr.slowReaderClosedTimes === 0) missed.push('slow reader: the server never closed the slow socket');
  if (!(sr.updatesToReader > 0)) missed.push('slow reader: the reader got no updates');
  if (convergenceMs > figures.rosterTargetMs)
    missed.push(`roster ${figures.rosterConvergenceMs} ms > 2000 ms`);
  if (lostReceipts > 0) missed.push(`${lostReceipts} chat receipts lost`);
  if (!(figures.chat.latencyP99Ms <= figures.chat.targetP99Ms))
    missed.push(`chat p99 ${figures.chat.latencyP99Ms} ms > 50 ms`);
  console.log(`written ${recordResult('ws-room', { ...figures, missedTargets: missed })}`);
  if (missed.length) {
    console.error(`MISSED: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
} finally {
  inspector.close();
  for (const p of participants) p.ws?.terminate();
  await db.end().catch(() => undefined);
  await server.stop();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}
