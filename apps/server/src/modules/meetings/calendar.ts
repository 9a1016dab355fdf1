import { wallTimeIn, timeZoneOffsetMs, type RecurrencePattern } from '@parley/protocol';
import ical, {
  ICalAttendeeRole,
  ICalAttendeeStatus,
  ICalCalendarMethod,
  ICalEventRepeatingFreq,
  ICalEventStatus,
  type ICalLuxonDateTimeStub,
} from 'ical-generator';

/**
 * The iCalendar invitation of a meeting (RFC 5545/5546): one VEVENT whose UID is stable per
 * meeting, SEQUENCE from the meeting's icsSequence, DTSTART/DTEND in the meeting's timezone (with
 * its VTIMEZONE) so a weekly 9:00 in New York stays 9:00 across daylight-saving changes.
 */

export interface CalendarMeeting {
  /** The meeting's database id: the UID, stable across edits. */
  id: string;
  meetingId: string;
  title: string;
  description: string | null;
  scheduledFor: Date;
  duration: number;
  timezone: string;
  recurrencePattern: RecurrencePattern | null;
  icsSequence: number;
  hostEmail: string;
  hostName: string | null;
}

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** A date as ical-generator's Luxon-shaped value, so it prints the wall time in `zone`. */
function zoned(date: Date, zone: string): ICalLuxonDateTimeStub {
  return {
    isValid: true,
    zone: { type: 'iana' },
    setZone: (z?: string) => zoned(date, z ?? zone),
    toJSDate: () => date,
    toJSON: () => date.toISOString(),
    toFormat(fmt: string) {
      const w = wallTimeIn(date, zone);
      if (fmt === 'yyyyLLdd') return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
      if (fmt === 'HHmmss') return `${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
      throw new Error(`unsupported format ${fmt}`);
    },
  };
}

function offsetString(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  return `${sign}${pad(Math.floor(Math.abs(minutes) / 60))}${pad(Math.abs(minutes) % 60)}`;
}

const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;

/** The day of the `nth` (or last, -1) `weekday` of a month, for a rule's 1970 onset. */
function nthWeekday(year: number, month: number, weekday: number, nth: number): number {
  if (nth > 0) {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    return 1 + ((weekday - first + 7) % 7) + (nth - 1) * 7;
  }
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const last = new Date(Date.UTC(year, month - 1, lastDay)).getUTCDay();
  return lastDay - ((last - weekday + 7) % 7);
}

/** The instants in `year` where the offset of `timeZone` changes (found with Intl). */
function transitions(timeZone: string, year: number): { at: Date; from: number; to: number }[] {
  const found: { at: Date; from: number; to: number }[] = [];
  let prevT = Date.UTC(year, 0, 1);
  let prev = timeZoneOffsetMs(new Date(prevT), timeZone);
  for (let day = 1; day <= 366; day++) {
    const t = Date.UTC(year, 0, 1) + day * 86_400_000;
    const off = timeZoneOffsetMs(new Date(t), timeZone);
    if (off !== prev) {
      let lo = prevT;
      let hi = t;
      while (hi - lo > 60_000) {
        const mid = Math.floor((lo + hi) / 2 / 60_000) * 60_000;
        if (timeZoneOffsetMs(new Date(mid), timeZone) === prev) lo = mid;
        else hi = mid;
      }
      found.push({ at: new Date(hi), from: prev, to: off });
    }
    prevT = t;
    prev = off;
  }
  return found;
}

const vtimezones = new Map<string, string>();

/**
 * VTIMEZONE for an IANA zone, from today's rules: a fixed offset, or a STANDARD and a DAYLIGHT
 * rule ("second Sunday of March at 02:00") found from this year's transitions. Finding them takes
 * a year of offset look-ups, so each (zone, year) is computed once (there are a few hundred zones).
 */
export function vtimezone(timeZone: string, year = new Date().getUTCFullYear()): string {
  const key = `${timeZone}|${year}`;
  let text = vtimezones.get(key);
  if (text === undefined) {
    text = computeVtimezone(timeZone, year);
    vtimezones.set(key, text);
  }
  return text;
}

function computeVtimezone(timeZone: string, year: number): string {
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  const changes = transitions(timeZone, year);
  if (changes.length === 0) {
    const off = offsetString(timeZoneOffsetMs(new Date(Date.UTC(year, 0, 1)), timeZone));
    lines.push('BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${off}`, `TZOFFSETTO:${off}`);
    lines.push('END:STANDARD');
  } else {
    for (const c of changes) {
      // Local wall time just before the change, as the rule states it.
      const local = new Date(c.at.getTime() + c.from);
      const month = local.getUTCMonth() + 1;
      const day = local.getUTCDate();
      const weekday = local.getUTCDay();
      const daysInMonth = new Date(Date.UTC(local.getUTCFullYear(), month, 0)).getUTCDate();
      const nth = day + 7 > daysInMonth ? -1 : Math.ceil(day / 7);
      const onset1970 = nthWeekday(1970, month, weekday, nth);
      const kind = c.to > c.from ? 'DAYLIGHT' : 'STANDARD';
      lines.push(
        `BEGIN:${kind}`,
        `DTSTART:1970${pad(month)}${pad(onset1970)}T${pad(local.getUTCHours())}${pad(local.getUTCMinutes())}00`,
        `RRULE:FREQ=YEARLY;BYMONTH=${month};BYDAY=${nth}${WEEKDAYS[weekday]}`,
        `TZOFFSETFROM:${offsetString(c.from)}`,
        `TZOFFSETTO:${offsetString(c.to)}`,
        `END:${kind}`,
      );
    }
  }
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/**
 * A text for a property parameter (the CN of ORGANIZER and ATTENDEE). RFC 5545 §3.1 allows no
 * DQUOTE inside a quoted parameter value and has no escape for one; ical-generator writes `\"`,
 * which a calendar reads as the end of the value, so a name like `Eve" :mailto:boss@corp.example`
 * would rewrite the organizer. Double quotes become single quotes, control characters go.
 */
export function paramText(value: string): string {
  return value.replace(/"/g, "'").replace(/\p{Cc}/gu, ' ');
}

const FREQ: Record<RecurrencePattern, ICalEventRepeatingFreq> = {
  daily: ICalEventRepeatingFreq.DAILY,
  weekly: ICalEventRepeatingFreq.WEEKLY,
  monthly: ICalEventRepeatingFreq.MONTHLY,
};

export function buildCalendar(
  meeting: CalendarMeeting,
  attendees: { email: string; name: string }[],
  method: 'REQUEST' | 'CANCEL',
  joinUrl: string,
  now: Date = new Date(),
): string {
  const calendar = ical({
    prodId: { company: 'Parley', product: 'Meetings', language: 'EN' },
    method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST,
    timezone: { name: null, generator: (tz) => vtimezone(tz) },
  });
  const end = new Date(meeting.scheduledFor.getTime() + meeting.duration * 60_000);
  calendar.createEvent({
    id: `${meeting.id}@parley`,
    sequence: meeting.icsSequence,
    stamp: now,
    start: zoned(meeting.scheduledFor, meeting.timezone),
    end: zoned(end, meeting.timezone),
    timezone: meeting.timezone,
    summary: meeting.title,
    description: [meeting.description, `Join: ${joinUrl}`].filter(Boolean).join('\n\n'),
    location: joinUrl,
    url: joinUrl,
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    organizer: { name: paramText(meeting.hostName ?? meeting.hostEmail), email: meeting.hostEmail },
    attendees: attendees.map((a) => ({
      email: a.email,
      name: paramText(a.name) || undefined,
      role: ICalAttendeeRole.REQ,
      status: ICalAttendeeStatus.NEEDSACTION,
      rsvp: method === 'REQUEST',
    })),
    repeating: meeting.recurrencePattern ? { freq: FREQ[meeting.recurrencePattern] } : null,
  });
  return calendar.toString();
}
