import * as Y from 'yjs';
import { WS_CLOSE, WS_LIMITS, type ServerMessage } from '@parley/protocol';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { connect, listen, postJoin, type Joined } from '../ws-client.js';

/**
 * Security review, item 3: a participant that stopped reading made the server buffer everything
 * sent to it (one paused socket and 8 senders of 60 KB collaboration updates: 459 → 831 MB in
 * 25 s). The same attack, bounded: a real server on loopback, one participant whose socket stops
 * reading (its TCP socket paused), 8 senders of ~60 KB updates for a few seconds.
 */
let t: TestContext;
let ws: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ ws } = await listen(t));
  t.app.server.on('connection', (sock: Socket) => {
    tcp.add(sock);
    sock.on('close', () => tcp.delete(sock));
  });
  // The real byte caps; a shorter grace so the test takes seconds.
  t.app.realtime.settings.slowConsumerGraceMs = 2000;
  t.app.realtime.settings.slowConsumerCloseWaitMs = 10_000;
});
afterAll(async () => t?.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;
/** ~40 KB of whiteboard text: each round, a sender's real Yjs update rewrites its element. */
const blob = 'x'.repeat(40_000);

/**
 * A light client: counts collaboration updates without parsing them (they are ~50 KB each and the
 * test shares its process with the server) and keeps every other message.
 */
class Client {
  readonly messages: ServerMessage[] = [];
  updates = 0;
  lastUpdateAt = 0;
  readonly closed: Promise<number>;
  private constructor(
    readonly join: Joined,
    readonly ws: WebSocket,
  ) {
    ws.on('message', (data) => {
      const text = String(data);
      if (text.startsWith('{"type":"collaboration_update"')) {
        this.updates += 1;
        this.lastUpdateAt = Date.now();
        return;
      }
      this.messages.push(JSON.parse(text) as ServerMessage);
    });
    this.closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  }

  static async enter(meetingId: string, name: string, sessionId = `s-${name}`): Promise<Client> {
    const join = await postJoin(t, meetingId, { name, sessionId });
    return Client.open(meetingId, join);
  }

  static async open(meetingId: string, join: Joined): Promise<Client> {
    const test = await connect(ws, meetingId, { name: 'Someone' });
    test.ws.removeAllListeners('message');
    test.ws.removeAllListeners('close');
    const client = new Client(join, test.ws);
    client.send({ type: 'join_meeting', joinToken: join.joinToken });
    await client.waitFor((m) => m.type === 'joined');
    return client;
  }

  send(message: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  async waitFor(match: (m: ServerMessage) => boolean, timeoutMs = 10_000): Promise<ServerMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) {
        throw new Error(`not received; got ${JSON.stringify(this.messages.map((m) => m.type))}`);
      }
      await sleep(20);
    }
  }

  /** The server's side of this client's socket (same loopback connection). */
  serverSide(): WebSocket | undefined {
    const port = (this.ws as unknown as { _socket: Socket })._socket.localPort;
    return serverSockets().find((s) => (s as unknown as { _socket?: Socket })._socket?.remotePort === port);
  }
}

/** The server's WebSockets, found through its TCP sockets (`ws` marks each with its WebSocket). */
const tcp = new Set<Socket>();
function serverSockets(): WebSocket[] {
  const found: WebSocket[] = [];
  for (const sock of tcp) {
    const key = Object.getOwnPropertySymbols(sock).find((k) => k.description === 'websocket');
    const value = key ? (sock as unknown as Record<symbol, unknown>)[key] : undefined;
    if (value instanceof WebSocket) found.push(value);
  }
  return found;
}

/** Every server-side socket's unsent bytes, sampled while the attack runs: the largest seen. */
function sampleBuffers(): { stop(): { maxBuffered: number; maxRssMiB: number; maxHeapMiB: number } } {
  let maxBuffered = 0;
  let maxRss = 0;
  let maxHeap = 0;
  const timer = setInterval(() => {
    for (const s of serverSockets()) maxBuffered = Math.max(maxBuffered, s.bufferedAmount);
    const m = process.memoryUsage();
    maxRss = Math.max(maxRss, m.rss);
    maxHeap = Math.max(maxHeap, m.heapUsed);
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return { maxBuffered, maxRssMiB: maxRss / MiB, maxHeapMiB: maxHeap / MiB };
    },
  };
}

