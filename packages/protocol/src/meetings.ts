import { z } from 'zod';
import {
  DEFAULT_DURATION_MINUTES,
  DEFAULT_TIMEZONE,
  MAX_PARTICIPANTS,
  SCHEDULE_DEFAULTS,
  type RecurrencePattern,
} from './constants.js';
import {
  durationSchema,
  inviteeSchema,
  maxParticipantsSchema,
  meetingIdSchema,
  meetingSchema,
  recurrencePatternSchema,
  timezoneSchema,
} from './entities.js';
import { safe } from './safe-text.js';

/**
 * Request bodies of the meetings API (spec §7) and the time arithmetic both sides share: the
 * schedule form's wall-clock time in the meeting's timezone, and a recurring meeting's next
 * occurrence.
 */

export const MEETING_TITLE_MAX = 200;
export const MEETING_DESCRIPTION_MAX = 2000;
export const MEETING_PASSWORD_MAX = 128;
export const INVITEE_NAME_MAX = 100;

/** Spec §5 texts the server answers with too, so both sides say the same thing. */
export const MEETING_MESSAGES = {
  titleRequired: 'Please enter a meeting title',
  hostEmailRequired: 'Please enter your email address',
  dateRequired: 'Please select when to schedule the meeting',
  futureDate: 'Please select a future date and time',
  passwordRequired: 'Please enter a password for the meeting',
  recurrenceRequired: 'Please choose how often the meeting repeats',
  invalidEmail: 'Please enter a valid email address',
} as const;

export const meetingIdParamsSchema = z.object({ meetingId: meetingIdSchema });

const trimmedEmail = z.string().trim().toLowerCase().pipe(z.email(MEETING_MESSAGES.invalidEmail));

export const inviteeInputSchema = z.object({
  email: trimmedEmail,
  name: safe(z.string().trim().max(INVITEE_NAME_MAX)).default(''),
});
export type InviteeInput = z.infer<typeof inviteeInputSchema>;

/** Instant meeting from the landing page. Any id the client proposes is ignored. */
export const instantMeetingBodySchema = z.object({
  meetingType: z.literal('instant'),
  title: safe(z.string().trim().min(1).max(MEETING_TITLE_MAX)).optional(),
  meetingId: z.unknown().optional(),
  isActive: z.unknown().optional(),
  status: z.unknown().optional(),
});
export type InstantMeetingBody = z.infer<typeof instantMeetingBodySchema>;

const scheduledFields = {
  meetingType: z.literal('scheduled'),
  /** The spec's client generates one; the server always generates its own and ignores this. */
  meetingId: z.unknown().optional(),
  title: safe(z.string().trim().min(1, MEETING_MESSAGES.titleRequired).max(MEETING_TITLE_MAX)),
  description: safe(z.string().trim().max(MEETING_DESCRIPTION_MAX), { multiline: true })
    .nullish()
    .transform((v) => (v ? v : null)),
  hostEmail: z.string().trim().min(1, MEETING_MESSAGES.hostEmailRequired).pipe(trimmedEmail),
  scheduledFor: z.iso.datetime({ offset: true, message: MEETING_MESSAGES.dateRequired }),
  duration: durationSchema.default(DEFAULT_DURATION_MINUTES),
  timezone: timezoneSchema.default(DEFAULT_TIMEZONE),
  isRecurring: z.boolean().default(false),
  recurrencePattern: recurrencePatternSchema.nullish(),
  maxParticipants: maxParticipantsSchema.default(MAX_PARTICIPANTS.default),
  requiresPassword: z.boolean().default(SCHEDULE_DEFAULTS.requiresPassword),
  password: z.string().min(1, MEETING_MESSAGES.passwordRequired).max(MEETING_PASSWORD_MAX).nullish(),
  waitingRoom: z.boolean().default(SCHEDULE_DEFAULTS.waitingRoom),
  allowRecording: z.boolean().default(SCHEDULE_DEFAULTS.allowRecording),
  isActive: z.unknown().optional(),
  status: z.unknown().optional(),
};

function refineRecurrence(
  v: { isRecurring: boolean; recurrencePattern?: RecurrencePattern | null },
  ctx: z.RefinementCtx,
) {
  if (v.isRecurring && !v.recurrencePattern) {
    ctx.addIssue({
      code: 'custom',
      path: ['recurrencePattern'],
      message: MEETING_MESSAGES.recurrenceRequired,
    });
  }
}

export const scheduledMeetingBodySchema = z.object(scheduledFields).superRefine(refineRecurrence);
export type ScheduledMeetingBody = z.infer<typeof scheduledMeetingBodySchema>;

export const createMeetingBodySchema = z.discriminatedUnion('meetingType', [
  instantMeetingBodySchema,
  z.object(scheduledFields),
]);
export type CreateMeetingBody = z.input<typeof createMeetingBodySchema>;

/**
 * Editing a scheduled meeting. Without `password` an existing password is kept; `invitees`, when
 * given, becomes the meeting's invitee list (removed people get a cancellation).
 */
export const updateMeetingBodySchema = z
  .object({
    ...scheduledFields,
    meetingType: z.literal('scheduled').default('scheduled'),
    invitees: z.array(inviteeInputSchema).max(MAX_PARTICIPANTS.max).optional(),
  })
  .superRefine(refineRecurrence);
