/**
 * The bounded loopback chat load of issue 15, shared by the CI test (chat-load.test.ts, short)
 * and the benchmark (bench/chat-load.ts, 60 s): N WebSocket clients in M meetings spread over
 * two server instances on one Redis (two apps in one process, as the cluster test does: real
 * sockets, real Redis pub/sub, each instance its own sockets and bus connections).
 *
 * Each client sends sequence-numbered chat (`L|<sender>|<seq>|<sent at>`) at a fixed interval
 * with a random phase; every receiver (the sender included: it gets its own message back) keeps,
 * per sender, the sequence numbers it got. At the end: every message reached every member of
 * its meeting exactly once (lost and duplicated counted, never dropped from the figures), in
 * order per sender, and the latency from send to each receipt (p50/p99/max).
 *
 * Clients come from distinct addresses through X-Forwarded-For (the instances trust loopback as
 * a proxy), as 500 people would, so the per-address join limits are not what is measured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { buildApp, type App } from '../../src/app.js';
import type { DbHandle } from '../../src/db/index.js';
import { testConfig } from '../app.js';
import { createMeeting } from '../meetings.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChatLoadOptions {
  clients: number;
  meetings: number;
  durationS: number;
  /** Each client sends one chat message every this many ms. */
  intervalMs: number;
  /** Wait this long after the last send for receipts still on their way. */
  drainMs?: number;
}

export interface ChatLoadResult {
  clients: number;
  meetings: number;
  perInstance: number[];
  durationS: number;
  joinMs: number;
  /** Per meeting (its members join at once): from the first REST join to every member knowing all the others. */
  rosterConvergenceMs: { p50: number; max: number; unconverged: number };
  sent: number;
  expectedReceipts: number;
  received: number;
  lost: number;
  duplicated: number;
  outOfOrder: number;
  latencyMs: { p50: number; p99: number; max: number };
  messagesPerS: number;
  deliveriesPerS: number;
  /** Redis commands per chat message sent, from INFO commandstats (all instances together). */
  redisCommandsPerMessage: number;
  redisCommandsByName: Record<string, number>;
  errors: string[];
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** A redis-server of our own on a spare port, nothing on disk (the shared 6379 is left alone). */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 5000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (up) return child;
    if (Date.now() > deadline) throw new Error(`redis-server did not listen on ${port}`);
    await sleep(50);
  }
}

export interface Instance {
  app: App;
  http: string;
  ws: string;
}

/** Two (or more) instances on one database and one Redis, listening on loopback ports. */
export async function startInstances(db: DbHandle, redisUrl: string, count = 2): Promise<Instance[]> {
  const out: Instance[] = [];
  for (let i = 0; i < count; i++) {
    const config = testConfig({
      REDIS_URL: redisUrl,
      INSTANCE_ID: `load-${String.fromCharCode(97 + i)}-${process.pid}`,
      TRUST_PROXY: 'loopback',
      MEDIA_PROVIDER: 'p2p',
    });
    const app = await buildApp(config, { db });
    await app.ready();
    const http = await app.listen({ port: 0, host: '127.0.0.1' });
    out.push({ app, http, ws: http.replace(/^http/, 'ws') });
  }
  return out;
}

export interface Client {
  index: number;
  meeting: number;
  instance: number;
  id: string;
  /** Its join token: a reconnect with it comes back as the same participant. */
  joinToken: string;
  ws: WebSocket;
  seq: number;
  /** When its REST join started, and when it first knew every other member of its meeting. */
  startedAt: number;
  convergedAt: number | null;
  /** Per sender id: the sequence numbers received, in arrival order. */
  got: Map<string, number[]>;
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
}

async function commandStats(redis: Redis): Promise<Record<string, number>> {
  const text = await redis.info('commandstats');
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) out[m[1]!] = Number(m[2]);
  return out;
}

/**
 * One client: a REST join from its own address, its socket's `joined`, and from then the roster
 * as it sees it (`convergedAt`: when it first knew every other member of its meeting).
 */
