import type { JanodeConnection, JanodeSession } from 'janode';
import type { VideoRoomHandle } from 'janode/plugins/videoroom';
import type { Janode } from './janode-loader.js';
import type { SupervisorLog } from './janus-supervisor.js';

/** How long one Janus request may take before we give up on it (janode itself waits forever). */
export const JANUS_REQUEST_TIMEOUT_MS = 8_000;

export class JanusTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`Janus did not answer ${what} within ${ms} ms`);
  }
}

/** `promise`, or a JanusTimeoutError after `ms`: every janode call goes through this. */
export function timed<T>(promise: Promise<T>, what: string, ms = JANUS_REQUEST_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new JanusTimeoutError(what, ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface JanusClientOptions {
  /** janode, already loaded (janode-loader.ts: it is imported only when Janus is used). */
  janode: Janode;
  url: string;
  apiSecret: string;
  log: SupervisorLog;
  /** Called when the connection to Janus is lost (every handle and room on it is gone). */
  onLost(): void;
  /** Called each time a (new) session is ready. */
  onReady(): void;
}

/**
 * One WebSocket connection and one session to Janus, reconnected (every second) after Janus
 * restarts or the connection drops. Handles are attached on the current session.
 */
export class JanusClient {
  private connection: JanodeConnection | null = null;
  private session: JanodeSession | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | null = null;
  private spare: { session: JanodeSession; handle: Promise<VideoRoomHandle> } | null = null;

  private readonly janode: Janode['core'];
  private readonly videoRoom: Janode['videoRoom'];

  constructor(private readonly opts: JanusClientOptions) {
    this.janode = opts.janode.core;
    this.videoRoom = opts.janode.videoRoom;
    this.janode.Logger.setLevel('none');
  }

  get ready(): boolean {
    return this.session !== null;
  }

  /** Connects; resolves true once a session is up, false if it was not within `waitMs`. */
  async start(waitMs = 10_000): Promise<boolean> {
    const deadline = Date.now() + waitMs;
    while (!this.closed && Date.now() < deadline) {
      if (await this.connect()) return true;
      await new Promise((r) => setTimeout(r, 200));
    }
    if (!this.closed) this.scheduleReconnect();
    return false;
  }

  private async connect(): Promise<boolean> {
    try {
      const connection = await timed(
        this.janode.connect({
          address: { url: this.opts.url, apisecret: this.opts.apiSecret },
          retry_time_secs: 1,
          max_retries: 0,
        }),
        'connect',
      );
      if (this.closed) {
        await connection.close().catch(() => undefined);
        return false;
      }
      const session = await timed(connection.create(15), 'create session');
      this.connection = connection;
      this.session = session;
      const lost = () => {
        if (this.connection !== connection) return;
        this.connection = null;
        this.session = null;
        this.opts.log.warn({}, 'lost the connection to janus; reconnecting');
        this.opts.onLost();
        this.scheduleReconnect();
      };
      const { EVENT } = this.janode;
      connection.once(EVENT.CONNECTION_CLOSED ?? 'connection_closed', lost);
      connection.once(EVENT.CONNECTION_ERROR ?? 'connection_error', lost);
      session.once(EVENT.SESSION_DESTROYED ?? 'session_destroyed', lost);
      this.prepareSpare();
      this.opts.onReady();
      return true;
    } catch {
      return false;
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect().then((ok) => {
        if (!ok) this.scheduleReconnect();
      });
    }, 1000);
  }

  /**
   * A new VideoRoom handle on the current session. One handle is kept attached ahead (`spare`),
   * so a participant's publish or subscription starts without waiting a round trip to Janus for
   * its handle; taking it attaches the next spare. A spare of an earlier session is dropped.
   */
  async attach(): Promise<VideoRoomHandle> {
    const session = this.session;
    if (!session) throw new Error('Janus is not connected');
    const spare = this.spare?.session === session ? this.spare.handle : null;
    this.spare = null;
    this.prepareSpare();
    if (spare) {
      const handle = await spare.catch(() => null);
      if (handle && this.session === session) return handle;
    }
    return timed(session.attach(this.videoRoom), 'attach');
  }

  private prepareSpare(): void {
    const session = this.session;
    if (this.closed || !session || this.spare?.session === session) return;
    const handle = timed(session.attach(this.videoRoom), 'attach');
    handle.catch(() => {
      if (this.spare?.handle === handle) this.spare = null;
    });
    this.spare = { session, handle };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.spare = null;
    if (this.retry) clearTimeout(this.retry);
    const c = this.connection;
    this.connection = null;
    this.session = null;
    if (c) await timed(c.close(), 'close', 2000).catch(() => undefined);
  }
}
