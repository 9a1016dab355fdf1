import { describe, expect, it } from 'vitest';
import { nextOccurrence, occurrenceStart, utcToZonedLocal, zonedLocalToUtc } from './meetings.js';

describe('meeting time in its timezone', () => {
  it('reads a datetime-local value as wall time in the meeting timezone, both ways', () => {
    expect(zonedLocalToUtc('2030-01-07T09:00', 'America/New_York')!.toISOString()).toBe(
      '2030-01-07T14:00:00.000Z',
    );
    expect(zonedLocalToUtc('2030-07-08T09:00', 'America/New_York')!.toISOString()).toBe(
      '2030-07-08T13:00:00.000Z',
    );
    expect(zonedLocalToUtc('2030-07-08T09:00', 'Asia/Tokyo')!.toISOString()).toBe('2030-07-08T00:00:00.000Z');
    expect(zonedLocalToUtc('2030-07-08T09:00', 'UTC')!.toISOString()).toBe('2030-07-08T09:00:00.000Z');
    expect(utcToZonedLocal(new Date('2030-07-08T13:00:00Z'), 'America/New_York')).toBe('2030-07-08T09:00');
    expect(utcToZonedLocal(new Date('2030-03-31T00:30:00Z'), 'Europe/London')).toBe('2030-03-31T00:30');
    expect(zonedLocalToUtc('garbage', 'UTC')).toBeNull();
    expect(zonedLocalToUtc('2030-13-01T00:00', 'UTC')).toBeNull();
  });

  it('keeps the wall-clock time of a weekly meeting across a daylight-saving change', () => {
    const first = new Date('2031-03-03T14:30:00Z'); // Monday 09:30 EST
    expect(occurrenceStart(first, 'America/New_York', 'weekly', 1)!.toISOString()).toBe(
      '2031-03-10T13:30:00.000Z',
    );
    expect(occurrenceStart(first, 'America/New_York', 'daily', 7)!.toISOString()).toBe(
      '2031-03-10T13:30:00.000Z',
    );
  });

  it('skips months without the day of a monthly meeting, as RFC 5545 does', () => {
    const first = new Date('2031-01-31T10:00:00Z');
    expect(occurrenceStart(first, 'UTC', 'monthly', 1)).toBeNull();
    expect(occurrenceStart(first, 'UTC', 'monthly', 2)!.toISOString()).toBe('2031-03-31T10:00:00.000Z');
    const now = new Date('2031-02-10T00:00:00Z');
    expect(nextOccurrence(first, 'UTC', 'monthly', now).toISOString()).toBe('2031-03-31T10:00:00.000Z');
  });

  it('gives the next occurrence not yet started, or the one-off time itself', () => {
    const first = new Date('2030-01-07T14:00:00Z');
    const now = new Date('2030-02-05T12:00:00Z'); // a Tuesday
    expect(nextOccurrence(first, 'America/New_York', 'weekly', now).toISOString()).toBe(
      '2030-02-11T14:00:00.000Z',
    );
    expect(nextOccurrence(first, 'America/New_York', 'daily', now).toISOString()).toBe(
      '2030-02-05T14:00:00.000Z',
    );
    expect(nextOccurrence(first, 'America/New_York', null, now).toISOString()).toBe(first.toISOString());
    expect(nextOccurrence(first, 'UTC', 'weekly', new Date('2029-01-01T00:00:00Z')).toISOString()).toBe(
      first.toISOString(),
    );
  });
});
