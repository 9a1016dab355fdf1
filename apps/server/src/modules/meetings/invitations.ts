import { formatMeetingTime, nextOccurrence } from '@parley/protocol';
import { escapeHtml } from '../../http/html.js';
import type { CalendarPart, MailMessage } from '../../providers/mail/index.js';
import { buildCalendar, type CalendarMeeting } from './calendar.js';

/** The e-mails sent to invitees: a new invitation, an update, a cancellation. */
export type InvitationKind = 'invite' | 'update' | 'cancel';

export interface InvitationMeeting extends Omit<CalendarMeeting, 'scheduledFor' | 'duration'> {
  scheduledFor: Date | null;
  duration: number | null;
  requiresPassword: boolean;
}

export function joinUrl(publicUrl: string, meetingId: string): string {
  return `${publicUrl}/meeting/${meetingId}`;
}

const SUBJECT_PREFIX: Record<InvitationKind, string> = {
  invite: 'Invitation',
  update: 'Updated invitation',
  cancel: 'Cancelled',
};

const INTRO: Record<InvitationKind, (host: string) => string> = {
  invite: (host) => `${host} invited you to a Parley meeting.`,
  update: (host) => `${host} changed this Parley meeting.`,
  cancel: (host) => `${host} cancelled this Parley meeting.`,
};

/**
 * The iCalendar part of one sending: it lists every attendee and is the same for each recipient,
 * so it is built once per sending (none for a meeting without a time).
 */
export function invitationCalendar(
  kind: InvitationKind,
  meeting: InvitationMeeting,
  allAttendees: { email: string; name: string }[],
  publicUrl: string,
  now: Date = new Date(),
): CalendarPart | undefined {
  if (!meeting.scheduledFor || !meeting.duration) return undefined;
  const method = kind === 'cancel' ? 'CANCEL' : 'REQUEST';
  return {
    method,
    content: buildCalendar(
      { ...meeting, scheduledFor: meeting.scheduledFor, duration: meeting.duration },
      allAttendees,
      method,
      joinUrl(publicUrl, meeting.meetingId),
      now,
    ),
  };
}

/** One recipient's e-mail, with the sending's calendar part (from invitationCalendar). */
export function invitationMessage(
  kind: InvitationKind,
  meeting: InvitationMeeting,
  to: { email: string; name: string },
  calendar: CalendarPart | undefined,
  publicUrl: string,
  now: Date = new Date(),
): MailMessage {
  const url = joinUrl(publicUrl, meeting.meetingId);
  const host = meeting.hostName ?? meeting.hostEmail;
  const details: [string, string][] = [];
  if (meeting.scheduledFor) {
    const when = meeting.recurrencePattern
      ? nextOccurrence(meeting.scheduledFor, meeting.timezone, meeting.recurrencePattern, now)
      : meeting.scheduledFor;
    details.push(['When', `${formatMeetingTime(when, meeting.timezone)} (${meeting.timezone})`]);
    if (meeting.duration) details.push(['Duration', `${meeting.duration} minutes`]);
    if (meeting.recurrencePattern) details.push(['Repeats', meeting.recurrencePattern]);
  }
  details.push(['Meeting ID', meeting.meetingId]);
  if (meeting.requiresPassword) details.push(['Password', 'required (the host will share it with you)']);

  const lines = [
    to.name ? `Hello ${to.name},` : 'Hello,',
    '',
    INTRO[kind](host),
    '',
    meeting.title,
    ...details.map(([k, v]) => `${k}: ${v}`),
    ...(meeting.description ? ['', meeting.description] : []),
    '',
    kind === 'cancel' ? `The link no longer starts this meeting: ${url}` : `Join: ${url}`,
  ];
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a">',
    `<p>${escapeHtml(to.name ? `Hello ${to.name},` : 'Hello,')}</p>`,
    `<p>${escapeHtml(INTRO[kind](host))}</p>`,
    `<h2 style="margin:16px 0 8px">${escapeHtml(meeting.title)}</h2>`,
    '<table style="border-collapse:collapse">',
    ...details.map(
      ([k, v]) =>
        `<tr><td style="padding:2px 12px 2px 0;color:#64748b">${escapeHtml(k)}</td><td>${escapeHtml(v)}</td></tr>`,
    ),
    '</table>',
    meeting.description ? `<p style="white-space:pre-line">${escapeHtml(meeting.description)}</p>` : '',
    kind === 'cancel'
      ? ''
      : `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">Join meeting</a></p><p style="color:#64748b">${escapeHtml(url)}</p>`,
    '</body></html>',
  ].join('');

  const message: MailMessage = {
    to,
    subject: `${SUBJECT_PREFIX[kind]}: ${meeting.title}`,
    text: lines.join('\n'),
    html,
  };
  if (calendar) message.calendar = calendar;
  return message;
}
