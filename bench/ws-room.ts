/**
 * 100 synthetic WebSocket participants in one meeting against the production server build as a
 * real process (on PostgreSQL, so the meeting row can be written beside it):
 * - roster convergence: from the moment all 100 start joining (POST /join, open /ws, join_meeting)
 *   until every participant knows all 99 others (target ≤ 2 s);
 * - chat fan-out: one participant sends, the 99 others receive; latency from send to each receipt,
 *   p50/p99 over 30 messages (target p99 ≤ 50 ms);
 * - server memory per participant: (RSS with 100 joined − RSS before) / 100.
 * Writes bench/results/ws-room.json.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { ServerMessage } from '@parley/protocol';
import pg from 'pg';
import WebSocket from 'ws';
import { startServer as startAppServer } from '../e2e/support/server.js';
import { recordResult } from './support/results.js';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 100);
const CHAT_MESSAGES = 30;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const round = (n: number) => Math.round(n * 100) / 100;

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function rssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? NaN) * 1024;
}

class Participant {
  id = '';
  readonly others = new Set<string>();
  joinedAt = 0;
  ws!: WebSocket;
  onMessage: (m: ServerMessage, at: number) => void = () => undefined;

  async join(base: string, meetingId: string, index: number): Promise<void> {
    const res = await fetch(`${base}/api/meetings/${meetingId}/join`, {
      method: 'POST',
      // Each bot is a client of its own (the server limits joins per client and meeting).
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.77.${index >> 8}.${index & 255}`,
      },
      body: JSON.stringify({
        name: `Bot ${index}`,
        isHost: false,
        isMuted: true,
        isVideoOn: false,
        sessionId: `bench-${index}`,
      }),
    });
    if (!res.ok) throw new Error(`join ${index}: ${res.status} ${await res.text()}`);
    const { id, joinToken } = (await res.json()) as { id: string; joinToken: string };
    this.id = id;
    const q = new URLSearchParams({ meetingId, name: `Bot ${index}`, host: 'false' });
    this.ws = new WebSocket(`${base.replace(/^http/, 'ws')}/ws?${q}`);
    this.ws.on('message', (data) => {
      const at = performance.now();
      const m = JSON.parse(String(data)) as ServerMessage;
      if (m.type === 'joined') {
        this.joinedAt = at;
        for (const p of m.participants) this.others.add(p.id);
      }
      if (m.type === 'participant_joined') this.others.add(m.participant.id);
      if (m.type === 'participant_left') this.others.delete(m.participantId);
      this.onMessage(m, at);
    });
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
    this.ws.send(JSON.stringify({ type: 'join_meeting', joinToken }));
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
const server = await startAppServer({
  NODE_ENV: 'production',
  ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
  ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
  TRUST_PROXY: 'true',
  DATABASE_URL: dbUrl.toString(),
  LOG_LEVEL: 'warn',
});
const db = new pg.Client({ connectionString: dbUrl.toString() });
const participants: Participant[] = [];
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
  global.gc?.();
  const rssBefore = rssBytes(server.pid);

  // Roster convergence.
  const loadBefore = os.loadavg()[0]!;
  const cpuBefore = cpuMs(server.pid);
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
  const joinCpuMs = cpuMs(server.pid) - cpuBefore;
  const allJoinedMs = Math.max(...participants.map((p) => p.joinedAt)) - t0;

  await sleep(1000);
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
  const cpuChatBefore = cpuMs(server.pid);
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
  latencies.sort((a, b) => a - b);
  const chatCpuMs = cpuMs(server.pid) - cpuChatBefore;

  const figures = {
    participants: PARTICIPANTS,
    rosterConvergenceMs: round(convergenceMs),
    rosterTargetMs: 2000,
    allJoinedMs: round(allJoinedMs),
    serverCpuMsForJoins: round(joinCpuMs),
    loadAverageAtStart: round(loadBefore),
    chat: {
      messages: CHAT_MESSAGES,
      receipts: latencies.length,
      receiptsExpected,
      latencyP50Ms: round(percentile(latencies, 50)),
      latencyP99Ms: round(percentile(latencies, 99)),
      latencyMaxMs: round(latencies.at(-1) ?? NaN),
      targetP99Ms: 50,
      serverCpuMsPerMessage: round(chatCpuMs / CHAT_MESSAGES),
    },
    memory: {
      rssBeforeMiB: round(rssBefore / 1024 ** 2),
      rssAfterMiB: round(rssAfter / 1024 ** 2),
      perParticipantKiB: round((rssAfter - rssBefore) / PARTICIPANTS / 1024),
    },
    database: 'postgres',
    note: 'server and the 100 clients share this machine (loopback); clients join concurrently; chat messages 100 ms apart, each persisted before fan-out',
  };
  console.log(
    `roster convergence (${PARTICIPANTS} participants): ${figures.rosterConvergenceMs} ms (target ≤ 2000); ` +
      `all joined at ${figures.allJoinedMs} ms; server CPU ${figures.serverCpuMsForJoins} ms; load average ${figures.loadAverageAtStart}`,
  );
  console.log(
    `chat fan-out to ${PARTICIPANTS - 1}: p50 ${figures.chat.latencyP50Ms} ms, p99 ${figures.chat.latencyP99Ms} ms (target ≤ 50), ${latencies.length}/${receiptsExpected} receipts; server CPU ${figures.chat.serverCpuMsPerMessage} ms per message`,
  );
  console.log(
    `server memory: ${figures.memory.rssBeforeMiB} → ${figures.memory.rssAfterMiB} MiB RSS, ${figures.memory.perParticipantKiB} KiB per participant`,
  );
  console.log(`written ${recordResult('ws-room', figures)}`);
} finally {
  for (const p of participants) p.ws?.terminate();
  await db.end().catch(() => undefined);
  await server.stop();
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}
