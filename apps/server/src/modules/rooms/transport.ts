import type { ServerMessage } from '@parley/protocol';
import type { Audience } from '../../providers/bus/index.js';
import type { RoomEventWire } from './events.js';

export type { Audience };

/**
 * How the room reaches its participants' sockets; realtime/ implements it (the bus and the
 * sockets of this instance). A socket hears room broadcasts from the `joined` it is sent on;
 * before that (waiting, or not yet joined) only messages addressed to its participant.
 */
export interface RoomTransport {
  /** A message to the room's audience, on every server instance (through the bus). */
  publish(roomId: string, to: Audience, message: ServerMessage): void;
  /**
   * The participant's socket (on this instance) gets `last` if given, then is closed with
   * `code`; it no longer speaks for the participant. Nothing happens when it has no socket.
   */
  close(participantId: string, code: number, reason: string, last?: ServerMessage): void;
  /** A room event (events.ts), to the services of every server instance (through the bus). */
  emit(event: RoomEventWire): void;
}

/** What the room needs of the socket that sends join_meeting. */
export interface ParticipantSocket {
  /** Unique among live sockets: the member records it, so a stale socket's close changes nothing. */
  readonly id: string;
  /** The meetingId of the socket's query. */
  readonly meetingId: string;
  /** The signed-in user of the socket's session (same-origin upgrades only), if any. */
  readonly userId: string | null;
  readonly isOpen: boolean;
  /**
   * The participant is entering the room: the room's broadcasts from now on are kept for this
   * socket and sent right after its `joined` (dropped if it gets `waiting` instead), so that what
   * happens while `joined` is built (someone else entering at the same moment, a chat message
   * after the history was read) is not missed. Called before the room's state is read.
   */
  hearRoom(roomId: string, participantId: string): void;
  /** From now on this socket speaks for the participant; a previous socket of it is replaced. */
  bind(roomId: string, participantId: string): void;
}

/** Who acts: the participant a socket (or a join token) speaks for, in its room. */
export interface Actor {
  roomId: string;
  participantId: string;
}
