import type { Meeting } from '@parley/protocol';

export type MeetingTab = 'upcoming' | 'live' | 'past';
export type MeetingBadge = 'Live' | 'Ended' | 'Cancelled' | 'Missed' | 'Scheduled';

/** When the meeting (next) starts: a recurring meeting's next occurrence. */
export function startsAt(m: Meeting): number | null {
  const at = m.nextOccurrence ?? m.scheduledFor;
  return at ? new Date(at).getTime() : null;
}

/** Spec §4: live → Live, ended → Ended, cancelled → Cancelled, a passed scheduled one → Missed. */
export function badgeOf(m: Meeting, now: number): MeetingBadge {
  if (m.status === 'live') return 'Live';
  if (m.status === 'ended') return 'Ended';
  if (m.status === 'cancelled') return 'Cancelled';
  const at = startsAt(m);
  return at !== null && at <= now ? 'Missed' : 'Scheduled';
}

/**
 * Spec §4 tabs: Upcoming is scheduled with a future time; Live Now is live; Past is ended (or
 * cancelled) or a time that has passed. A live meeting is only under Live Now.
 */
export function tabOf(m: Meeting, now: number): MeetingTab {
  if (m.status === 'live') return 'live';
  if (m.status === 'ended' || m.status === 'cancelled') return 'past';
  const at = startsAt(m);
  return at !== null && at > now ? 'upcoming' : 'past';
}

export function groupMeetings(meetings: Meeting[], now: number): Record<MeetingTab, Meeting[]> {
  const groups: Record<MeetingTab, Meeting[]> = { upcoming: [], live: [], past: [] };
  for (const m of meetings) groups[tabOf(m, now)].push(m);
  const t = (m: Meeting) => startsAt(m) ?? 0;
  groups.upcoming.sort((a, b) => t(a) - t(b));
  groups.live.sort((a, b) => t(b) - t(a));
  groups.past.sort((a, b) => t(b) - t(a));
  return groups;
}
