import { randomUUID } from 'node:crypto';
import {
  AUDIO_STREAM,
  clientMessageSchema,
  WS_CLOSE,
  wsQuerySchema,
  type ServerMessage,
} from '@parley/protocol';
import type { WebSocket } from 'ws';
import { TEST_ROOM_ID, TEST_ROOM_UNAVAILABLE } from '../modules/rooms/test-room.js';
import { RoomError } from '../modules/rooms/errors.js';
import type { BaseContext, ErrorCode, HandlerDef, RealtimeServices } from './context.js';
import { handlers, TEST_ROOM_MESSAGES } from './handlers/index.js';
import { DROPPABLE, type SendBufferSettings } from './send-buffer.js';
import type { Conn } from './types.js';

export interface ConnectionSettings extends SendBufferSettings {
  joinTimeoutMs: number;
  messagesPerSecond: number;
  /**
   * This server instance's id (INSTANCE_ID): the prefix of its socket ids, so that the presence
   * sweeper of another instance can tell whose sockets died with a crashed one.
   */
  instanceId?: string;
  /** Counts each message handled (in) or sent to a socket (out), for /metrics. */
  countMessage?: (direction: 'in' | 'out', type: string) => void;
}

let nextConnId = 1;
/** Socket ids are unique across server instances too (the room state records them). */
const processId = randomUUID().slice(0, 8);

/** Cheap check for a leave_meeting frame (the full parse happens in handleFrame). */
function isLeave(text: string): boolean {
  return text.length < 200 && /"type"\s*:\s*"leave_meeting"/.test(text);
}

/** Reads the `requestId` of a frame that failed validation, so the error can echo it. */
function requestIdOf(value: unknown): string | undefined {
  if (value && typeof value === 'object' && 'requestId' in value) {
    const id = (value as { requestId: unknown }).requestId;
    if (typeof id === 'string' && id.length <= 64) return id;
  }
  return undefined;
}

/**
 * One WebSocket: the query is checked, then every frame is parsed once with clientMessageSchema
 * and dispatched to the handler of its type. Frames are handled one after another (a handler that
 * awaits the database finishes before the next frame starts). Bad frames get `error bad_message`;
 * too many frames get `error rate_limited`, then close 4029; oversize frames close with 1009 (the
 * `ws` maxPayload). What is sent is bounded by the socket's send buffer (see send-buffer.ts): over
 * the soft cap droppable messages are dropped, and a socket that stays over it (or goes over the
 * hard cap) is closed with 4013.
 */
