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
  transcriptionAccuracy: '99.2%',
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
