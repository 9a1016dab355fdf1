import type { ServerMessage } from '@parley/protocol/ws';
import { WS_CLOSE } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PONG_TIMEOUT_MS, SignalClient, signalUrl } from './signal-client';
import { FakeSocket } from './testing/fakes';

const self = {
  id: 'p1',
  name: 'Ann',
  isHost: false,
  isMuted: false,
  isVideoOn: true,
  isScreenSharing: false,
  isConnected: true,
};
const joined = (resumed = false): ServerMessage => ({
  type: 'joined',
  self,
  participants: [],
  chatHistory: [],
  iceServers: [],
  meeting: { meetingId: '123-456-789', title: 't', startedAt: new Date().toISOString() },
  resumed,
  allMuted: false,
  transcription: { active: false, startedBy: null, startedAt: null },
  recentTranscripts: [],
});

describe('SignalClient', () => {
  let sockets: FakeSocket[];
  let client: SignalClient;
  const last = () => sockets[sockets.length - 1]!;
  const makeClient = (log?: (msg: string, extra?: unknown) => void) =>
    new SignalClient({
      url: 'ws://x/ws?meetingId=1',
      joinToken: 'token-0123456789abcdef',
      createSocket: (url) => {
        const s = new FakeSocket(url);
        sockets.push(s);
        return s;
      },
      random: () => 0.5,
      ...(log ? { log } : {}),
    });

  beforeEach(() => {
    vi.useFakeTimers();
    sockets = [];
    client = makeClient();
  });
  afterEach(() => {
    client.leave();
    vi.useRealTimers();
  });

  it('builds the socket URL with wss on https pages', () => {
    expect(
      signalUrl({ protocol: 'https:', host: 'a.example' }, { meetingId: '1', name: 'Ann B', host: true }),
    ).toBe('wss://a.example/ws?meetingId=1&name=Ann+B&host=true');
    expect(
      signalUrl({ protocol: 'http:', host: 'localhost:3000' }, { meetingId: '1', name: 'Al', host: false }),
    ).toMatch(/^ws:\/\/localhost:3000\/ws\?/);
  });

  it('sends join_meeting with the token first, then reaches joined and dispatches typed messages', () => {
    const seen: string[] = [];
    client.on('participant_joined', (m) => seen.push(m.participant.name));
    client.connect();
    expect(client.state).toBe('connecting');
    last().open();
    expect(last().sent[0]).toEqual({ type: 'join_meeting', joinToken: 'token-0123456789abcdef' });
    last().receive(joined());
    expect(client.state).toBe('joined');
    last().receive({ type: 'participant_joined', participant: { ...self, id: 'p2', name: 'Bob' } });
    expect(seen).toEqual(['Bob']);
  });

  it('ignores malformed and unknown frames without breaking', () => {
    const seen: unknown[] = [];
    client.on('chat_message', (m) => seen.push(m));
    client.connect();
    last().open();
    last().receive(joined());
    last().receive('not json');
    last().receive(JSON.stringify({ type: 'nonsense' }));
    last().receive(JSON.stringify(['chat_message']));
    last().receive(JSON.stringify(null));
    expect(seen).toEqual([]);
    expect(client.state).toBe('joined');
  });

  it('keeps dispatching when a handler throws on a shape it did not expect', () => {
    const seen: string[] = [];
    const log = vi.fn();
    client.leave();
    client = makeClient(log);
    client.on('chat_message', (m) => seen.push(m.content.toUpperCase()));
    client.on('chat_message', () => seen.push('second handler'));
    client.connect();
    last().open();
    last().receive(joined());
    last().receive(JSON.stringify({ type: 'chat_message', content: 1 }));
    expect(seen).toEqual(['second handler']);
    expect(log.mock.calls.some(([m]) => m === 'signal: a chat_message handler failed')).toBe(true);
    expect(client.state).toBe('joined');
  });

  it('queues messages sent before the join and flushes them after', () => {
    client.connect();
    client.send({ type: 'chat_message', content: 'hello' });
    last().open();
    expect(last().sent).toHaveLength(1);
    last().receive(joined());
    expect(last().sent[1]).toEqual({ type: 'chat_message', content: 'hello' });
  });

  it('reconnects with growing backoff and resumes with the same token after a drop', () => {
    client.connect();
    last().open();
    last().receive(joined());
    last().drop(1006);
    expect(client.state).toBe('reconnecting');
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(client.backoffDelay(1));
    expect(sockets).toHaveLength(2);
    last().drop(1006); // the network is still down
    expect(client.getSnapshot().attempt).toBe(2);
    expect(client.backoffDelay(2)).toBeGreaterThan(client.backoffDelay(1));
    vi.advanceTimersByTime(client.backoffDelay(2));
    expect(sockets).toHaveLength(3);
    last().open();
    expect(last().sent[0]).toEqual({ type: 'join_meeting', joinToken: 'token-0123456789abcdef' });
    last().receive(joined(true));
    expect(client.getSnapshot()).toMatchObject({ state: 'joined', attempt: 0 });
  });

  it('after 1001 (a draining server) resumes at once without showing a reconnect', () => {
    const states: string[] = [];
    client.subscribe(() => states.push(client.state));
    client.connect();
    last().open();
    last().receive(joined());
    states.length = 0;
    last().drop(WS_CLOSE.goingAway);
    expect(client.state).toBe('joined');
    client.send({ type: 'chat_message', content: 'sent meanwhile' });
    vi.advanceTimersByTime(250);
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent[0]).toEqual({ type: 'join_meeting', joinToken: 'token-0123456789abcdef' });
    last().receive(joined(true));
    expect(last().sent[1]).toEqual({ type: 'chat_message', content: 'sent meanwhile' });
    expect(states).not.toContain('reconnecting');
  });

  it('after 1001, falls back to the visible reconnect when the quiet one fails', () => {
    client.connect();
    last().open();
    last().receive(joined());
    last().drop(WS_CLOSE.goingAway);
    vi.advanceTimersByTime(250);
    last().drop(1006); // no other instance answered
    expect(client.state).toBe('reconnecting');
  });

  it('caps the backoff and adds jitter', () => {
    const c = new SignalClient({
      url: 'ws://x',
      joinToken: 'x'.repeat(16),
      random: () => 0,
      maxBackoffMs: 4000,
    });
    const d = new SignalClient({
      url: 'ws://x',
      joinToken: 'x'.repeat(16),
      random: () => 0.999,
      maxBackoffMs: 4000,
    });
    expect(c.backoffDelay(20)).toBe(2000);
    expect(d.backoffDelay(20)).toBeLessThanOrEqual(4000);
    expect(d.backoffDelay(20)).toBeGreaterThan(3900);
  });

  it('stops for good on a terminal close code and says why', () => {
    client.connect();
    last().open();
    last().receive(joined());
    last().drop(WS_CLOSE.removedByHost, 'Removed by the host');
    expect(client.getSnapshot()).toMatchObject({ state: 'closed', closeReason: 'removed' });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('treats an unanswered join as a failure and retries', () => {
    client.connect();
    last().open();
    vi.advanceTimersByTime(10_000);
    expect(last().closedWith).toBe(1000);
    expect(client.state).toBe('reconnecting');
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
  });

  it('does not time out while held in the waiting room', () => {
    client.connect();
    last().open();
    last().receive({ type: 'waiting', message: 'Waiting for the host' });
    vi.advanceTimersByTime(30_000);
    expect(sockets).toHaveLength(1);
    expect(client.state).toBe('waiting');
  });

  it('detects a dead link when pongs stop and reconnects', () => {
    client.connect();
    last().open();
    last().receive(joined());
    vi.advanceTimersByTime(20_000);
    expect(client.state).toBe('joined');
    last().autoPong = false;
    vi.advanceTimersByTime(5000);
    const ping = last().sent.find((m) => (m as { type: string }).type === 'ping');
    expect(ping).toBeTruthy();
    // A late pong is not a dead link: a starved page answers slowly.
    vi.advanceTimersByTime(4000);
    expect(client.state).toBe('joined');
    vi.advanceTimersByTime(PONG_TIMEOUT_MS - 4000);
    expect(client.state).toBe('reconnecting');
  });

  it('gives up after the resume grace period', () => {
    client.connect();
    last().open();
    last().receive(joined());
    last().drop(1006);
    for (let i = 0; i < 40 && client.state !== 'closed'; i++) {
      vi.advanceTimersByTime(5000);
      last().drop(1006);
    }
    expect(client.getSnapshot()).toMatchObject({ state: 'closed', closeReason: 'gave_up' });
  });

  it('resolves requests by requestId and rejects on error replies', async () => {
    client.connect();
    last().open();
    last().receive(joined());
    const ok = client.request({ type: 'mute_all', muted: true });
    const sentOk = last().sent.at(-1) as { requestId: string };
    last().receive({ type: 'ack', requestId: sentOk.requestId });
    await expect(ok).resolves.toMatchObject({ type: 'ack' });
    const bad = client.request({ type: 'mute_all', muted: true });
    const sentBad = last().sent.at(-1) as { requestId: string };
    last().receive({
      type: 'error',
      requestId: sentBad.requestId,
      code: 'forbidden',
      message: 'Only the host',
    });
    await expect(bad).rejects.toThrow('Only the host');
  });

  it('leave sends leave_meeting and closes normally', () => {
    client.connect();
    last().open();
    last().receive(joined());
    const s = last();
    client.leave();
    expect(s.sent.at(-1)).toEqual({ type: 'leave_meeting' });
    // The server closes after handling the leave; the client closes itself only if it does not.
    expect(s.closedWith).toBeNull();
    vi.advanceTimersByTime(2000);
    expect(s.closedWith).toBe(1000);
    expect(client.getSnapshot()).toMatchObject({ state: 'closed', closeReason: 'left' });
  });

  it('leave from the waiting room tells the server, so the host does not see a ghost', () => {
    client.connect();
    last().open();
    last().receive({ type: 'waiting', message: 'Waiting for the host' });
    const s = last();
    client.leave();
    expect(s.sent.at(-1)).toEqual({ type: 'leave_meeting' });
    vi.advanceTimersByTime(2000);
    expect(s.closedWith).toBe(1000);
    expect(client.getSnapshot()).toMatchObject({ state: 'closed', closeReason: 'left' });
  });
});