describe('a participant that stops reading', () => {
  it('is bounded, loses only collaboration updates, is closed with 4013 and can resume', async () => {
    const { userId } = await signIn(t, { email: 'bp-host@example.com', firstName: 'Bea' });
    const m = await createMeeting(t, { hostId: userId });
    const reader = await Client.enter(m.meetingId, 'Reader');
    const slow = await Client.enter(m.meetingId, 'Slow');
    const senders: Client[] = [];
    for (let i = 0; i < 8; i++) senders.push(await Client.enter(m.meetingId, `Sender ${i}`));
    const slowServerSide = slow.serverSide();
    expect(slowServerSide).toBeDefined();

    const before = process.memoryUsage();
    slow.ws.pause(); // stops reading: the kernel buffers fill, then the server's
    const sampler = sampleBuffers();
    let sent = 0;
    const docs = senders.map(() => new Y.Doc());
    const flood = setInterval(() => {
      senders.forEach((s, i) => {
        const doc = docs[i]!;
        const before = Y.encodeStateVector(doc);
        doc.getMap('whiteboard').set(`blob-${i}`, { text: blob, n: sent });
        const update = Buffer.from(Y.encodeStateAsUpdate(doc, before)).toString('base64');
        s.send({ type: 'collaboration_update', data: { kind: 'update', update } });
      });
      sent += 1;
    }, 250); // 4 updates of ~40 KB a second from each of the 8 senders (under the per-sender byte rate)

    // Non-droppable messages during the flood: signaling to the slow one and to the reader, and a
    // media state change everyone hears.
    await sleep(1500);
    const sdp = { type: 'offer', sdp: 'v=0 slow-marker' } as const;
    senders[0]!.send({ type: 'offer', targetParticipant: slow.join.id, offer: sdp });
    senders[0]!.send({
      type: 'offer',
      targetParticipant: reader.join.id,
      offer: { ...sdp, sdp: 'v=0 reader' },
    });
    senders[1]!.send({ type: 'media_state', isMuted: true, isVideoOn: false });

    // The server gives up on the slow socket: over the soft cap for longer than the grace.
    const deadline = Date.now() + 25_000;
    while (slowServerSide!.readyState === WebSocket.OPEN) {
      if (Date.now() > deadline) throw new Error('the slow socket was never closed');
      await sleep(50);
    }
    const closedAt = Date.now();
    // The room goes on: the reader still gets updates after the slow one was closed.
    const updatesAtClose = reader.updates;
    await sleep(1000);
    clearInterval(flood);
    const figures = sampler.stop();
    const after = process.memoryUsage();
    const readerUpdatesAfterClose = reader.updates - updatesAtClose;

    // What the server held for any one socket stayed within the hard cap (plus one frame).
    expect(figures.maxBuffered).toBeLessThanOrEqual(WS_LIMITS.sendBufferHardBytes + 128 * 1024);
    expect(readerUpdatesAfterClose).toBeGreaterThan(0);
    expect(reader.lastUpdateAt).toBeGreaterThanOrEqual(closedAt);
    // The reader got its offer and the media state change in the middle of the flood.
    await reader.waitFor((x) => x.type === 'offer' && x.offer.sdp === 'v=0 reader');
    await reader.waitFor(
      (x) =>
        x.type === 'participant_updated' && x.participant.id === senders[1]!.join.id && x.participant.isMuted,
    );

    // The slow client reads again: what was queued for it arrives, then the close frame 4013.
    slow.ws.resume();
    expect(await slow.closed).toBe(WS_CLOSE.slowConsumer);
    // It was sent the offer and the media state change (never dropped), not every update.
    expect(slow.messages.some((x) => x.type === 'offer' && x.offer.sdp === 'v=0 slow-marker')).toBe(true);
    expect(
      slow.messages.some((x) => x.type === 'participant_updated' && x.participant.id === senders[1]!.join.id),
    ).toBe(true);
    // Each of the sent * 8 updates was for the slow one too: most of them were dropped.
    expect(slow.updates).toBeLessThan(sent * senders.length);

    // The others heard that the slow participant lost its connection (grace), and it resumes.
    await reader.waitFor(
      (x) =>
        x.type === 'participant_updated' && x.participant.id === slow.join.id && !x.participant.isConnected,
    );
    const back = await Client.open(m.meetingId, slow.join);
    const joined = back.messages.find((x) => x.type === 'joined');
    expect(joined?.type === 'joined' && joined.resumed).toBe(true);
    expect(joined?.type === 'joined' && joined.self.id).toBe(slow.join.id);

    console.log(
      `backpressure: ${sent} rounds × 8 senders of 40 KB; ` +
        `largest server send buffer ${(figures.maxBuffered / MiB).toFixed(2)} MiB ` +
        `(soft ${WS_LIMITS.sendBufferSoftBytes / MiB} MiB, hard ${WS_LIMITS.sendBufferHardBytes / MiB} MiB); ` +
        `slow client got ${slow.updates} of ${sent * senders.length} updates, reader ${reader.updates}; ` +
        `test process RSS ${(before.rss / MiB).toFixed(0)} → peak ${figures.maxRssMiB.toFixed(0)} → ${(after.rss / MiB).toFixed(0)} MiB, ` +
        `heap peak ${figures.maxHeapMiB.toFixed(0)} MiB`,
    );
    for (const c of [reader, back, ...senders]) c.ws.close();
  });

  it('is not a participant that is sent one large message (a joined with a long chat history)', async () => {
    const saved = { ...t.app.realtime.settings };
    Object.assign(t.app.realtime.settings, { sendBufferSoftBytes: 8 * 1024, sendBufferHardBytes: 16 * 1024 });
    try {
      const { userId } = await signIn(t, { email: 'bp-host3@example.com', firstName: 'Cy' });
      const m = await createMeeting(t, { hostId: userId });
      // Four talkers: one alone may send 12,000 characters before the chat caps slow it down.
      const talkers = await Promise.all([1, 2, 3, 4].map((n) => Client.enter(m.meetingId, `Talker ${n}`)));
      for (let i = 0; i < 10; i++) {
        const talker = talkers[i % talkers.length]!;
        talker.send({ type: 'chat_message', content: `${i} ${'long line '.repeat(390)}` });
        await talker.waitFor((x) => x.type === 'chat_message' && x.content.startsWith(`${i} `));
      }
      // Its joined (about 40 KB) is over both caps on its own: sent, and the socket stays open.
      // (On loopback the kernel takes most of it at once; this guards the rule that the backlog
      // before a message decides, which matters on slow links.)
      const late = await Client.enter(m.meetingId, 'Late');
      const joined = late.messages.find((x) => x.type === 'joined');
      expect(joined?.type === 'joined' && joined.chatHistory.length).toBe(10);
      late.send({ type: 'ping', requestId: 'still-here' });
      await late.waitFor((x) => x.type === 'pong');
      expect(late.ws.readyState).toBe(WebSocket.OPEN);
      for (const talker of talkers) talker.ws.close();
      late.ws.close();
    } finally {
      Object.assign(t.app.realtime.settings, saved);
    }
  });

  it('is cut off when it still does not read after the 4013 close, and others get non-droppable messages', async () => {
    const saved = { ...t.app.realtime.settings };
    // Small caps so that signaling alone (never dropped) goes over the hard cap.
    Object.assign(t.app.realtime.settings, {
      sendBufferSoftBytes: 64 * 1024,
      sendBufferHardBytes: 256 * 1024,
      slowConsumerCloseWaitMs: 500,
      // Two offers every 25 ms: the sender must not be rate limited (offers would go missing).
      messagesPerSecond: 1000,
    });
    try {
      const { userId } = await signIn(t, { email: 'bp-host2@example.com', firstName: 'Bo' });
      const m = await createMeeting(t, { hostId: userId });
      const reader = await Client.enter(m.meetingId, 'Reader');
      const slow = await Client.enter(m.meetingId, 'Slow');
      const sender = await Client.enter(m.meetingId, 'Sender');
      const slowServerSide = slow.serverSide()!;
      slow.ws.pause();
      const sdp = 'v=0 '.padEnd(60_000, 'a');
      let offers = 0;
      const deadline = Date.now() + 20_000;
      while (slowServerSide.readyState === WebSocket.OPEN) {
        if (Date.now() > deadline) throw new Error('the slow socket was never closed');
        sender.send({ type: 'offer', targetParticipant: slow.join.id, offer: { type: 'offer', sdp } });
        sender.send({
          type: 'offer',
          targetParticipant: reader.join.id,
          offer: { type: 'offer', sdp: `v=0 ${offers}` },
        });
        offers += 1;
        await sleep(25);
      }
      expect(slowServerSide.bufferedAmount).toBeLessThanOrEqual(256 * 1024 + 128 * 1024);
      // Never reading again: cut off after the close wait, and its participant enters the grace.
      const cut = Date.now();
      while (slowServerSide.readyState !== WebSocket.CLOSED) {
        if (Date.now() - cut > 5000) throw new Error('the slow socket was not cut off');
        await sleep(50);
      }
      await reader.waitFor(
        (x) =>
          x.type === 'participant_updated' && x.participant.id === slow.join.id && !x.participant.isConnected,
      );
      // Every offer to the reader arrived, in order.
      await reader.waitFor((x) => x.type === 'offer' && x.offer.sdp === `v=0 ${offers - 1}`);
      const toReader = reader.messages
        .filter((x) => x.type === 'offer')
        .map((x) => x.type === 'offer' && x.offer.sdp);
      expect(toReader).toEqual(Array.from({ length: offers }, (_, i) => `v=0 ${i}`));
      for (const c of [reader, sender]) c.ws.close();
      slow.ws.terminate();
    } finally {
      Object.assign(t.app.realtime.settings, saved);
    }
  });
});