export async function joinClient(
  inst: Pick<Instance, 'http' | 'ws'>,
  meetingId: string,
  index: number,
  meeting: number,
  instance: number,
  meetingSize: number,
): Promise<Client> {
  const startedAt = performance.now();
  const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': address };
  const res = await fetch(`${inst.http}/api/meetings/${meetingId}/join`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: `P${index}`,
      isHost: false,
      isMuted: true,
      isVideoOn: false,
      sessionId: `load-${index}-${Date.now()}`,
    }),
  });
  if (res.status !== 200) throw new Error(`join ${index}: ${res.status} ${await res.text()}`);
  const join = (await res.json()) as { id: string; joinToken: string };
  const ws = new WebSocket(`${inst.ws}/ws?meetingId=${meetingId}&name=P${index}&host=false`, {
    headers: { 'x-forwarded-for': address },
  });
  const client: Client = {
    index,
    meeting,
    instance,
    id: join.id,
    joinToken: join.joinToken,
    ws,
    seq: 0,
    startedAt,
    convergedAt: null,
    got: new Map(),
  };
  // The roster as this client sees it: `joined`, then participant_joined / participant_left.
  const known = new Set<string>();
  ws.on('message', (data) => {
    if (client.convergedAt !== null) return;
    const m = JSON.parse(String(data)) as {
      type: string;
      participants?: Array<{ id: string }>;
      participant?: { id: string };
      participantId?: string;
    };
    if (m.type === 'joined') for (const p of m.participants ?? []) known.add(p.id);
    else if (m.type === 'participant_joined' && m.participant) known.add(m.participant.id);
    else if (m.type === 'participant_left' && m.participantId) known.delete(m.participantId);
    else return;
    known.delete(client.id);
    if (known.size >= meetingSize - 1) client.convergedAt = performance.now();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`client ${index}: no joined within 20 s`)), 20_000);
    ws.once('open', () => ws.send(JSON.stringify({ type: 'join_meeting', joinToken: join.joinToken })));
    ws.once('error', (err) => reject(err));
    const onJoined = (data: WebSocket.RawData) => {
      const m = JSON.parse(String(data)) as { type: string; code?: string; message?: string };
      if (m.type === 'joined') {
        clearTimeout(timer);
        ws.off('message', onJoined);
        resolve();
      } else if (m.type === 'error') {
        clearTimeout(timer);
        reject(new Error(`client ${index}: ${m.code} ${m.message}`));
      }
    };
    ws.on('message', onJoined);
  });
  return client;
}

/** Runs the load against running instances; `redisUrl` is read for INFO commandstats. */
export async function runChatLoad(
  instances: Instance[],
  db: DbHandle,
  redisUrl: string,
  options: ChatLoadOptions,
): Promise<ChatLoadResult> {
  const { clients: n, meetings: m, durationS, intervalMs } = options;
  const drainMs = options.drainMs ?? 3000;
  const host = await instances[0]!.app.inject({ url: '/api/health' }); // warm
  if (host.statusCode !== 200) throw new Error('instance not healthy');
  // Meetings owned by one host (created in the database directly, as the other tests do).
  const { createUsersRepository } = await import('../../src/modules/users/repository.js');
  const owner = await createUsersRepository(db.db).upsertFromIdentity({
    issuer: 'load',
    subject: `load-host-${process.pid}-${Date.now()}`,
    email: `load-host-${Date.now()}@example.com`,
    firstName: 'Load',
    lastName: 'Host',
  });
  const meetingIds: string[] = [];
  for (let i = 0; i < m; i++) {
    meetingIds.push((await createMeeting({ db } as never, { hostId: owner.id })).meetingId);
  }

  // Join meeting by meeting, all of a meeting's members at once (as ws-room does for one):
  // meeting k gets clients k, k+m, k+2m, ..., alternating between the instances.
  const t0 = performance.now();
  const clients: Client[] = [];
  for (let meeting = 0; meeting < m; meeting++) {
    const indices = Array.from({ length: n }, (_, i) => i).filter((i) => i % m === meeting);
    const joined = await Promise.all(
      indices.map((index) => {
        const instance = Math.floor(index / m) % instances.length;
        return joinClient(
          instances[instance]!,
          meetingIds[meeting]!,
          index,
          meeting,
          instance,
          indices.length,
        );
      }),
    );
    clients.push(...joined);
  }
  const joinMs = performance.now() - t0;
  const perInstance = instances.map((_, i) => clients.filter((c) => c.instance === i).length);

  const chat = await measureChat(clients, redisUrl, { durationS, intervalMs, drainMs });
  for (const c of clients) c.ws.terminate();
  const { durationS: measuredS, ...figures } = chat;
  return {
    clients: n,
    meetings: m,
    perInstance,
    durationS: measuredS,
    joinMs: Math.round(joinMs),
    rosterConvergenceMs: rosterConvergence(clients),
    ...figures,
  };
}

/** What the chat phase measured (ChatLoadResult's chat figures). */
export type ChatFigures = Omit<
  ChatLoadResult,
  'clients' | 'meetings' | 'perInstance' | 'joinMs' | 'rosterConvergenceMs'
>;

/**
 * Per meeting (its members joined at once): from its first REST join to every member knowing all
 * the others; p50 and max over the meetings, and how many never converged.
 */
export function rosterConvergence(clients: Client[]): ChatLoadResult['rosterConvergenceMs'] {
  const convergence: number[] = [];
  let unconverged = 0;
  for (const members of groupByMeeting(clients).values()) {
    if (members.some((c) => c.convergedAt === null)) {
      unconverged++;
      continue;
    }
    const start = Math.min(...members.map((c) => c.startedAt));
    convergence.push(Math.max(...members.map((c) => c.convergedAt!)) - start);
  }
  convergence.sort((a, b) => a - b);
  return {
    p50: Math.round(percentile(convergence, 50)),
    max: Math.round(convergence[convergence.length - 1] ?? NaN),
    unconverged,
  };
}

