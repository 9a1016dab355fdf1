import type { ClientMessage, ServerMessage, ServerMessageOf, ServerMessageType } from '@parley/protocol/ws';
import { SERVER_MESSAGE_TYPES, WS_CLOSE, WS_LIMITS } from '@parley/protocol/constants';
import { Store } from '@/lib/store';

/**
 * The one owner of the room's WebSocket (DESIGN.md): connection states, typed senders, one
 * dispatcher for incoming messages, reconnect with exponential backoff and jitter (resuming the
 * same participant with the same join token), a join timeout and a ping that detects dead links.
 * It knows nothing about React or media; the room session subscribes to it.
 */

/**
 * `waiting`: the server took our join but holds us in the waiting room until the host admits us
 * (then `joined`). The one place the client records that it is waiting.
 */
export type SignalState = 'idle' | 'connecting' | 'waiting' | 'joined' | 'reconnecting' | 'closed';

/** Why the client stopped for good (state 'closed'). */
export type CloseReason =
  | 'left'
  | 'removed'
  | 'ended'
  | 'not_found'
  | 'denied'
  | 'replaced'
  | 'unauthorized'
  | 'forbidden'
  | 'expired'
  | 'gave_up'
  /** The free time and its grace ran out without a saved card (4020). */
  | 'free_time';

export interface SignalSnapshot {
  state: SignalState;
  /** Reconnect attempts since the last successful join. */
  attempt: number;
  closeReason: CloseReason | null;
  /** The server's words when it closed or refused us, if any. */
  closeMessage: string | null;
}

export interface WebSocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  /** Bytes queued but not sent yet (absent on test doubles: counted as 0). */
  readonly bufferedAmount?: number;
}

export interface SignalClientOptions {
  /** Full ws(s):// URL including the query (meetingId, name, host). */
  url: string;
  joinToken: string;
  createSocket?: (url: string) => WebSocketLike;
  /** First reconnect delay; doubles each attempt up to maxBackoffMs, ± jitter. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Stop reconnecting after this long without a join (the server forgets us after its grace). */
  giveUpAfterMs?: number;
  joinTimeoutMs?: number;
  pingIntervalMs?: number;
  pongTimeoutMs?: number;
  random?: () => number;
  log?: (msg: string, extra?: unknown) => void;
}

const OPEN = 1;
const MAX_QUEUE = 200;
/** How long a leaving client waits for the server to close before closing itself. */
const LEAVE_CLOSE_MS = 2000;

/**
 * Longest wait before the quiet reconnect after the server said it is going away (1001: its
 * instance is draining); spread so that a draining instance's clients do not all land at once.
 */
const GOING_AWAY_SPREAD_MS = 250;

/** Close codes after which reconnecting is pointless. */
const TERMINAL_CODES: Partial<Record<number, CloseReason>> = {
  [WS_CLOSE.removedByHost]: 'removed',
  [WS_CLOSE.meetingEnded]: 'ended',
  [WS_CLOSE.meetingNotFound]: 'not_found',
  [WS_CLOSE.deniedEntry]: 'denied',
  [WS_CLOSE.replaced]: 'replaced',
  [WS_CLOSE.unauthorized]: 'unauthorized',
  [WS_CLOSE.forbidden]: 'forbidden',
  [WS_CLOSE.sessionEnded]: 'expired',
  [WS_CLOSE.freeTimeExpired]: 'free_time',
};

/** Client messages that carry a requestId and get a reply. */
export type RequestMessage = Extract<ClientMessage, { requestId?: string }>;

type Handler<T extends ServerMessageType> = (msg: ServerMessageOf<T>) => void;
type AnyHandler = (msg: ServerMessage) => void;

let requestCounter = 0;
export function newRequestId(): string {
  requestCounter += 1;
  return `r${Date.now().toString(36)}${requestCounter.toString(36)}`;
}

/** Builds `/ws?meetingId&name&host` on the page's origin, wss on https (spec §7). */
export function signalUrl(
  location: Pick<Location, 'protocol' | 'host'>,
  q: { meetingId: string; name: string; host: boolean },
): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const params = new URLSearchParams({ meetingId: q.meetingId, name: q.name, host: String(q.host) });
  return `${scheme}//${location.host}/ws?${params.toString()}`;
}