export function handleConnection(
  socket: WebSocket,
  raw: { query: unknown; idHash: string | null; userId: string | null },
  services: RealtimeServices,
  settings: ConnectionSettings,
): void {
  const query = wsQuerySchema.safeParse(raw.query);
  if (!query.success) {
    socket.close(WS_CLOSE.badRequest, 'meetingId is required (name 2-50 characters)');
    return;
  }

  const { sockets, rooms, log } = services;
  const conn: Conn = {
    id: `${settings.instanceId ?? processId}:${nextConnId++}`,
    meetingId: query.data.meetingId,
    idHash: raw.idHash,
    userId: raw.userId,
    roomId: null,
    participantId: null,
    inRoom: false,
    isHost: false,
    held: null,
    hearRoom: (roomId: string, participantId: string) => sockets.hold(conn, roomId, participantId),
    bind: (roomId: string, participantId: string) => sockets.bind(conn, roomId, participantId),
    send: (message: ServerMessage) => conn.sendText(JSON.stringify(message), message.type),
    sendText: (text, type) => {
      if (socket.readyState !== socket.OPEN) return;
      // The backlog the client has not taken decides, not the message: one large message (a
      // `joined` with a long chat history) to a socket that keeps up is never a reason to close.
      const backlog = socket.bufferedAmount;
      if (backlog > settings.sendBufferHardBytes) return closeSlow('hard');
      if (backlog > settings.sendBufferSoftBytes) {
        overSoftCap();
        if (DROPPABLE.has(type)) {
          dropped += 1;
          return;
        }
      }
      socket.send(text);
      settings.countMessage?.('out', type);
      if (socket.bufferedAmount > settings.sendBufferSoftBytes) overSoftCap();
    },
    close: (code: number, reason: string) => {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(code, reason);
    },
    get isOpen() {
      return socket.readyState === socket.OPEN;
    },
  };
  sockets.track(conn);

  // Send buffer: since when it is over the soft cap (null: under it), and what was dropped.
  let overSince: number | null = null;
  let overTimer: ReturnType<typeof setInterval> | null = null;
  let dropped = 0;
  const underSoftCap = () => {
    if (overTimer) clearInterval(overTimer);
    overTimer = null;
    overSince = null;
  };
  const closeSlow = (cap: 'hard' | 'soft') => {
    log.info(
      {
        socket: conn.id,
        participantId: conn.participantId,
        bufferedBytes: socket.bufferedAmount,
        cap,
        dropped,
      },
      'closing a socket that does not read what it is sent (4013)',
    );
    underSoftCap();
    conn.close(WS_CLOSE.slowConsumer, 'Too much unread data: reconnect');
    // The close frame is queued behind the unread data: a client that never reads it is cut off.
    setTimeout(() => {
      if (socket.readyState !== socket.CLOSED) socket.terminate();
    }, settings.slowConsumerCloseWaitMs).unref();
  };
  const overSoftCap = () => {
    if (overSince !== null) return;
    overSince = Date.now();
    log.debug({ socket: conn.id, bufferedBytes: socket.bufferedAmount }, 'send buffer over its soft cap');
    const every = Math.max(50, Math.min(1000, settings.slowConsumerGraceMs / 4));
    overTimer = setInterval(() => {
      if (socket.readyState !== socket.OPEN || socket.bufferedAmount <= settings.sendBufferSoftBytes) {
        underSoftCap();
      } else if (Date.now() - (overSince ?? Date.now()) >= settings.slowConsumerGraceMs) {
        closeSlow('soft');
      }
    }, every);
    overTimer.unref();
  };

  const fail = (code: ErrorCode, message: string, requestId?: string) =>
    conn.send({ type: 'error', code, message, requestId });
  const ctx: BaseContext = { conn, services, reply: conn.send, fail };

  const joinTimer = setTimeout(() => {
    if (!conn.participantId) conn.close(WS_CLOSE.joinTimeout, 'join_meeting was not received in time');
  }, settings.joinTimeoutMs);

  // Token bucket: `messagesPerSecond` per second with the same burst allowance.
  let tokens = settings.messagesPerSecond;
  let refilledAt = Date.now();
  let strikes = 0;
  const allow = (): boolean => {
    const t = Date.now();
    tokens = Math.min(
      settings.messagesPerSecond,
      tokens + ((t - refilledAt) / 1000) * settings.messagesPerSecond,
    );
    refilledAt = t;
    if (tokens >= 1) {
      tokens -= 1;
      strikes = 0;
      return true;
    }
    strikes += 1;
    if (strikes === 1) fail('rate_limited', 'Too many messages: slow down');
    if (strikes >= settings.messagesPerSecond) conn.close(WS_CLOSE.rateLimited, 'Too many messages');
    return false;
  };

  let queue: Promise<void> = Promise.resolve();
  const handleFrame = async (text: string): Promise<void> => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return fail('bad_message', 'Frames must be JSON');
    }
    const parsed = clientMessageSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      // zod lists every message type when `type` is unknown: past 25 types that is longer than
      // an error should be, so the list gives way to where the types are written down.
      const what =
        issue?.path.length === 1 && issue.path[0] === 'type' && issue.code === 'invalid_union'
          ? 'not a message type of this protocol (docs/protocol.md)'
          : (issue?.message ?? 'unknown');
      return fail('bad_message', `Invalid message: ${where}${what}`, requestIdOf(value));
    }
    const message = parsed.data;
    settings.countMessage?.('in', message.type);
    if (conn.roomId === TEST_ROOM_ID && !TEST_ROOM_MESSAGES.has(message.type)) {
      return fail('forbidden', TEST_ROOM_UNAVAILABLE, requestIdOf(message));
    }
    const handler = handlers[message.type] as HandlerDef<typeof message.type>;
    try {
      await handler.run(ctx, message as never);
    } catch (err) {
      // A refusal of the room (who may do what, to whom): nothing was done.
      if (err instanceof RoomError) return fail(err.code, err.message, requestIdOf(message));
      throw err;
    }
  };

  // Audio: binary frames of 16 kHz PCM while transcription is on, budgeted in bytes per second
  // (not counted as messages), handled in order on their own queue so JSON frames never wait
  // behind speech and speech never waits behind a database write.
  let audioBytes: number = AUDIO_STREAM.maxBytesPerSecond;
  let audioRefilledAt = Date.now();
  let audioRefused = false;
  let audioQueue: Promise<void> = Promise.resolve();
  const takeAudio = (bytes: number): boolean => {
    const t = Date.now();
    audioBytes = Math.min(
      AUDIO_STREAM.maxBytesPerSecond,
      audioBytes + ((t - audioRefilledAt) / 1000) * AUDIO_STREAM.maxBytesPerSecond,
    );
    audioRefilledAt = t;
    const ok = bytes <= AUDIO_STREAM.maxFrameBytes && bytes <= audioBytes;
    if (ok) audioBytes -= bytes;
    else if (!audioRefused) {
      audioRefused = true; // said once per socket: a client that streams too fast is told, not closed
      fail(
        bytes > AUDIO_STREAM.maxFrameBytes ? 'too_large' : 'rate_limited',
        `Audio frames must be at most ${AUDIO_STREAM.maxFrameBytes} bytes and ${AUDIO_STREAM.maxBytesPerSecond} bytes a second`,
      );
    }
    return ok;
  };
  const onAudio = (data: Buffer) => {
    const { roomId, participantId } = conn;
    if (!roomId || !participantId || !conn.inRoom) {
      // Counted as a message: a socket that is not in a room cannot flood with binary frames.
      if (allow()) fail('not_joined', 'Join the meeting before sending audio');
      return;
    }
    if (!takeAudio(data.length)) return;
    audioQueue = audioQueue
      .then(() => services.captions.audio({ roomId, participantId }, data))
      .catch((err: unknown) => log.error({ err }, 'audio frame failed'));
  };

  socket.on('message', (data, isBinary) => {
    if (isBinary) {
      return onAudio(
        Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data),
      );
    }
    if (!allow()) return;
    const text = Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.from(data).toString('utf8');
    queue = queue
      // After the socket closed, only a queued leave_meeting still runs: a client that sends it
      // and closes at once must leave now, not linger for the resume grace period.
      .then(() => (conn.isOpen || isLeave(text) ? handleFrame(text) : undefined))
      .catch((err: unknown) => {
        log.error({ err }, 'realtime handler failed');
        fail('internal', 'Something went wrong handling that message');
      });
  });

  socket.on('close', (code: number) => {
    clearTimeout(joinTimer);
    underSoftCap();
    // Frames already received are handled first (a queued leave_meeting removes the participant
    // for good); only then does the participant enter the resume grace period.
    void queue
      .then(async () => {
        sockets.untrack(conn);
        const actor = sockets.unbind(conn);
        // 1000/1001: the page closed it (tab closed, navigated away, reloaded); anything else
        // (1006 above all) is a connection that dropped and may come back.
        if (actor) await rooms.disconnected(actor, conn.id, code === 1000 || code === 1001);
      })
      .catch((err: unknown) => log.error({ err }, 'realtime disconnect failed'));
  });
}
