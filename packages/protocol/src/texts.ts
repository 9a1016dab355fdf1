/**
 * User-facing texts and their formatting that both sides show, kept apart from the schemas (no
 * zod here): the room's page loads them without evaluating any schema module.
 */
import { CUSTOM_BACKGROUND_LIMITS, FREE_TIER } from './constants.js';

/** Texts the room and My Meetings show about recording. */
export const RECORDING_TEXTS = {
  start: 'Record',
  stop: 'Stop recording',
  indicator: 'Recording',
  notAllowed: 'Recording is turned off for this meeting (allow it in the meeting’s settings)',
  noSfu: 'Recording needs the video server (Janus), which is not running on this server',
  testRoom: 'The test room cannot be recorded',
  hostOnly: 'Only the host can start or stop recording',
  /** Recording is a Pro feature (spec §1): the meeting's host needs an active subscription. */
  needsPro: 'Recording is part of Pro: the host needs an active Pro subscription to record',
  processing: 'Processing…',
  failed: 'Recording failed',
  /** Said to everyone when the recording starts. */
  startedNotice: 'This meeting is being recorded',
  stoppedNotice: 'Recording stopped',
} as const;

/** How long, said plainly: "4 hours", "90 minutes", "30 seconds". */
export function spokenDuration(ms: number): string {
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return plural(ms / 3_600_000, 'hour');
  if (ms >= 60_000) return plural(Math.round(ms / 60_000), 'minute');
  return plural(Math.max(1, Math.round(ms / 1000)), 'second');
}

/** The texts of recording limits (issue 34 item 9; the spec has none). */
export const RECORDING_LIMIT_TEXTS = {
  /** Said to everyone a while before the length limit. */
  lengthSoon: (left: number, max: number) =>
    `Recording stops in ${spokenDuration(left)}: recordings are limited to ${spokenDuration(max)}`,
  lengthReached: (max: number) => `Recording stopped: recordings are limited to ${spokenDuration(max)}`,
  storageSoon: 'Recording stops soon: the host’s recording storage is almost full',
  storageReached: 'Recording stopped: the host’s recording storage is full',
  /** A refusal to start (409). */
  storageFull: (quotaMb: number) =>
    `Your recordings use all of the ${quotaMb >= 1024 ? `${Math.round(quotaMb / 1024)} GB` : `${quotaMb} MB`} this server keeps per host. Delete recordings you no longer need in My Meetings.`,
} as const;

/**
 * Texts of the transcription notice, badge and consent (issue 34; the spec gives none: "announced
 * to everyone with a persistent badge; each participant may decline").
 */
export const TRANSCRIPTION_TEXTS = {
  /** The badge in the room's header while transcription is on. */
  badge: 'Transcribing',
  badgeDeclined: 'Transcribing (not you)',
  noticeTitle: 'This meeting is being transcribed',
  noticeBody: (startedBy: string | null) =>
    `${startedBy ?? 'A participant'} turned on live transcription. What participants say is saved ` +
    'as text under their names for 30 days (unless the host keeps it). Your microphone is not ' +
    'transcribed until you choose Continue.',
  continue: 'Continue',
  decline: 'Decline',
  /** Shown once the participant declined, with a way back. */
  declinedTitle: 'You are not being transcribed',
  declinedBody: 'Your audio is not sent for transcription. You still see the captions of others.',
  allow: 'Allow transcription',
  declineLater: 'Stop transcribing me',
  /** The line the transcript keeps when a participant declines, and when it allows again. */
  declinedLine: (name: string) => `${name} declined to be transcribed`,
  allowedLine: (name: string) => `${name} allowed transcription again`,
  /** The host's participants list. */
  declinedTag: 'Not transcribed',
  unansweredTag: 'Not answered',
} as const;

/** The texts of spec §8 (billing and card set-up), word for word. */
export const BILLING_MESSAGES = {
  expiredTitle: 'Free Time Expired',
  /** The spec's text names 30 seconds: the grace of spec §9 (tests may run a shorter one). */
  expiredBody: (graceSeconds: number = FREE_TIER.graceSeconds) =>
    `Add a payment method in ${graceSeconds} seconds or the call will end.`,
  endedTitle: 'Call Ended',
  endedBody: 'Free time expired without payment method.',
  setupFailedProvider: 'Payment Setup Failed',
  setupFailed: 'Setup Failed',
  setupFailedDefault: 'Failed to set up payment method',
  cardElementMissing: 'Card element not found',
  /** To the host whose meeting does not cover its guests (issue 37 item 3). */
  guestEndingTitle: (name: string, minutes: number) =>
    `${name}'s free time ends in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`,
  guestEndedTitle: (name: string) => `${name}'s free time has run out`,
  guestEndedBody: (graceSeconds: number) =>
    `They leave the meeting in ${graceSeconds} seconds unless they add a card.`,
  guestCoverHint:
    "Your meeting does not cover your guests' time: turn on Cover everyone's time in Settings > Account.",
} as const;

/** Dollars for a number of cents, as shown ("$0.30"). */
export const formatCents = (cents: number): string => `$${(cents / 100).toFixed(2)}`;

/** Texts the server answers with and the client shows (spec §5, §8). */
export const BACKGROUND_MESSAGES = {
  idsRequired: 'Meeting ID and participant ID required',
  unknownBackground: 'Unknown background',
  premium: 'This background is part of Pro. Upgrade to use premium backgrounds.',
  customNeedsPro: 'Custom backgrounds are part of Pro.',
  unknownCustom: 'Custom background not found',
  notAnImage: 'The file is not an image. Upload a JPEG, PNG, WebP or GIF picture.',
  tooLarge: `The image is larger than ${CUSTOM_BACKGROUND_LIMITS.maxBytes / (1024 * 1024)} MB`,
  tooMany: `You can keep at most ${CUSTOM_BACKGROUND_LIMITS.perUser} custom backgrounds. Delete one first.`,
  onlyYours: 'You can only change your own background',
  virtualNeedsId: 'Choose a background for a virtual background',
  customNeedsUrl: 'Choose one of your uploads for a custom background',
} as const;
