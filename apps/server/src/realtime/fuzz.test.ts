/**
 * WebSocket fuzz: what realtime.test.ts does not already cover. Bad frames before join, a
 * mutation of every field of every client message type (taken from the protocol's schema, so a
 * new message type is fuzzed without touching this file), invalid UTF-8, odd connection queries
 * and broken upgrade requests. The rule: the socket answers an `error` with a message, or closes
 * with a 4xxx / 1009 code (1007 for invalid UTF-8, as RFC 6455 says); no handler ever fails
 * (`internal`), and the server keeps serving everyone else.
 */
import net from 'node:net';
import { clientMessageSchema, WS_CLOSE, WS_LIMITS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { createTestApp, signIn, type TestContext } from '../../test/app.js';
import { createMeeting } from '../../test/meetings.js';
import { connect, enter, listen, TestSocket } from '../../test/ws-client.js';

let t: TestContext;
let ws: string;
let http: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ userId: hostId } = await signIn(t, { email: 'fuzz-host@example.com', firstName: 'Hana' }));
  ({ ws, http } = await listen(t));
});
afterAll(async () => t.close());

/** The server answers HTTP and a newcomer can still join and see `others` in the room. */
async function stillServing(meetingId: string, others: string[] = []): Promise<void> {
  const health = await fetch(`${http}/api/health`);
  expect(health.status).toBe(200);
  const fresh = await enter(t, ws, meetingId, { name: 'Newcomer' });
  const names = fresh.joined?.participants.map((p) => p.name) ?? [];
  for (const name of others) expect(names).toContain(name);
  fresh.socket.send({ type: 'ping', requestId: 'alive' });
  expect((await fresh.socket.next('pong')).requestId).toBe('alive');
  fresh.socket.close();
}

function expectErrorsReadable(socket: TestSocket): void {
  for (const m of socket.received) {
    if (m.type !== 'error') continue;
    expect(m.code).not.toBe('internal');
    expect(typeof m.message === 'string' && m.message.length > 0 && m.message.length < 500).toBe(true);
  }
}

// Field values of the wrong shape, for every field of every message type.
const WRONG: unknown[] = [
  null,
  0,
  -1,
  1e308,
  true,
  '',
  'x'.repeat(5000),
  'ünïcødé 💥 ../../etc/passwd',
  [],
  [null, 1, 'a'],
  {},
  { nested: { deeper: [{ x: null }] } },
  { __proto__: { polluted: true } },
];

/** Every client message type with its fields, from the protocol's JSON Schema. */
function messageShapes(): Array<{ type: string; fields: string[] }> {
  const schema = z.toJSONSchema(clientMessageSchema, { unrepresentable: 'any', io: 'input' }) as {
    anyOf?: unknown[];
    oneOf?: unknown[];
  };
  const branches = (schema.oneOf ?? schema.anyOf ?? []) as Array<{
    properties?: Record<string, { const?: string }>;
  }>;
  return branches.map((b) => ({
    type: String(b.properties?.type?.const),
    fields: Object.keys(b.properties ?? {}).filter((k) => k !== 'type'),
  }));
}