/** The clients by meeting. */
export function groupByMeeting(clients: Client[]): Map<number, Client[]> {
  const byMeeting = new Map<number, Client[]>();
  for (const c of clients) byMeeting.set(c.meeting, [...(byMeeting.get(c.meeting) ?? []), c]);
  return byMeeting;
}

/**
 * The chat phase on joined clients: each sends sequence-numbered chat every `intervalMs` (random
 * phase) for `durationS`; every receipt is checked (lost, duplicated, out of order per sender)
 * and timed; Redis commands are counted from INFO commandstats on `redisUrl`.
 */
export async function measureChat(
  clients: Client[],
  redisUrl: string,
  options: { durationS: number; intervalMs: number; drainMs?: number },
): Promise<ChatFigures> {
  const { durationS, intervalMs } = options;
  const drainMs = options.drainMs ?? 3000;
  const errors: string[] = [];
  const latencies: number[] = [];
  let outOfOrder = 0;
  // Listeners of this phase only: removed at its end, so what happens later is not counted here.
  const listening: Array<() => void> = [];
  for (const c of clients) {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(String(data)) as {
        type: string;
        content?: string;
        senderId?: string;
        code?: string;
        message?: string;
      };
      if (msg.type === 'error') {
        if (errors.length < 20) errors.push(`${c.index}: ${msg.code} ${msg.message}`);
        return;
      }
      if (msg.type !== 'chat_message' || !msg.content?.startsWith('L|')) return;
      const [, sender, seq, sentAt] = msg.content.split('|');
      latencies.push(performance.now() - Number(sentAt));
      const list = c.got.get(sender!) ?? [];
      const s = Number(seq);
      if (list.length > 0 && s < list[list.length - 1]!) outOfOrder++;
      list.push(s);
      c.got.set(sender!, list);
    };
    const onClose = (code: number) => {
      if (errors.length < 20) errors.push(`${c.index}: closed ${code}`);
    };
    c.ws.on('message', onMessage);
    c.ws.on('close', onClose);
    listening.push(() => {
      c.ws.off('message', onMessage);
      c.ws.off('close', onClose);
    });
  }

  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  const before = await commandStats(redis);

  // Send: each client on its own timer with a random phase, for durationS.
  const sendStart = performance.now();
  const stopAt = sendStart + durationS * 1000;
  await Promise.all(
    clients.map(async (c) => {
      await sleep(Math.random() * intervalMs);
      while (performance.now() < stopAt) {
        if (c.ws.readyState !== WebSocket.OPEN) return;
        c.seq++;
        c.ws.send(
          JSON.stringify({
            type: 'chat_message',
            content: `L|${c.id}|${c.seq}|${performance.now().toFixed(3)}`,
          }),
        );
        await sleep(intervalMs);
      }
    }),
  );
  const sendEnd = performance.now();
  await sleep(drainMs);
  const after = await commandStats(redis);
  await redis.quit();
  for (const stop of listening) stop();

  // Check: every member of a meeting got each message of every member (itself included) once.
  let expected = 0;
  let received = 0;
  let lost = 0;
  let duplicated = 0;
  for (const members of groupByMeeting(clients).values()) {
    for (const receiver of members) {
      for (const sender of members) {
        expected += sender.seq;
        const got = receiver.got.get(sender.id) ?? [];
        received += got.length;
        const unique = new Set(got);
        duplicated += got.length - unique.size;
        for (let s = 1; s <= sender.seq; s++) if (!unique.has(s)) lost++;
      }
    }
  }
  const sent = clients.reduce((sum, c) => sum + c.seq, 0);
  const commands: Record<string, number> = {};
  let totalCommands = 0;
  for (const [name, calls] of Object.entries(after)) {
    const d = calls - (before[name] ?? 0) - (name === 'info' ? 1 : 0);
    if (d > 0) {
      commands[name] = d;
      totalCommands += d;
    }
  }
  latencies.sort((a, b) => a - b);
  const round = (x: number) => Math.round(x * 100) / 100;
  const sendS = (sendEnd - sendStart) / 1000;
  return {
    durationS: round(sendS),
    sent,
    expectedReceipts: expected,
    received,
    lost,
    duplicated,
    outOfOrder,
    latencyMs: {
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? NaN),
    },
    messagesPerS: round(sent / sendS),
    deliveriesPerS: round(received / sendS),
    redisCommandsPerMessage: round(totalCommands / Math.max(1, sent)),
    redisCommandsByName: commands,
    errors,
  };
}
