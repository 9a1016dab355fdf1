import type { ServerMessage, ServerMessageOf } from '@parley/protocol';
import { HttpError } from '../../http/errors.js';
import type { Audience } from '../../providers/bus/index.js';

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
  /** From now on this socket speaks for the participant; a previous socket of it is replaced. */
  bind(roomId: string, participantId: string): void;
}

/** Who acts: the participant a socket (or a join token) speaks for, in its room. */
export interface Actor {
  roomId: string;
  participantId: string;
}

type WsErrorCode = ServerMessageOf<'error'>['code'];

/**
 * A refusal of a room action, readable by both adapters: REST answers `status` with the message
 * (it is an HttpError), the WebSocket answers `error {code, message}`.
 */
export class RoomError extends HttpError {
  constructor(
    readonly code: WsErrorCode,
    status: number,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(status, message, extra);
  }
}

export const ROOM_MESSAGES = {
  notFound: 'Meeting not found',
  ended: 'This meeting has ended',
  cancelled: 'This meeting has been cancelled',
  full: 'Meeting is full',
  passwordRequired: 'This meeting requires a password',
  wrongPassword: 'Incorrect meeting password',
  tooManyPasswordAttempts: 'Too many password attempts. Please wait a minute and try again.',
  tooManyLookups: 'Too many requests. Please wait a minute and try again.',
  tooManyJoins: 'Too many attempts to join this meeting. Please wait a minute and try again.',
  removedCannotRejoin: 'The host removed you from this meeting. You cannot join it again.',
  notJoined: 'Send join_meeting first',
  stillWaiting: 'Waiting for the host to let you in',
  hostOnly: 'Only the host can do this',
  noParticipant: 'No such participant in this meeting',
  noWaitingParticipant: 'No such participant waiting',
  invalidToken: 'Unknown or expired join token: join the meeting again',
  replacedToken: 'The join token was replaced or expired: join the meeting again',
  hostSessionRequired: 'Sign in as the host to join as host',
  waiting: 'Please wait, the meeting host will let you in soon.',
  denied: 'The meeting host did not let you in.',
  removed: 'You have been removed from the meeting by the host.',
} as const;

export const roomErrors = {
  notJoined: () => new RoomError('not_joined', 403, ROOM_MESSAGES.notJoined),
  stillWaiting: () => new RoomError('not_joined', 403, ROOM_MESSAGES.stillWaiting),
  hostOnly: () => new RoomError('forbidden', 403, ROOM_MESSAGES.hostOnly),
  noParticipant: () => new RoomError('not_found', 404, ROOM_MESSAGES.noParticipant),
  noWaitingParticipant: () => new RoomError('not_found', 404, ROOM_MESSAGES.noWaitingParticipant),
  full: () => new RoomError('forbidden', 409, ROOM_MESSAGES.full),
  removedCannotRejoin: () => new RoomError('forbidden', 403, ROOM_MESSAGES.removedCannotRejoin),
  invalidToken: (message: string = ROOM_MESSAGES.invalidToken) =>
    new RoomError('invalid_token', 401, message),
};