/**
 * How long a ping may go unanswered before the link counts as dead and the socket is replaced. Not
 * shorter: a page starved of CPU (five browsers on two slow cores in the SFU browser test, 2026-11-27)
 * answered late, and at 4 s every late pong became a reconnect and an SFU renegotiation, which
 * starved the pages further; at 10 s none did. A link that is really gone is still found within
 * 15 s (pings every 5 s), inside the server's resume grace.
 */
export const PONG_TIMEOUT_MS = 10_000;

export class SignalClient {
  private readonly opts: Required<Omit<SignalClientOptions, 'log'>> & Pick<SignalClientOptions, 'log'>;
  private socket: WebSocketLike | null = null;
  private readonly store = new Store<SignalSnapshot>({
    state: 'idle',
    attempt: 0,
    closeReason: null,
    closeMessage: null,
  });
  private readonly handlers = new Map<ServerMessageType, Set<AnyHandler>>();
  private readonly pending = new Map<
    string,
    { resolve: (m: ServerMessage) => void; reject: (e: Error) => void }
  >();
  private queue: ClientMessage[] = [];
  private joinTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private pongTimer: ReturnType<typeof setTimeout> | null = null;
  private disconnectedSince: number | null = null;

  constructor(options: SignalClientOptions) {
    this.opts = {
      createSocket: (url) => new WebSocket(url) as unknown as WebSocketLike,
      baseBackoffMs: 250,
      maxBackoffMs: 5000,
      giveUpAfterMs: WS_LIMITS.resumeGraceMs,
      joinTimeoutMs: WS_LIMITS.joinTimeoutMs,
      pingIntervalMs: 5000,
      pongTimeoutMs: PONG_TIMEOUT_MS,
      random: Math.random,
      ...(Object.fromEntries(
        Object.entries(options).filter(([, v]) => v !== undefined),
      ) as SignalClientOptions),
    };
  }

  // ------------------------------------------------------------------ state

  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;

  get state(): SignalState {
    return this.store.getSnapshot().state;
  }

  // ------------------------------------------------------------------ dispatcher

