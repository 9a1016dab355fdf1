import type { ServerMessageOf } from '@parley/protocol';
import { HttpError } from '../../http/errors.js';

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
  fullWithoutSfu: (cap: number) => `Without a video server, meetings here hold up to ${cap} people.`,
  passwordRequired: 'This meeting requires a password',
  wrongPassword: 'Incorrect meeting password',
  tooManyPasswordAttempts: 'Too many password attempts. Please wait a minute and try again.',
  tooManyLookups: (seconds: number) =>
    `Too many meeting ids were tried. Please wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  tooManyJoins: 'Too many attempts to join this meeting. Please wait a minute and try again.',
  tooManyNewFromClient:
    'Too many people joined this meeting from your network in the last minute. Please wait a minute and try again.',
  tooManyNewInMeeting:
    'Too many people are joining this meeting right now. Please wait a minute and try again.',
  waitingRoomFull: 'The waiting room of this meeting is full. Please try again later.',
  knockExpired: 'Nobody let you in within 10 minutes. Ask the host, then join again.',
  removedCannotRejoin: 'The host removed you from this meeting. You cannot join it again.',
  notJoined: 'Send join_meeting first',
  stillWaiting: 'Waiting for the host to let you in',
  hostOnly: 'Only the host can do this',
  noParticipant: 'No such participant in this meeting',
  noWaitingParticipant: 'No such participant waiting',
  noRemovedParticipant: 'No such removed participant',
  invalidToken: 'Unknown or expired join token: join the meeting again',
  replacedToken: 'The join token was replaced or expired: join the meeting again',
  hostSessionRequired: 'Sign in as the host to join as host',
  waiting: 'Please wait, the meeting host will let you in soon.',
  denied: 'The meeting host did not let you in.',
  removed: 'You have been removed from the meeting by the host.',
  proRequired: 'An active Pro subscription is required',
  transcriptionOff: 'Live transcription is not available on this server',
  stopTranscriptionNotAllowed:
    'Only a host or whoever started the transcription can stop it for everyone. You can stop transcribing yourself.',
} as const;

/** A signed-in user tried too many wrong passwords for one meeting; says for how long. */
export const userPasswordLockedMessage = (minutes: number): string =>
  `You tried too many wrong passwords for this meeting. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

/** Wrong passwords locked a meeting's password entry; says for how long. */
export const passwordLockedMessage = (minutes: number): string =>
  `Too many wrong passwords were tried for this meeting. Password entry is locked; please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;

export const roomErrors = {
  notJoined: () => new RoomError('not_joined', 403, ROOM_MESSAGES.notJoined),
  stillWaiting: () => new RoomError('not_joined', 403, ROOM_MESSAGES.stillWaiting),
  hostOnly: () => new RoomError('forbidden', 403, ROOM_MESSAGES.hostOnly),
  proRequired: () => new RoomError('subscription_required', 403, ROOM_MESSAGES.proRequired),
  transcriptionOff: () => new RoomError('forbidden', 503, ROOM_MESSAGES.transcriptionOff),
  stopTranscriptionNotAllowed: () =>
    new RoomError('forbidden', 403, ROOM_MESSAGES.stopTranscriptionNotAllowed),
  noParticipant: () => new RoomError('not_found', 404, ROOM_MESSAGES.noParticipant),
  noWaitingParticipant: () => new RoomError('not_found', 404, ROOM_MESSAGES.noWaitingParticipant),
  noRemovedParticipant: () => new RoomError('not_found', 404, ROOM_MESSAGES.noRemovedParticipant),
  full: () => new RoomError('forbidden', 409, ROOM_MESSAGES.full),
  fullWithoutSfu: (cap: number) => new RoomError('forbidden', 409, ROOM_MESSAGES.fullWithoutSfu(cap)),
  waitingRoomFull: () => new RoomError('forbidden', 429, ROOM_MESSAGES.waitingRoomFull),
  removedCannotRejoin: () => new RoomError('forbidden', 403, ROOM_MESSAGES.removedCannotRejoin),
  invalidToken: (message: string = ROOM_MESSAGES.invalidToken) =>
    new RoomError('invalid_token', 401, message),
};
