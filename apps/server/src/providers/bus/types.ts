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
  message: ServerMessage;
}

/**
 * Fan-out of room messages. Every message that leaves a room is published through the bus, and
 * realtime/sockets.ts delivers what the bus hands it to the sockets this instance holds.
 * In-process by default; Redis pub/sub when REDIS_URL is set, so that messages published by one
 * server instance (or another process, e.g. an AI worker) reach sockets held by every instance.
 * The Redis bus is experimental: the room store (roster, tokens, waiting room) is the memory of
 * the instance that took the joins, so a meeting's rooms must stay on one instance
 * (docs/PROTOCOL.md, "Fan-out across instances").
 */
export interface RoomBus {
  readonly kind: 'in-process' | 'redis';
  publish(envelope: BusEnvelope): void;
  /** The one consumer (this instance's sockets); called for every envelope, this instance's too. */
  subscribe(handler: (envelope: BusEnvelope) => void): void;
  close(): Promise<void>;
}