  /** Subscribes to one incoming message type; returns the unsubscribe function. */
  on<T extends ServerMessageType>(type: T, handler: Handler<T>): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler as AnyHandler);
    return () => set.delete(handler as AnyHandler);
  }

  /**
   * The one dispatcher: every frame is routed by its type. The frames come from our own server,
   * which builds each one from the protocol's schema types; the page checks that a frame is an
   * object of a known type and does not evaluate the schemas themselves (building them took the
   * joining page 150-250 ms of main thread on a busy 2-core machine, all before its first frame).
   * A handler that throws on an unexpected shape is logged and does not stop the others.
   */
  private dispatch(raw: unknown): void {
    let json: unknown;
    try {
      json = JSON.parse(typeof raw === 'string' ? raw : String(raw));
    } catch {
      this.opts.log?.('signal: ignored a frame that is not JSON');
      return;
    }
    if (!isServerMessage(json)) {
      this.opts.log?.('signal: ignored an unknown or malformed message', json);
      return;
    }
    const msg = json;
    this.handleControl(msg);
    if ('requestId' in msg && msg.requestId) {
      const waiter = this.pending.get(msg.requestId);
      if (waiter) {
        this.pending.delete(msg.requestId);
        if (msg.type === 'error') waiter.reject(new SignalRequestError(msg.code, msg.message));
        else waiter.resolve(msg);
      }
    }
    const set = this.handlers.get(msg.type);
    if (!set) return;
    for (const h of [...set]) {
      try {
        h(msg);
      } catch (err) {
        this.opts.log?.(`signal: a ${msg.type} handler failed`, err);
      }
    }
  }

  /** Connection bookkeeping that must happen before the room sees the message. */
  private handleControl(msg: ServerMessage): void {
    switch (msg.type) {
      case 'joined':
        this.clearJoinTimer();
        this.disconnectedSince = null;
        this.store.patch({ state: 'joined', attempt: 0 });
        this.startPing();
        this.flushQueue();
        break;
      case 'waiting':
        // Held in the waiting room: the join timeout no longer applies.
        this.clearJoinTimer();
        this.disconnectedSince = null;
        this.store.patch({ state: 'waiting', attempt: 0 });
        this.startPing();
        break;
      case 'pong':
        if (this.pongTimer) clearTimeout(this.pongTimer);
        this.pongTimer = null;
        break;
      case 'denied':
        this.finish('denied', msg.message);
        break;
      case 'removed':
        this.finish('removed', msg.message);
        break;
      case 'free_time_ended':
        this.finish('free_time', msg.message);
        break;
      case 'error':
        if (msg.code === 'invalid_token' && this.state !== 'joined') {
          // Our join token is no longer known (the grace period passed): a fresh join is needed.
          this.finish('expired', msg.message);
        }
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------ senders

  /** Sends now when joined, else queues (bounded) until the next join. */
  send(msg: ClientMessage): void {
    if (this.state === 'closed') return;
    if (this.state === 'joined' && this.socket?.readyState === OPEN) {
      this.socket.send(JSON.stringify(msg));
      return;
    }
    if (msg.type === 'ping') return;
    this.queue.push(msg);
    if (this.queue.length > MAX_QUEUE) this.queue.shift();
  }

  /**
   * Sends a binary frame (the microphone's PCM while transcription is on) when joined; otherwise
   * or when the socket is backed up (over `maxBuffered` unsent bytes) the frame is dropped: late
   * audio is worth less than the signaling behind it. Answers whether it was sent.
   */
  sendBinary(data: ArrayBufferView, maxBuffered = 256 * 1024): boolean {
    const socket = this.socket;
    if (this.state !== 'joined' || socket?.readyState !== OPEN) return false;
    if ((socket.bufferedAmount ?? 0) > maxBuffered) return false;
    socket.send(data);
    return true;
  }

  /** Sends a message carrying a requestId and resolves with the reply (or rejects on `error`). */
  request(msg: RequestMessage, timeoutMs = 10_000): Promise<ServerMessage> {
    const requestId = msg.requestId ?? newRequestId();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new SignalRequestError('timeout', 'No answer from the server'));
      }, timeoutMs);
      this.pending.set(requestId, {
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.send({ ...msg, requestId });
    });
  }

  // ------------------------------------------------------------------ lifecycle

  connect(): void {
    if (this.state !== 'idle') return;
    this.open('connecting');
  }

  /** Leaves for good: tells the server, closes with 1000, stops reconnecting. */
  leave(): void {
    if (this.state === 'closed') return;
    const socket = this.socket;
    // A guest held in the waiting room is a member too: without leave_meeting the host would see
    // them knocking until the grace period ends.
    if (socket?.readyState === OPEN && (this.state === 'joined' || this.state === 'waiting')) {
      // The server closes the socket once it has handled leave_meeting; closing first could
      // let it see a drop (and keep us as a ghost for the grace period) instead of a leave.
      this.socket = null;
      socket.onmessage = socket.onerror = null;
      socket.onclose = null;
      try {
        socket.send(JSON.stringify({ type: 'leave_meeting' } satisfies ClientMessage));
      } catch {
        // the socket is going away anyway
      }
      setTimeout(() => {
        if (socket.readyState === OPEN) socket.close(WS_CLOSE.normal, 'left');
      }, LEAVE_CLOSE_MS);
    }
    this.finish('left', null);
  }

  /** `quiet`: the room stays on screen as joined while the socket is replaced (see onSocketClosed). */
  private open(state: 'connecting' | 'reconnecting', quiet = false): void {
    if (!quiet) this.store.patch({ state });
    let socket: WebSocketLike;
    try {
      socket = this.opts.createSocket(this.opts.url);
    } catch (err) {
      this.opts.log?.('signal: could not create the socket', err);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      socket.send(
        JSON.stringify({ type: 'join_meeting', joinToken: this.opts.joinToken } satisfies ClientMessage),
      );
    };
    socket.onmessage = (ev) => {
      if (this.socket === socket) this.dispatch(ev.data);
    };
    socket.onerror = () => {
      // onclose follows; nothing to do here
    };
    socket.onclose = (ev) => {
      if (this.socket !== socket) return;
      this.onSocketClosed(ev.code, ev.reason);
    };
    // Covers both a socket that never opens and a join that is never answered.
    this.clearJoinTimer();
    this.joinTimer = setTimeout(() => {
      this.opts.log?.('signal: join timed out');
      this.abandonSocket();
      this.scheduleReconnect();
    }, this.opts.joinTimeoutMs);
  }

  private onSocketClosed(code: number, reason: string): void {
    this.socket = null;
    this.stopPing();
    this.clearJoinTimer();
    if (this.state === 'closed') return;
    const terminal = TERMINAL_CODES[code];
    if (terminal) {
      this.finish(terminal, reason || null);
      return;
    }
    if (code === WS_CLOSE.goingAway && this.state === 'joined') {
      this.reconnectQuietly();
      return;
    }
    this.scheduleReconnect();
  }

  /**
   * The server instance is draining (SIGTERM) and told us to reconnect (1001): another instance
   * takes us as the same participant (the join token), so the room is not shown as reconnecting
   * and what is sent meanwhile is queued. Peer connections carry on untouched. If that attempt
   * fails (closed again, or no join in time) the usual visible reconnect with backoff follows.
   */
  private reconnectQuietly(): void {
    if (this.disconnectedSince === null) this.disconnectedSince = Date.now();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(
      () => {
        this.reconnectTimer = null;
        if (this.state === 'joined' && !this.socket) this.open('reconnecting', true);
      },
      Math.round(this.opts.random() * GOING_AWAY_SPREAD_MS),
    );
  }

  private abandonSocket(): void {
    const s = this.socket;
    this.socket = null;
    this.stopPing();
    this.clearJoinTimer();
    if (s) {
      s.onopen = s.onmessage = s.onerror = s.onclose = null;
      try {
        s.close(WS_CLOSE.normal, 'reconnecting');
      } catch {
        // already closed
      }
    }
  }

  private scheduleReconnect(): void {
    if (this.state === 'closed') return;
    const now = Date.now();
    if (this.disconnectedSince === null) this.disconnectedSince = now;
    if (now - this.disconnectedSince > this.opts.giveUpAfterMs) {
      this.finish('gave_up', null);
      return;
    }
    const attempt = this.getSnapshot().attempt + 1;
    const delay = this.backoffDelay(attempt);
    this.store.patch({ state: 'reconnecting', attempt });
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.state === 'reconnecting') this.open('reconnecting');
    }, delay);
  }

  /** Exponential backoff with full jitter in the upper half: base·2^(n-1), capped, ×[0.5, 1). */
  backoffDelay(attempt: number): number {
    const exp = Math.min(this.opts.maxBackoffMs, this.opts.baseBackoffMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(exp * (0.5 + this.opts.random() * 0.5));
  }

  private startPing(): void {
    this.stopPing();
    this.pingTimer = setInterval(() => {
      if (this.socket?.readyState !== OPEN) return;
      if (!this.pongTimer) {
        this.pongTimer = setTimeout(() => {
          this.pongTimer = null;
          this.opts.log?.('signal: no pong, the link is dead');
          this.abandonSocket();
          this.scheduleReconnect();
        }, this.opts.pongTimeoutMs);
      }
      this.socket.send(JSON.stringify({ type: 'ping', requestId: newRequestId() } satisfies ClientMessage));
    }, this.opts.pingIntervalMs);
  }

  private stopPing(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    if (this.pongTimer) clearTimeout(this.pongTimer);
    this.pingTimer = null;
    this.pongTimer = null;
  }

  private clearJoinTimer(): void {
    if (this.joinTimer) clearTimeout(this.joinTimer);
    this.joinTimer = null;
  }

  private flushQueue(): void {
    const q = this.queue;
    this.queue = [];
    for (const m of q) this.send(m);
  }

  private finish(reason: CloseReason, message: string | null): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
    this.abandonSocket();
    this.queue = [];
    for (const [, w] of this.pending) w.reject(new SignalRequestError('closed', 'The connection closed'));
    this.pending.clear();
    this.store.patch({ state: 'closed', closeReason: reason, closeMessage: message });
  }
}

export class SignalRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SignalRequestError';
  }
}

const SERVER_TYPES: ReadonlySet<string> = new Set(SERVER_MESSAGE_TYPES);

/** An object whose `type` is one the server sends (its fields are the server's to get right). */
function isServerMessage(v: unknown): v is ServerMessage {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    SERVER_TYPES.has((v as { type?: unknown }).type as string)
  );
}
