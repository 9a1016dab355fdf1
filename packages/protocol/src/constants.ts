/**
 * Business constants and limits (product spec §9). This module is the only place these values are
 * written; the server and the web app both import them from here.
 */

export const PRO_PLAN = {
  name: 'Pro Plan',
  priceUsd: 9.99,
  priceLabel: '9.99',
  currency: 'usd',
  interval: 'month',
  strikePriceLabel: '29.99',
  discountLabel: '67% off',
  moneyBackGuaranteeDays: 30,
  marketingMaxParticipants: 100,
} as const;

export const FREE_TIER = {
  freeMinutesPerMeeting: 45,
  overageCentsPerMinute: 10,
  paymentPromptAtMinutes: 40,
  warningAtMinutesLeft: 5,
  upgradeHintAtMinutesLeft: 10,
  graceSeconds: 30,
  billingTickMs: 60_000,
} as const;

export const MAX_PARTICIPANTS = { default: 100, min: 2, max: 500 } as const;

export const DURATION_OPTIONS_MINUTES = [15, 30, 45, 60, 90, 120] as const;
export const DEFAULT_DURATION_MINUTES = 60;

export const TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Asia/Tokyo',
] as const;
export type Timezone = (typeof TIMEZONES)[number];
export const DEFAULT_TIMEZONE: Timezone = 'UTC';

export const RECURRENCE_PATTERNS = ['daily', 'weekly', 'monthly'] as const;
export type RecurrencePattern = (typeof RECURRENCE_PATTERNS)[number];
export const DEFAULT_RECURRENCE: RecurrencePattern = 'weekly';

export const SCHEDULE_DEFAULTS = {
  allowRecording: true,
  waitingRoom: false,
  requiresPassword: false,
} as const;

export const NAME_LIMITS = { landingMax: 50, roomMin: 2, roomMax: 50 } as const;
export const PROFILE_NAME_MAX = 100;

export const MEETING_ID_PLACEHOLDER = '000-000-000';
export const MEETING_ID_PATTERN = /^\d{3}-\d{3}-\d{3}$/;

export const REDIRECT_DELAYS_MS = { login: 1000, subscribe: 1500 } as const;
export const AUTH_REFETCH_DELAY_MS = 100;
export const AUTH_QUERY_STALE_TIME_MS = 0;

export const QUERY_DEFAULTS = {
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
} as const;

export const BLUR_INTENSITY = { default: 5, min: 1, max: 10, step: 1 } as const;
export const DEMO_CAMERA = { width: 640, height: 480 } as const;

export const RECORDING_CHUNK_MS = 3000;
export const LIVE_TRANSCRIPTION_CHUNK_MS = 2000;
export const LIVE_TRANSCRIPTION_RESTART_MS = 100;
export const TRANSCRIPTS_KEPT = 20;
export const EXISTING_CONNECTIONS_DELAY_MS = 1000;
export const TIMER_TICK_MS = 1000;
export const SUMMARY_VIEW = { keyPoints: 3, actionItems: 2 } as const;
export const DATA_ISOLATION_CHECK_MS = 30_000;
export const VIDEO_BITRATE_CAP = 500_000;
export const ICE_CANDIDATE_POOL_SIZE = 10;
export const COPIED_NOTICE_MS = 2000;
export const JOINED_TOAST_MS = 3000;

export const BACKGROUND_CATEGORIES = ['all', 'office', 'nature', 'abstract'] as const;

export const SETTINGS_LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'es', label: 'Spanish' },
  { code: 'fr', label: 'French' },
  { code: 'de', label: 'German' },
  { code: 'zh', label: 'Chinese' },
  { code: 'ja', label: 'Japanese' },
] as const;
export const DEFAULT_SETTINGS_LANGUAGE = 'en';

export const TRANSLATION_LANGUAGES = [
  'en',
  'es',
  'fr',
  'de',
  'it',
  'pt',
  'ru',
  'ja',
  'ko',
  'zh',
  'ar',
  'hi',
] as const;

/** The twelve room languages by name (the picker; models follow "into Japanese" better than "ja"). */
export const TRANSLATION_LANGUAGE_NAMES: Readonly<Record<(typeof TRANSLATION_LANGUAGES)[number], string>> = {
  en: 'English',
  es: 'Spanish',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  pt: 'Portuguese',
  ru: 'Russian',
  ja: 'Japanese',
  ko: 'Korean',
  zh: 'Chinese',
  ar: 'Arabic',
  hi: 'Hindi',
};

export const RETENTION_DAYS = 30;

export const TOAST_DEFAULTS = { durationMs: 5000, limit: 1 } as const;