describe('WebSocket fuzz', () => {
  it('answers bad frames before join_meeting with bad_message, and then still lets the socket join', async () => {
    const m = await createMeeting(t, { hostId });
    const socket = await connect(ws, m.meetingId, { name: 'Early' });
    const frames = [
      '',
      ' ',
      '{',
      '\u0000',
      'true',
      '"join_meeting"',
      '[{"type":"join_meeting"}]',
      JSON.stringify({ type: 'JOIN_MEETING', joinToken: 'x'.repeat(20) }),
      JSON.stringify({ type: 'join_meeting', joinToken: { $ne: null } }),
      JSON.stringify({ type: 'join_meeting', joinToken: ['a'.repeat(20)] }),
      JSON.stringify({ type: 'join_meeting', joinToken: 'x'.repeat(5000) }),
      JSON.stringify({ type: 'join_meeting' }),
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      `{"type":"ping","requestId":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`,
    ];
    for (const frame of frames) socket.send(frame);
    for (let i = 0; i < frames.length; i++) {
      expect((await socket.next('error')).code, frames[i]?.slice(0, 40)).toBe('bad_message');
    }
    // A binary frame is audio, which only a socket in the room may send.
    socket.ws.send(Buffer.from([0, 1, 2, 255]), { binary: true });
    expect((await socket.next('error')).code).toBe('not_joined');
    expectErrorsReadable(socket);
    socket.close();
    await stillServing(m.meetingId);
  });

  it('mutates every field of every client message type: errors or silence, never a failed handler', async () => {
    const saved = t.app.realtime.settings.messagesPerSecond;
    // The limiter has its own test (realtime.test.ts); here every frame must reach its handler.
    t.app.realtime.settings.messagesPerSecond = 100_000;
    try {
      const m = await createMeeting(t, { hostId });
      const observer = await enter(t, ws, m.meetingId, { name: 'Observer' });
      const fuzzer = await enter(t, ws, m.meetingId, { name: 'Fuzzer' });
      const shapes = messageShapes();
      expect(shapes.map((s) => s.type)).toContain('chat_message');

      let sent = 0;
      for (const { type, fields } of shapes) {
        if (type === 'leave_meeting') continue; // a well-formed one would leave: sent last
        for (const field of fields) {
          for (const value of WRONG) {
            fuzzer.socket.send({ type, requestId: `r${sent}`, [field]: value });
            sent++;
          }
        }
        fuzzer.socket.send({ type }); // every field missing
        fuzzer.socket.send({ type, unexpected: true, requestId: 5 });
        sent += 2;
      }
      expect(sent).toBeGreaterThan(200);
      // Every frame was handled (the round trip comes after them), and the socket is open.
      await fuzzer.socket.sync();
      expect(fuzzer.socket.ws.readyState).toBe(WebSocket.OPEN);
      expectErrorsReadable(fuzzer.socket);
      expect(fuzzer.socket.received.filter((r) => r.type === 'error').length).toBeGreaterThan(sent / 2);
      // The other participant is still there and was told nothing odd.
      await observer.socket.sync();
      expect(observer.socket.received.filter((r) => r.type === 'error')).toEqual([]);

      fuzzer.socket.send({ type: 'leave_meeting', extra: 'x'.repeat(1000) });
      await stillServing(m.meetingId, ['Observer']);
      observer.socket.close();
    } finally {
      t.app.realtime.settings.messagesPerSecond = saved;
    }
  });

  it('closes with 1009 on an oversize frame before join, but a frame at the limit gets bad_message', async () => {
    const m = await createMeeting(t, { hostId });
    const atLimit = await connect(ws, m.meetingId);
    const body = JSON.stringify({ type: 'chat_message', content: '' });
    atLimit.send(body.replace('""', `"${'x'.repeat(WS_LIMITS.maxMessageBytes - body.length)}"`));
    expect((await atLimit.next('error')).code).toBe('bad_message');
    atLimit.close();

    const big = await connect(ws, m.meetingId);
    big.send('x'.repeat(WS_LIMITS.maxMessageBytes + 1));
    expect((await big.closed).code).toBe(WS_CLOSE.tooBig);
    await stillServing(m.meetingId);
  });

  it('closes with 1007 on a text frame that is not UTF-8; the room keeps going', async () => {
    const m = await createMeeting(t, { hostId });
    const { socket } = await enter(t, ws, m.meetingId, { name: 'Bytes' });
    const stays = await enter(t, ws, m.meetingId, { name: 'Stays' });
    socket.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    expect((await socket.closed).code).toBe(1007);
    stays.socket.send({ type: 'ping', requestId: 'p' });
    expect((await stays.socket.next('pong')).requestId).toBe('p');
    await stillServing(m.meetingId, ['Stays']);
    stays.socket.close();
  });

  it('closes sockets with odd connection queries with 4000, or 4001 at a made-up token', async () => {
    const m = await createMeeting(t, { hostId });
    const badQueries = [
      '',
      `meetingId=${'1'.repeat(5000)}`,
      'meetingId=',
      `meetingId=${m.meetingId}&name=${'n'.repeat(500)}`,
      `meetingId=${m.meetingId}&name=a`,
      `meetingId=${m.meetingId}&host=maybe`,
      `meetingId=${m.meetingId}&meetingId=${m.meetingId}`,
      `meetingId[a]=1`,
    ];
    for (const q of badQueries) {
      const socket = await TestSocket.open(`${ws}/ws?${q}`);
      expect((await socket.closed).code, q.slice(0, 40)).toBe(WS_CLOSE.badRequest);
    }
    // Shapes the query accepts: the socket waits for join_meeting, and a made-up token is refused.
    for (const id of [encodeURIComponent('../../etc/passwd'), encodeURIComponent('ünï 💥'), '999-999-999']) {
      const socket = await TestSocket.open(`${ws}/ws?meetingId=${id}&name=Tester`);
      socket.send({ type: 'join_meeting', joinToken: 'y'.repeat(43) });
      expect((await socket.next('error')).code).toBe('invalid_token');
      expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
    }
    await stillServing(m.meetingId);
  });

  it('refuses broken upgrade requests over HTTP and keeps serving', async () => {
    const m = await createMeeting(t, { hostId });
    const { port } = new URL(http);
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const c = net.connect(Number(port), '127.0.0.1', () => c.write(request));
        let got = '';
        c.on('data', (d) => (got += d.toString('latin1')));
        c.on('close', () => resolve(got));
        c.on('error', () => resolve(got));
        setTimeout(() => c.destroy(), 2000);
      });
    const upgrade = (extra: string) =>
      `GET /ws?meetingId=${m.meetingId} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n${extra}\r\n`;
    const answers = await Promise.all([
      raw(upgrade('Sec-WebSocket-Version: 13\r\n')), // no key
      raw(upgrade('Sec-WebSocket-Version: 99\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n')),
      raw(upgrade('Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: short\r\n')),
      raw(
        upgrade(
          `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Big: ${'a'.repeat(20_000)}\r\n`,
        ),
      ),
    ]);
    for (const answer of answers) {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
      expect(status, answer.slice(0, 80)).toBeGreaterThanOrEqual(400);
      expect(status, answer.slice(0, 80)).toBeLessThan(500);
    }
    // A connection cut in the middle of a frame.
    const cut = await connect(ws, m.meetingId, { name: 'Cut' });
    const socket = (cut.ws as unknown as { _socket: net.Socket })._socket;
    socket.write(Buffer.from([0x81, 0xfe, 0xff, 0xff, 1, 2, 3, 4, 5]));
    socket.destroy();
    await stillServing(m.meetingId);
  });
});
