import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { meetingBilling, meetings, type MeetingRow } from '../src/db/schema/index.js';
import { hashMeetingPassword } from '../src/modules/meetings/password.js';
import type { TestContext } from './app.js';

export interface TestMeetingOptions {
  hostId: string;
  title?: string;
  meetingType?: 'instant' | 'scheduled';
  status?: 'scheduled' | 'live' | 'ended' | 'cancelled';
  maxParticipants?: number;
  password?: string;
  waitingRoom?: boolean;
  isRecurring?: boolean;
  isActive?: boolean;
  /**
   * The host's "cover everyone's time" (default on, issue 37 item 3: a Pro host's meeting covers
   * its guests). `false` stores the host's choice to turn it off, so guests are counted.
   */
  coversGuests?: boolean;
}

const randomMeetingId = () => [0, 0, 0].map(() => String(randomInt(0, 1000)).padStart(3, '0')).join('-');

/**
 * Inserts a meeting row directly (the room tests do not depend on the meetings API): an instant,
 * live meeting by default, with the password hashed as the meetings service stores it.
 */
export async function createMeeting(t: TestContext, options: TestMeetingOptions): Promise<MeetingRow> {
  const meetingType = options.meetingType ?? 'instant';
  const [row] = await t.db.db
    .insert(meetings)
    .values({
      meetingId: randomMeetingId(),
      title: options.title ?? 'Test meeting',
      hostId: options.hostId,
      meetingType,
      status: options.status ?? (meetingType === 'instant' ? 'live' : 'scheduled'),
      maxParticipants: options.maxParticipants ?? 100,
      passwordHash: options.password ? await hashMeetingPassword(options.password) : null,
      waitingRoom: options.waitingRoom ?? false,
      isRecurring: options.isRecurring ?? false,
      isActive: options.isActive ?? true,
      scheduledFor: meetingType === 'scheduled' ? new Date(Date.now() + 3600_000) : null,
    })
    .returning();
  if (!row) throw new Error('meeting insert returned nothing');
  if (options.coversGuests !== undefined)
    await t.db.db.insert(meetingBilling).values({ meetingId: row.id, coverEveryone: options.coversGuests });
  return row;
}

export async function meetingStatus(t: TestContext, id: string): Promise<string | undefined> {
  const [row] = await t.db.db.select({ status: meetings.status }).from(meetings).where(eq(meetings.id, id));
  return row?.status;
}