/** Local-storage keys cleared when no user is present after loading (spec §3). */
export const USER_STORAGE_KEYS = [
  'user-preferences',
  'meeting-data',
  'form-data',
  'participant-data',
  'background-settings',
  'video-settings',
  'audio-settings',
  'chat-history',
  'translation-preferences',
  'ai-settings',
] as const;

/** Marketing figures on the landing page (spec §1): static copy. */
export const MARKETING_FIGURES = {
  users: '50,000+',
  uptime: '99.9%',
  rating: '4.9/5',
  ratingCount: '2,847',
  hoursSavedPerWeek: '3+',
  usersSaving4Hours: '73%',
  // The spec's '99.2% transcription accuracy' is not here: the landing page shows the figure
  // measured for the running engine (GET /api/ai/capabilities wordAccuracy), or none.
  efficiencyBoost: '40%',
} as const;

/** Summary download file name (spec §9). */
export function summaryFileName(meetingId: string, date: Date): string {
  return `meeting-summary-${meetingId}-${date.toISOString().slice(0, 10)}.txt`;
}

/** Request body limit for JSON APIs (bytes). */
export const JSON_BODY_LIMIT_BYTES = 1_048_576;

/**
 * Which advertised features work today, end to end in a browser on the embedded defaults. Pages and
 * e-mails that name a feature read its flag and say "Coming soon" while it is false: until a
 * feature works, nothing may say it does. The issue that builds a feature flips its flag (here
 * only) once the feature works end to end, and the badges and the Pro wording follow.
 */
export type Feature =
  | 'transcription'
  | 'translation'
  /** AI meeting summaries with action items and decisions. */
  | 'summaries'
  | 'pdfExport'
  /** Talk time, attendance and the meeting report (with its PDF). */
  | 'analytics'
  /** Blur, virtual and custom backgrounds. */
  | 'backgroundEffects'
  /** The whiteboard and shared notes. */
  | 'whiteboard'
  | 'recording'
  /**
   * Meetings beyond the peer-to-peer mesh (the Janus SFU): what carries the Pro plan's "up to
   * PRO_PLAN.marketingMaxParticipants participants". The server admits up to a meeting's
   * maxParticipants, but every browser sends to every other, which suits small groups only.
   */
  | 'largeMeetings';

export const FEATURE_AVAILABILITY: Readonly<Record<Feature, boolean>> = {
  transcription: true,
  translation: true,
  summaries: true,
  pdfExport: true,
  analytics: true,
  backgroundEffects: true,
  whiteboard: true,
  recording: true,
  largeMeetings: false,
};

/** The Pro plan's AI features (the ones the plan is sold on). */
export const AI_FEATURES: readonly Feature[] = ['transcription', 'translation', 'summaries'];

/**
 * What a participant receives from the SFU (issue 17, "Scale"). The room shows the active speaker
 * large and everyone else as thumbnails, a page at a time: each browser asks the server for the
 * video of the tiles it shows (`sfu_view`), at the simulcast layer that fits each tile, and
 * receives no video for participants on other pages. Audio comes from everyone, except in rooms
 * with more publishers than `audioLastN`: there each participant receives the audio of the
 * `audioLastN` who spoke last (last-N, as Jitsi does), and a new speaker is added when the SFU
 * hears them start talking.
 */
export const SFU_VIEW = {
  /** Remote thumbnails on one page of the room's tile strip (the active speaker is on the stage). */
  thumbnailsPerPage: 6,
  /** The most remote videos one `sfu_view` may ask for: the stage and one page of thumbnails. */
  maxVideos: 7,
  /** In rooms with more publishers than this, only the last N speakers' audio is received. */
  audioLastN: 8,
  /**
   * A shown video that decodes no frame for this long asks for a key frame (`sfu_keyframe`):
   * the SFU forwards a new stream only from a key frame, and the sender drops a key frame
   * request that comes within 300 ms of another (Chromium), so one can be lost when several
   * pages subscribe to the same speaker at once.
   */
  stallMs: 3000,
  /** The server forwards at most one key frame request a participant pair this often. */
  keyframeEveryMs: 2000,
} as const;

export const WS_LIMITS = {
  /** Largest text frame the server accepts (bytes); larger frames close the socket with 1009. */
  maxMessageBytes: 64 * 1024,
  /** The first message must arrive within this time or the socket is closed with 4008. */
  joinTimeoutMs: 10_000,
  /** A participant whose socket dropped is kept (and can resume) for this long. */
  resumeGraceMs: 45_000,
  /**
   * A participant whose page closed its socket (tab closed, navigated away, reloaded: close code
   * 1000 or 1001) is kept only this long, enough for a reload to come back as itself; then it has
   * left. Only a dropped connection gets the resume grace.
   */
  closedGraceMs: 5_000,
  /** Chat text limit (characters). */
  maxChatLength: 4000,
  /** Duplicate chat messages from one sender within this window are kept once. */
  chatDuplicateWindowMs: 1000,
  /** Messages a socket may send per second before being refused (burst allowance). */
  messagesPerSecond: 50,
  /**
   * Added: the server's send buffer of one socket (bytes written but not yet taken by the client).
   * Over the soft cap, droppable messages (`collaboration_update`) are not sent to that socket.
   */
  sendBufferSoftBytes: 1024 * 1024,
  /** Added: over this the socket is closed at once with 4013 (slowConsumer). */
  sendBufferHardBytes: 4 * 1024 * 1024,
  /** Added: a socket that stays over the soft cap this long is closed with 4013. */
  slowConsumerGraceMs: 10_000,
} as const;

