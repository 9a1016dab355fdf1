import { randomInt } from 'node:crypto';
import {
  MEETING_MESSAGES,
  nextOccurrence,
  type InstantMeetingBody,
  type InviteeInput,
  type Meeting,
  type MeetingWithInvitees,
  type RecurrencePattern,
  type ScheduledMeetingBody,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { MeetingRow, UserRow } from '../../db/schema/index.js';
import { badRequest, conflict, HttpError, notFound } from '../../http/errors.js';
import type { Mailer } from '../../providers/mail/index.js';
import { defuseLinks } from '../mail/defuse-links.js';
import { displayName } from '../users/display-name.js';
import {
  invitationCalendar,
  invitationMessage,
  type InvitationKind,
  type InvitationMeeting,
} from './invitations.js';
import { hashMeetingPassword } from './password.js';
import type { MeetingsRepository } from './repository.js';

export interface MeetingsServiceDeps {
  repo: MeetingsRepository;
  mailer: Mailer;
  publicUrl: string;
  log: FastifyBaseLogger;
  now?: () => Date;
  /** Called after a meeting row is deleted (its live room ends, its stored files go). */
  onDeleted?: (meetingId: string) => Promise<void>;
  /** Invitation e-mails (recipients) one user may have sent per UTC day; tests lower it. */
  dailyRecipientLimit?: number;
  /** Invitation e-mails of a meeting (row id) that failed after every retry. */
  mailFailures?: (meetingId: string) => Promise<{ email: string; failedAt: Date }[]>;
}

/**
 * Invitation e-mails one user may have sent per UTC day. A host inviting a 100-person meeting,
 * then editing it once, stays under it; a sender of bulk mail does not.
 */
export const DAILY_RECIPIENT_LIMIT = 250;

export const invitationLimitMessage = (limit: number) =>
  `You have reached today's limit of ${limit} invitation e-mails. Try again tomorrow (UTC), or invite fewer people.`;

export interface InvitationsOutcome {
  sent: number;
  failed: string[];
}

type Person = { email: string; name: string };

const INSTANT_TITLE = 'Instant Meeting';
const ID_ATTEMPTS = 8;

/** A fresh ddd-ddd-ddd id from the system's cryptographic random source. */
export function generateMeetingId(): string {
  const digits = String(randomInt(0, 1_000_000_000)).padStart(9, '0');
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

function pattern(row: MeetingRow): RecurrencePattern | null {
  return row.isRecurring ? ((row.recurrencePattern as RecurrencePattern | null) ?? null) : null;
}

export function toMeeting(row: MeetingRow, now: Date): Meeting {
  const next = row.scheduledFor ? nextOccurrence(row.scheduledFor, row.timezone, pattern(row), now) : null;
  return {
    id: row.id,
    meetingId: row.meetingId,
    title: row.title,
    description: row.description,
    hostId: row.hostId,
    hostEmail: row.hostEmail,
    scheduledFor: row.scheduledFor?.toISOString() ?? null,
    duration: row.duration,
    timezone: row.timezone,
    isRecurring: row.isRecurring,
    recurrencePattern: pattern(row),
    meetingType: row.meetingType as Meeting['meetingType'],
    maxParticipants: row.maxParticipants,
    requiresPassword: row.passwordHash !== null,
    waitingRoom: row.waitingRoom,
    allowRecording: row.allowRecording,
    isActive: row.isActive,
    status: row.status as Meeting['status'],
    nextOccurrence: next?.toISOString() ?? null,
  };
}

const defusePerson = (p: Person): Person => ({ email: p.email, name: defuseLinks(p.name) });

/** One entry per address; a later row with the same address wins (its name). */
function dedupe(invitees: InviteeInput[]): Person[] {
  const byEmail = new Map<string, Person>();
  for (const i of invitees) byEmail.set(i.email, { email: i.email, name: i.name });
  return [...byEmail.values()];
}

/** Rules and permissions of meetings: who may do what, what is valid, who gets mail. */
export function createMeetingsService({
  repo,
  mailer,
  publicUrl,
  log,
  now = () => new Date(),
  onDeleted,
  dailyRecipientLimit = DAILY_RECIPIENT_LIMIT,
  mailFailures,
}: MeetingsServiceDeps) {
  async function insertWithFreshId(
    values: Omit<Parameters<MeetingsRepository['insertIfIdFree']>[0], 'meetingId'>,
  ) {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const row = await repo.insertIfIdFree({ ...values, meetingId: generateMeetingId() });
      if (row) return row;
    }
    throw new Error('could not find a free meeting id');
  }

  /**
   * The meeting, if `user` hosts it. Someone else's meeting answers exactly like an unknown id
   * (404 'Meeting not found'): these routes must not tell which ids exist.
   */
  async function ownMeeting(user: UserRow, meetingId: string): Promise<MeetingRow> {
    const row = await repo.findByMeetingId(meetingId);
    if (!row || row.hostId !== user.id) throw notFound('Meeting not found');
    return row;
  }

  /** Counts `people` against the user's daily allowance of invitation e-mails, or answers 429. */
  async function reserveMail(user: UserRow, people: number): Promise<void> {
    if (people === 0) return;
    const day = now().toISOString().slice(0, 10);
    if (!(await repo.reserveRecipients(user.id, day, people, dailyRecipientLimit))) {
      throw new HttpError(429, invitationLimitMessage(dailyRecipientLimit));
    }
  }

  function assertFuture(when: Date) {
    if (when.getTime() <= now().getTime()) throw badRequest(MEETING_MESSAGES.futureDate);
  }

  /**
   * What the mail says about a meeting. The host is the signed-in account (its email comes from
   * the identity provider), never an address typed into the form; the title and the names are
   * other people's free text, defused so that mail clients cannot turn them into links.
   */
  function mailMeeting(row: MeetingRow, host: UserRow, sequence = row.icsSequence): InvitationMeeting {
    const hostName = displayName(host);
    return {
      id: row.id,
      meetingId: row.meetingId,
      title: defuseLinks(row.title),
      description: row.description,
      scheduledFor: row.scheduledFor,
      duration: row.duration,
      timezone: row.timezone,
      recurrencePattern: pattern(row),
      icsSequence: sequence,
      hostEmail: host.email,
      hostName: hostName ? defuseLinks(hostName) : null,
      requiresPassword: row.passwordHash !== null,
    };
  }

  /** Sends one mail per recipient; a failure is logged and reported, never thrown. */
  async function sendAll(
    kind: InvitationKind,
    meeting: InvitationMeeting,
    recipients: Person[],
    attendees: Person[],
    track = true,
  ): Promise<InvitationsOutcome> {
    const outcome: InvitationsOutcome = { sent: 0, failed: [] };
    if (recipients.length === 0) return outcome;
    const at = now();
    // The calendar lists every attendee: built once, not once per recipient.
    const calendar = invitationCalendar(kind, meeting, attendees.map(defusePerson), publicUrl, at);
    const people = recipients.map(defusePerson);
    const messages = people.map((to) => {
      const message = invitationMessage(kind, meeting, to, calendar, publicUrl, at);
      // A deleted meeting's cancellations have no meeting left to show a failure on.
      if (track) message.meetingId = meeting.id;
      return message;
    });
    if (mailer.sendMany) {
      // The mail queue takes them all at once and sends them after the answer; "sent" counts
      // the e-mails accepted for sending, a final failure is shown on the meeting.
      try {
        await mailer.sendMany(messages);
        outcome.sent = messages.length;
      } catch (err) {
        log.error({ err, meetingId: meeting.meetingId, kind }, 'failed to queue meeting e-mails');
        outcome.failed.push(...people.map((p) => p.email));
      }
      return outcome;
    }
    for (const [i, message] of messages.entries()) {
      try {
        await mailer.send(message);
        outcome.sent++;
      } catch (err) {
        log.error({ err, meetingId: meeting.meetingId, kind }, 'failed to send a meeting e-mail');
        outcome.failed.push(people[i]!.email);
      }
    }
    return outcome;
  }

  async function scheduledValues(body: ScheduledMeetingBody, existing?: MeetingRow) {
    const scheduledFor = new Date(body.scheduledFor);
    const moved = !existing?.scheduledFor || existing.scheduledFor.getTime() !== scheduledFor.getTime();
    if (moved) assertFuture(scheduledFor);
    let passwordHash: string | null = null;
    if (body.requiresPassword) {
      if (body.password) passwordHash = await hashMeetingPassword(body.password);
      else if (existing?.passwordHash) passwordHash = existing.passwordHash;
      else throw badRequest(MEETING_MESSAGES.passwordRequired);
    }
    return {
      title: body.title,
      description: body.description,
      scheduledFor,
      duration: body.duration,
      timezone: body.timezone,
      isRecurring: body.isRecurring,
      recurrencePattern: body.isRecurring ? (body.recurrencePattern ?? null) : null,
      maxParticipants: body.maxParticipants,
      passwordHash,
      waitingRoom: body.waitingRoom,
      allowRecording: body.allowRecording,
    };
  }

  function assertOpen(row: MeetingRow) {
    if (row.status === 'ended' || row.status === 'cancelled') {
      throw conflict(`This meeting has ${row.status === 'ended' ? 'ended' : 'been cancelled'}`);
    }
  }

  return {
    async createInstant(host: UserRow, body: InstantMeetingBody): Promise<Meeting> {
      const row = await insertWithFreshId({
        title: body.title ?? INSTANT_TITLE,
        hostId: host.id,
        hostEmail: host.email,
        scheduledFor: now(),
        meetingType: 'instant',
        isActive: true,
        status: 'live',
      });
      return toMeeting(row, now());
    },

    async createScheduled(host: UserRow, body: ScheduledMeetingBody): Promise<Meeting> {
      const values = await scheduledValues(body);
      const row = await insertWithFreshId({
        ...values,
        hostId: host.id,
        // The form's host email is not trusted: the host is the signed-in account.
        hostEmail: host.email,
        meetingType: 'scheduled',
        isActive: true,
        status: 'scheduled',
      });
      return toMeeting(row, now());
    },

    async listMine(user: UserRow): Promise<Meeting[]> {
      const at = now();
      return (await repo.listByHost(user.id)).map((r) => toMeeting(r, at));
    },

    async getForHost(user: UserRow, meetingId: string): Promise<MeetingWithInvitees> {
      const row = await ownMeeting(user, meetingId);
      const invitees = await repo.listInvitees(row.id);
      const failures = (await mailFailures?.(row.id)) ?? [];
      return {
        ...toMeeting(row, now()),
        invitees: invitees.map((i) => ({ email: i.email, name: i.name })),
        invitationFailures: failures.map((f) => ({ email: f.email, failedAt: f.failedAt.toISOString() })),
      };
    },

    /**
     * Saves an edit, raises the SEQUENCE and mails every invitee the updated invitation (new ones an
     * invitation, removed ones a cancellation).
     */
    async update(
      user: UserRow,
      meetingId: string,
      body: ScheduledMeetingBody & { invitees?: InviteeInput[] },
    ): Promise<Meeting & { invitations: InvitationsOutcome }> {
      const row = await ownMeeting(user, meetingId);
      if (row.meetingType !== 'scheduled') throw badRequest('Only scheduled meetings can be edited');
      assertOpen(row);
      const values = { ...(await scheduledValues(body, row)), hostEmail: user.email };
      const invitees = body.invitees ? dedupe(body.invitees) : undefined;
      // Every invitee is mailed again (and removed ones a cancellation): an edit counts as many
      // e-mails against the daily allowance, checked before anything is saved.
      const listed = await repo.listInvitees(row.id);
      const keeping = new Set((invitees ?? listed).map((i) => i.email));
      await reserveMail(user, keeping.size + listed.filter((i) => !keeping.has(i.email)).length);
      const saved = await repo.updateWithInvitees(row.id, values, invitees);
      if (!saved) throw notFound('Meeting not found');
      const { row: updated, before } = saved;
      const removed: Person[] = saved.removed.map((i) => ({ email: i.email, name: i.name }));
      const current: Person[] = saved.current.map((i) => ({ email: i.email, name: i.name }));
      const known = new Set(before.map((b) => b.email));
      const meeting = mailMeeting(updated, user);
      const results = await Promise.all([
        sendAll(
          'update',
          meeting,
          current.filter((c) => known.has(c.email)),
          current,
        ),
        sendAll(
          'invite',
          meeting,
          current.filter((c) => !known.has(c.email)),
          current,
        ),
        sendAll('cancel', meeting, removed, removed),
      ]);
      const invitations = {
        sent: results.reduce((n, r) => n + r.sent, 0),
        failed: results.flatMap((r) => r.failed),
      };
      return { ...toMeeting(updated, now()), invitations };
    },

    /**
     * Deletes the meeting after mailing each invitee a cancellation (METHOD:CANCEL). These do not
     * count against the daily allowance: each goes once, to someone counted when invited, with a
     * title that was counted when it was mailed; a host is never kept from deleting a meeting.
     */
    async remove(user: UserRow, meetingId: string): Promise<InvitationsOutcome> {
      const row = await ownMeeting(user, meetingId);
      const invitees = (await repo.listInvitees(row.id)).map((i) => ({ email: i.email, name: i.name }));
      const meeting = mailMeeting(row, user, row.icsSequence + 1);
      await repo.delete(row.id);
      await onDeleted?.(row.id);
      return row.status === 'ended'
        ? { sent: 0, failed: [] }
        : sendAll('cancel', meeting, invitees, invitees, false);
    },

    /** Adds invitees to the host's meeting and mails each of them the invitation. */
    async invite(user: UserRow, meetingId: string, invitees: InviteeInput[]): Promise<InvitationsOutcome> {
      const row = await ownMeeting(user, meetingId);
      assertOpen(row);
      const people = dedupe(invitees);
      await reserveMail(user, people.length);
      await repo.upsertInvitees(row.id, people);
      const all = (await repo.listInvitees(row.id)).map((i) => ({ email: i.email, name: i.name }));
      return sendAll('invite', mailMeeting(row, user), people, all);
    },
  };
}

export type MeetingsService = ReturnType<typeof createMeetingsService>;
