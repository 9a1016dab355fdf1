import type { InviteeInput, MeetingWithInvitees, RecurrencePattern, Timezone } from '@parley/protocol';
import {
  DEFAULT_DURATION_MINUTES,
  DEFAULT_RECURRENCE,
  DEFAULT_TIMEZONE,
  MAX_PARTICIPANTS,
  SCHEDULE_DEFAULTS,
} from '@parley/protocol/constants';
import { utcToZonedLocal, zonedLocalToUtc } from '@parley/protocol/meetings';
import type { InviteeRow } from './InviteeRows';

/** The schedule form's state, its defaults (spec §9), its checks (spec §5) and its request body. */
export interface ScheduleFormState {
  title: string;
  description: string;
  hostEmail: string;
  /** datetime-local value, read in `timezone`. */
  when: string;
  duration: number;
  timezone: Timezone;
  isRecurring: boolean;
  recurrencePattern: RecurrencePattern;
  maxParticipants: string;
  requiresPassword: boolean;
  password: string;
  waitingRoom: boolean;
  allowRecording: boolean;
  invitees: InviteeRow[];
}

export function newForm(hostEmail: string): ScheduleFormState {
  return {
    title: '',
    description: '',
    hostEmail,
    when: '',
    duration: DEFAULT_DURATION_MINUTES,
    timezone: DEFAULT_TIMEZONE,
    isRecurring: false,
    recurrencePattern: DEFAULT_RECURRENCE,
    maxParticipants: String(MAX_PARTICIPANTS.default),
    requiresPassword: SCHEDULE_DEFAULTS.requiresPassword,
    password: '',
    waitingRoom: SCHEDULE_DEFAULTS.waitingRoom,
    allowRecording: SCHEDULE_DEFAULTS.allowRecording,
    invitees: [{ key: 1, email: '', name: '' }],
  };
}

export function formFromMeeting(m: MeetingWithInvitees): ScheduleFormState {
  const timezone = m.timezone as Timezone;
  return {
    title: m.title,
    description: m.description ?? '',
    hostEmail: m.hostEmail ?? '',
    when: m.scheduledFor ? utcToZonedLocal(new Date(m.scheduledFor), timezone) : '',
    duration: m.duration ?? DEFAULT_DURATION_MINUTES,
    timezone,
    isRecurring: m.isRecurring,
    recurrencePattern: m.recurrencePattern ?? DEFAULT_RECURRENCE,
    maxParticipants: String(m.maxParticipants),
    requiresPassword: m.requiresPassword,
    password: '',
    waitingRoom: m.waitingRoom,
    allowRecording: m.allowRecording,
    invitees:
      m.invitees.length > 0
        ? m.invitees.map((i, n) => ({ key: n + 1, email: i.email, name: i.name }))
        : [{ key: 1, email: '', name: '' }],
  };
}

/** 2 to 500; anything empty or not a whole number falls back to 100, out of range is clamped. */
export function parseMaxParticipants(value: string): number {
  const n = Number(value.trim());
  if (!value.trim() || !Number.isInteger(n)) return MAX_PARTICIPANTS.default;
  return Math.min(MAX_PARTICIPANTS.max, Math.max(MAX_PARTICIPANTS.min, n));
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Rows with an empty email are dropped (spec §5). */
export function inviteesToSend(rows: InviteeRow[]): InviteeInput[] {
  return rows.map((r) => ({ email: r.email.trim(), name: r.name.trim() })).filter((r) => r.email !== '');
}

export interface FormProblem {
  title: string;
  description: string;
}

/**
 * The spec's checks in its order (title, host email, date and time, future), then the ones the
 * server would refuse (email formats, a password when the switch is on).
 */
export function validateForm(
  form: ScheduleFormState,
  now: Date,
  options: { hasPassword?: boolean; originalWhen?: string } = {},
): FormProblem | null {
  if (!form.title.trim()) return { title: 'Title required', description: 'Please enter a meeting title' };
  if (!form.hostEmail.trim())
    return { title: 'Host email required', description: 'Please enter your email address' };
  if (!form.when) {
    return { title: 'Date and time required', description: 'Please select when to schedule the meeting' };
  }
  const at = zonedLocalToUtc(form.when, form.timezone);
  const unchanged = options.originalWhen !== undefined && options.originalWhen === form.when;
  if (!at || (!unchanged && at.getTime() <= now.getTime())) {
    return { title: 'Invalid date', description: 'Please select a future date and time' };
  }
  if (!EMAIL_RE.test(form.hostEmail.trim())) {
    return { title: 'Invalid email', description: 'Please enter a valid host email address' };
  }
  const bad = inviteesToSend(form.invitees).find((i) => !EMAIL_RE.test(i.email));
  if (bad) return { title: 'Invalid email', description: `${bad.email} is not a valid email address` };
  if (form.requiresPassword && !form.password && !options.hasPassword) {
    return { title: 'Password required', description: 'Please enter a password for the meeting' };
  }
  return null;
}

/** The request body: password and recurrence only when their switches are on (spec §5). */
export function toBody(form: ScheduleFormState) {
  const at = zonedLocalToUtc(form.when, form.timezone);
  return {
    meetingType: 'scheduled' as const,
    title: form.title.trim(),
    description: form.description.trim() || null,
    hostEmail: form.hostEmail.trim(),
    scheduledFor: at ? at.toISOString() : '',
    duration: form.duration,
    timezone: form.timezone,
    isRecurring: form.isRecurring,
    ...(form.isRecurring ? { recurrencePattern: form.recurrencePattern } : {}),
    maxParticipants: parseMaxParticipants(form.maxParticipants),
    requiresPassword: form.requiresPassword,
    ...(form.requiresPassword && form.password ? { password: form.password } : {}),
    waitingRoom: form.waitingRoom,
    allowRecording: form.allowRecording,
    isActive: true,
    status: 'scheduled' as const,
  };
}