/** Close codes the server uses (4000–4999 are application codes). */
export const WS_CLOSE = {
  normal: 1000,
  goingAway: 1001,
  tooBig: 1009,
  badRequest: 4000,
  unauthorized: 4001,
  forbidden: 4003,
  meetingNotFound: 4004,
  meetingEnded: 4005,
  removedByHost: 4006,
  joinTimeout: 4008,
  replaced: 4009,
  sessionEnded: 4010,
  deniedEntry: 4011,
  rateLimited: 4029,
  /** Added: the client did not read what the server sent (send buffer over its caps); resume. */
  slowConsumer: 4013,
  /** Added: the free time and its grace ran out and no card was saved (spec §4); not resumable. */
  freeTimeExpired: 4020,
} as const;

/** The development test room of /webrtc-test: ephemeral, signaling only, not in production. */
export const TEST_ROOM_ID = 'test-room';

/** Shared files in the room (POST /api/meetings/{id}/files, multipart field `file`). */
export const ROOM_FILE_LIMITS = {
  /** Largest file accepted; larger uploads are refused with 413. */
  maxBytes: 25 * 1024 * 1024,
} as const;

/** Audio the room streams over the meeting socket: 16 kHz mono s16le PCM in binary frames. */
export const AUDIO_STREAM = {
  sampleRate: 16_000,
  /** A binary frame carries at most this many bytes (0.5 s of audio). */
  maxFrameBytes: 16_000,
  /** Bytes a socket may stream per second before frames are dropped (2× real time). */
  maxBytesPerSecond: 64_000,
} as const;

export const COLLABORATION_BOUNDS = {
  /** Largest Yjs update (decoded bytes) in one message: a 64 KiB frame holds it as base64. */
  maxUpdateBytes: 44 * 1024,
  /** Largest awareness update (cursor, name, selection). */
  maxAwarenessBytes: 8 * 1024,
  /** Largest state vector a client may send. */
  maxStateVectorBytes: 16 * 1024,
  /** The meeting's document, as persisted (a compacted Y.encodeStateAsUpdate snapshot). */
  maxDocumentBytes: 2 * 1024 * 1024,
  /** Per participant: document and awareness messages a second, with a burst. */
  messagesPerSecond: 30,
  messageBurst: 60,
  /** Per participant: update bytes a second, with a burst. */
  bytesPerSecond: 256 * 1024,
  byteBurst: 1024 * 1024,
  /** Size of each part of a `collaboration_sync` answer (decoded bytes). */
  syncPartBytes: 192 * 1024,
} as const;

/** Custom background uploads (spec §5). */
export const CUSTOM_BACKGROUND_LIMITS = {
  /** The upload as it arrives (spec: ≤ 5 MB). */
  maxBytes: 5 * 1024 * 1024,
  /** How many uploads one user keeps. */
  perUser: 6,
  /** The stored image fits in this box (re-encoded as JPEG, never served as uploaded). */
  maxWidth: 1920,
  maxHeight: 1080,
  /** Accepted input types, detected from the bytes. */
  types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as readonly string[],
} as const;

/**
 * Every message type the server sends on the meeting socket (ws.ts checks, at compile time, that
 * this is exactly its schema's union). The web app routes by it without evaluating the schemas:
 * building zod's schemas costs the joining page 150-250 ms of main thread on a busy 2-core machine.
 */
export const SERVER_MESSAGE_TYPES = [
  'joined',
  'waiting',
  'admitted',
  'denied',
  'waiting_room',
  'removed_list',
  'existing_connections',
  'participant_joined',
  'participant_updated',
  'participant_left',
  'offer',
  'answer',
  'ice-candidate',
  'chat_message',
  'mute_all',
  'mute_participant',
  'removed',
  'collaboration_update',
  'new_transcript',
  'transcript_partial',
  'caption_status',
  'transcription_state',
  'free_time',
  'free_time_ended',
  'guest_free_time',
  'collaboration_sync',
  'file_shared',
  'media_mode',
  'sfu_answer',
  'sfu_offer',
  'active_speaker',
  'recording_state',
  'pong',
  'ack',
  'error',
] as const;
