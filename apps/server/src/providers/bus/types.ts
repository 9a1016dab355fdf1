import type { ServerMessage } from '@parley/protocol';

/** Who in a room receives a message. */
export type Audience =
  | { kind: 'all'; except?: string }
  | { kind: 'hosts' }
  | { kind: 'one'; participantId: string; echoRequestId?: string };

/** One room message on its way to the sockets of that room, wherever they are connected. */
export interface BusEnvelope {
  roomId: string;
  to: Audience;
  /** Absent only on an envelope that just closes a socket. */
  message?: ServerMessage;
  /**
   * With `to.kind === 'one'`: after `message`, the participant's socket on whichever instance
   * holds it (only the socket `socketId` names, when given) is closed with `code` and no longer
   * speaks for the participant.
   */
  close?: { code: number; reason: string; socketId?: string };
  /**
   * A signed-in session (its id hash) ended on the instance that publishes this: every instance
   * closes its sockets of that session (4010) and their participants leave. No room (`roomId ''`).
   */
  sessionEnded?: string;
  /**
   * For the services, never to sockets: a room event (modules/rooms/events.ts, which this
   * layer does not know), with `to: all`. Each kind of event is an envelope of this kind.
   */
  event?: { kind: string; roomId: string };
  /** The instance that published it (realtime/sockets.ts stamps it). */
  origin?: string;
  /**
   * Between instances only, never to sockets: a meeting's collaboration document
   * (modules/collaboration). `request`: an instance that just opened the document asks the
   * others for theirs; `state`: one answers with its whole document (a Yjs update, base64).
   */
  collaboration?: { request: true } | { state: string };
}

/**
 * Fan-out of room messages. Every message that leaves a room is published through the bus, and
 * realtime/sockets.ts delivers what the bus hands it to the sockets this instance holds.
 * In-process by default; Redis pub/sub when REDIS_URL is set, so that messages published by one
 * server instance (or another process, e.g. an AI worker) reach sockets held by every instance.
 * With Redis, the room state lives in Redis too (modules/rooms/redis-store.ts over SharedState),
 * so one meeting can have participants on several instances (docs/protocol.md, "Fan-out across
 * instances").
 */
export interface RoomBus {
  readonly kind: 'in-process' | 'redis';
  publish(envelope: BusEnvelope): void;
  /** The one consumer (this instance's sockets); called for every envelope, this instance's too. */
  subscribe(handler: (envelope: BusEnvelope) => void): void;
  close(): Promise<void>;
}

/** One write of a SharedState commit. */
export type SharedWrite =
  | { op: 'set'; key: string; value: string; ttlMs: number }
  | { op: 'del'; key: string }
  | { op: 'sadd' | 'srem'; key: string; member: string };

/**
 * State the server instances share (Redis): keys with expiry, sets, and per-key locks whose
 * writes land only while the lock is held. The room slice keeps its room store and presence on
 * it (modules/rooms/redis-store.ts, cluster.ts); Redis itself stays in this folder.
 */
export interface SharedState {
  get(key: string): Promise<string | null>;
  getMany(keys: string[]): Promise<Array<string | null>>;
  members(key: string): Promise<string[]>;
  setTtl(key: string, value: string, ttlMs: number): Promise<void>;
  /** SET NX: answers whether it was set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  expire(key: string, ttlMs: number): Promise<void>;
  addMember(key: string, member: string): Promise<void>;
  removeMember(key: string, member: string): Promise<void>;
  del(key: string): Promise<void>;
  /** Takes the lock `key` (waiting while another holds it); answers the holder's token. */
  lock(key: string): Promise<string>;
  /** Applies `writes` if the lock is still held with `token` (answers whether), then releases it if asked. */
  commit(key: string, token: string, writes: SharedWrite[], release: boolean): Promise<boolean>;
  unlock(key: string, token: string): Promise<void>;
  /** Called each time the connection is back after it was lost (not on the first connect). */
  onReconnect(listener: () => void): void;
  close(): Promise<void>;
}