export type UpdateMeetingBody = z.input<typeof updateMeetingBodySchema>;

export const invitationsBodySchema = z.object({
  meetingId: meetingIdSchema,
  invitees: z.array(inviteeInputSchema).min(1, 'Add at least one invitee').max(MAX_PARTICIPANTS.max),
});
export type InvitationsBody = z.input<typeof invitationsBodySchema>;

export const invitationsResultSchema = z.object({
  sent: z.number(),
  failed: z.array(z.string()),
});
export type InvitationsResult = z.infer<typeof invitationsResultSchema>;

/** An invitation e-mail the server gave up on after every retry (shown to the host). */
export const invitationFailureSchema = z.object({ email: z.string(), failedAt: z.string() });
export type InvitationFailure = z.infer<typeof invitationFailureSchema>;

export const meetingWithInviteesSchema = meetingSchema.extend({
  invitees: z.array(inviteeSchema),
  /** Invitation e-mails that could not be sent (absent from older servers). */
  invitationFailures: z.array(invitationFailureSchema).optional(),
});
export type MeetingWithInvitees = z.infer<typeof meetingWithInviteesSchema>;

// ---------------------------------------------------------------------------------------------
// Time in a meeting's timezone (Intl only: no timezone database to ship).

interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock time at `date` in `timeZone`. */
export function wallTimeIn(date: Date, timeZone: string): WallTime & { second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Offset of `timeZone` from UTC at `date`, in milliseconds (New York in winter: -5 h). */
export function timeZoneOffsetMs(date: Date, timeZone: string): number {
  const w = wallTimeIn(date, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(date.getTime() / 1000) * 1000;
}

function wallToUtc(w: WallTime, timeZone: string): Date {
  const guess = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
  // Two passes settle the offset, also next to a daylight-saving change.
  let t = guess - timeZoneOffsetMs(new Date(guess), timeZone);
  t = guess - timeZoneOffsetMs(new Date(t), timeZone);
  return new Date(t);
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/;

/** `2026-03-01T09:30` (a datetime-local value) read as wall-clock time in `timeZone`. */
export function zonedLocalToUtc(local: string, timeZone: string): Date | null {
  const m = LOCAL_RE.exec(local);
  if (!m) return null;
  const [, y, mo, d, h, mi] = m.map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59) return null;
  return wallToUtc({ year: y, month: mo, day: d, hour: h, minute: mi }, timeZone);
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The datetime-local value (`YYYY-MM-DDTHH:mm`) of `date` in `timeZone`. */
export function utcToZonedLocal(date: Date, timeZone: string): string {
  const w = wallTimeIn(date, timeZone);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The start of occurrence `n` (0 = the first) of a meeting repeating `pattern`, keeping its
 * wall-clock time in `timeZone` across daylight-saving changes. Monthly meetings on a day a month
 * does not have skip that month, as RFC 5545 does; such occurrences return null.
 */
export function occurrenceStart(
  first: Date,
  timeZone: string,
  pattern: RecurrencePattern,
  n: number,
): Date | null {
  const w = wallTimeIn(first, timeZone);
  if (pattern === 'monthly') {
    const monthIndex = w.month - 1 + n;
    const year = w.year + Math.floor(monthIndex / 12);
    const month = (monthIndex % 12) + 1;
    if (w.day > daysInMonth(year, month)) return null;
    return wallToUtc({ ...w, year, month }, timeZone);
  }
  const step = pattern === 'daily' ? 1 : 7;
  const day = new Date(Date.UTC(w.year, w.month - 1, w.day + n * step));
  return wallToUtc(
    {
      year: day.getUTCFullYear(),
      month: day.getUTCMonth() + 1,
      day: day.getUTCDate(),
      hour: w.hour,
      minute: w.minute,
    },
    timeZone,
  );
}

/**
 * When a meeting next starts: a one-off meeting's own time (even if past); for a recurring one the
 * first occurrence that has not started yet at `now`.
 */
export function nextOccurrence(
  scheduledFor: Date,
  timeZone: string,
  pattern: RecurrencePattern | null,
  now: Date = new Date(),
): Date {
  if (!pattern || scheduledFor >= now) return scheduledFor;
  const periodDays = pattern === 'daily' ? 1 : pattern === 'weekly' ? 7 : 28;
  // Jump close to `now`, then walk forward.
  let n = Math.max(0, Math.floor((now.getTime() - scheduledFor.getTime()) / (periodDays * 86_400_000)) - 1);
  if (pattern === 'monthly') {
    const a = wallTimeIn(scheduledFor, timeZone);
    const b = wallTimeIn(now, timeZone);
    n = Math.max(0, (b.year - a.year) * 12 + (b.month - a.month) - 1);
  }
  for (let guard = 0; guard < 400; guard++, n++) {
    const start = occurrenceStart(scheduledFor, timeZone, pattern, n);
    if (start && start >= now) return start;
  }
  return scheduledFor;
}

/** "Monday, June 1, 2026, 9:00 AM" in the meeting's timezone. */
export function formatMeetingTime(date: Date, timeZone: string, locale = 'en-US'): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(date);
}
