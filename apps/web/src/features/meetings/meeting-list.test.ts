import type { Meeting } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { badgeOf, groupMeetings, tabOf } from './meeting-list';

const NOW = Date.parse('2030-05-01T12:00:00Z');
function meeting(over: Partial<Meeting>): Meeting {
  return {
    id: 'x',
    meetingId: '123-456-789',
    title: 'T',
    description: null,
    hostId: 'h',
    hostEmail: 'h@example.com',
    scheduledFor: '2030-05-02T12:00:00.000Z',
    duration: 60,
    timezone: 'UTC',
    isRecurring: false,
    recurrencePattern: null,
    meetingType: 'scheduled',
    maxParticipants: 100,
    requiresPassword: false,
    waitingRoom: false,
    allowRecording: true,
    isActive: true,
    status: 'scheduled',
    nextOccurrence: '2030-05-02T12:00:00.000Z',
    ...over,
  };
}

describe('My Meetings tabs and badges', () => {
  it('sorts each meeting into the tab and badge of spec §4', () => {
    const past = { scheduledFor: '2030-04-01T12:00:00.000Z', nextOccurrence: '2030-04-01T12:00:00.000Z' };
    const cases: [Partial<Meeting>, string, string][] = [
      [{}, 'upcoming', 'Scheduled'],
      [past, 'past', 'Missed'],
      [{ status: 'live' }, 'live', 'Live'],
      [{ status: 'live', ...past }, 'live', 'Live'],
      [{ status: 'ended' }, 'past', 'Ended'],
      [{ status: 'cancelled' }, 'past', 'Cancelled'],
      // A recurring meeting whose first date passed is upcoming at its next occurrence.
      [
        { isRecurring: true, recurrencePattern: 'weekly', scheduledFor: past.scheduledFor },
        'upcoming',
        'Scheduled',
      ],
    ];
    for (const [over, tab, badge] of cases) {
      expect(tabOf(meeting(over), NOW)).toBe(tab);
      expect(badgeOf(meeting(over), NOW)).toBe(badge);
    }
  });

  it('lists upcoming meetings soonest first and past ones latest first', () => {
    const a = meeting({ meetingId: 'a', nextOccurrence: '2030-05-03T00:00:00.000Z' });
    const b = meeting({ meetingId: 'b', nextOccurrence: '2030-05-02T00:00:00.000Z' });
    const c = meeting({ meetingId: 'c', status: 'ended', nextOccurrence: '2030-01-01T00:00:00.000Z' });
    const d = meeting({ meetingId: 'd', status: 'ended', nextOccurrence: '2030-03-01T00:00:00.000Z' });
    const g = groupMeetings([a, b, c, d], NOW);
    expect(g.upcoming.map((m) => m.meetingId)).toEqual(['b', 'a']);
    expect(g.past.map((m) => m.meetingId)).toEqual(['d', 'c']);
    expect(g.live).toEqual([]);
  });
});
