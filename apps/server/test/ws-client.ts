import type { ServerMessage, ServerMessageOf, ServerMessageType } from '@parley/protocol';
import WebSocket from 'ws';
import type { TestContext } from './app.js';

/**
 * A WebSocket client for realtime tests: keeps every message it receives, and lets a test wait
 * for the next message of a type, or for the close code.
 */
export class TestSocket {
  readonly received: ServerMessage[] = [];
  private readonly unread: ServerMessage[] = [];
  private waiters: Array<() => void> = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.received.push(message);
      this.unread.push(message);
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
        for (const w of this.waiters.splice(0)) w();
      });
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<TestSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const socket = new TestSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
    });
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** A binary frame (audio PCM while transcription is on). */
  sendBinary(data: Buffer): void {
    this.ws.send(data, { binary: true });
  }

  /** The next unread message of `type` (earlier unread messages of other types stay unread). */
  async next<T extends ServerMessageType>(type: T, timeoutMs = 3000): Promise<ServerMessageOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const i = this.unread.findIndex((m) => m.type === type);
      if (i >= 0) return this.unread.splice(i, 1)[0] as ServerMessageOf<T>;
      const left = deadline - Date.now();
      if (left <= 0 || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(
          `no '${type}' message within ${timeoutMs} ms; got ${JSON.stringify(this.received.map((m) => m.type))}`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Resolves after `ms` with the unread messages of `type` that arrived (expected: none). */
  async none(type: ServerMessageType, ms = 300): Promise<ServerMessage[]> {
    await new Promise((r) => setTimeout(r, ms));
    return this.unread.filter((m) => m.type === type);
  }

  /** Round trip: every frame sent before has been handled when the pong arrives. */
  async sync(): Promise<void> {
    const requestId = `sync-${Math.random()}`;
    this.send({ type: 'ping', requestId });
    for (;;) {
      const pong = await this.next('pong');
      if (pong.requestId === requestId) return;
    }
  }

  /** A close frame; 1000 or 1001 is a page closing its socket (tab closed, reload). */
  close(code?: number): void {
    this.ws.close(code);
  }

  /** Drops the TCP connection without a close frame (a network failure). */
  drop(): void {
    this.ws.terminate();
  }
}

/** Listens on a free loopback port; answers the base http:// and ws:// URLs. */
export async function listen(t: TestContext): Promise<{ http: string; ws: string }> {
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { http: address, ws: address.replace(/^http/, 'ws') };
}

export interface JoinOptions {
  name?: string;
  isHost?: boolean;
  sessionId?: string;
  password?: string;
  /** The join token this tab was given before (a reload). */
  resumeToken?: string;
  cookie?: string;
  isMuted?: boolean;
  isVideoOn?: boolean;
}

export interface Joined {
  id: string;
  joinToken: string;
  isHost: boolean;
  admission: 'admitted' | 'waiting';
  mediaMode?: 'p2p' | 'sfu';
}

/** POST /api/meetings/{id}/join through inject; throws with the answer when not 200. */
export async function postJoin(
  t: TestContext,
  meetingId: string,
  options: JoinOptions = {},
): Promise<Joined> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    headers: options.cookie ? { cookie: options.cookie } : {},
    payload: {
      name: options.name ?? 'Guest',
      isHost: options.isHost ?? false,
      isMuted: options.isMuted ?? false,
      isVideoOn: options.isVideoOn ?? true,
      sessionId: options.sessionId ?? `s-${Math.random()}`,
      ...(options.password !== undefined ? { password: options.password } : {}),
      ...(options.resumeToken !== undefined ? { resumeToken: options.resumeToken } : {}),
    },
  });
  if (res.statusCode !== 200) throw new Error(`join answered ${res.statusCode}: ${res.body}`);
  return res.json<Joined>();
}

/** Joins over REST, opens /ws and sends join_meeting; waits for `joined` (or `waiting`). */
export async function enter(
  t: TestContext,
  wsBase: string,
  meetingId: string,
  options: JoinOptions = {},
): Promise<{ join: Joined; socket: TestSocket; joined: ServerMessageOf<'joined'> | null }> {
  const join = await postJoin(t, meetingId, options);
  const socket = await connect(wsBase, meetingId, options);
  socket.send({ type: 'join_meeting', joinToken: join.joinToken });
  if (join.admission === 'waiting') {
    await socket.next('waiting');
    return { join, socket, joined: null };
  }
  return { join, socket, joined: await socket.next('joined') };
}

export function connect(wsBase: string, meetingId: string, options: JoinOptions = {}): Promise<TestSocket> {
  const query = new URLSearchParams({
    meetingId,
    name: options.name ?? 'Guest',
    host: String(options.isHost ?? false),
  });
  return TestSocket.open(`${wsBase}/ws?${query}`, options.cookie ? { cookie: options.cookie } : {});
}

/** The next `free_time` state of the socket in `mode` (earlier states are skipped). */
export async function nextFreeTimeMode(socket: TestSocket, mode: string, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = (await socket.next('free_time', Math.max(1, deadline - Date.now()))).freeTime;
    if (state.mode === mode) return state;
  }
}
