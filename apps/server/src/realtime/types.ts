import type { ServerMessage, ServerMessageType } from '@parley/protocol';
import type { ParticipantSocket } from '../modules/rooms/transport.js';

/** The server's record of one WebSocket: the sender of everything that arrives on it. */
export interface Conn extends ParticipantSocket {
  /** The signed-in session sent with the upgrade (same-origin only), if any. */
  readonly idHash: string | null;
  /** Set by bind (join_meeting): the room and participant this socket speaks for. */
  roomId: string | null;
  participantId: string | null;
  /** True from the `joined` this socket was sent: it hears the room's broadcasts. */
  inRoom: boolean;
  /** The `joined` said the participant is a host: it hears the hosts' messages (waiting room). */
  isHost: boolean;
  /** While it enters a room (hearRoom): the room's broadcasts kept for after its `joined`. */
  held: {
    roomId: string;
    participantId: string;
    messages: Array<{ text: string; type: ServerMessageType }>;
  } | null;
  send(message: ServerMessage): void;
  /**
   * Sends a message already serialized (a broadcast is serialized once); `type` decides whether
   * it may be dropped when the socket's send buffer is over its soft cap.
   */
  sendText(text: string, type: ServerMessageType): void;
  close(code: number, reason: string): void;
}
