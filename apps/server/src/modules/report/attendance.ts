import { SPEAKING_LIMITS } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ReportRepository } from './repository.js';

/** A refused `speaking` message: answered with a WS error, nothing counted. */
export interface SpeakingRefusal {
  code: 'rate_limited';
  message: string;
}

interface Entry {
  roomId: string;
  /** The attendance row (once written; the queue below orders every write after it). */
  rowId: Promise<string | null>;
  present: boolean;
  /** When the current speaking stretch began (this service's clock), or null. */
  speakingSince: number | null;
  /** Token bucket for `speaking` messages. */
  tokens: number;
  tokensAt: number;
  /** The tail of this participant's writes, one at a time, in order. */
  queue: Promise<unknown>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const SPEAKING_RATE_MESSAGE = 'Too many speaking updates: slow down';

/**
 * Who was in a meeting and when, and how long each one spoke (the meeting report). It follows the
 * room's events (follower.ts): a participant entering the room opens its attendance row, its
 * socket dropping or its leaving closes it (a resume within the grace opens it again), and its
 * `speaking` messages are timed on this service's clock, never the browser's. Talk time counts only
 * while the participant is present and unmuted. The test room (no meeting row) is not recorded.
 */
export function createAttendanceService(deps: {
  repo: ReportRepository;
  now: () => number;
  log: FastifyBaseLogger;
}) {
  const { repo, now, log } = deps;
  const entries = new Map<string, Entry>();

  function run(entry: Entry, what: string, task: (rowId: string) => Promise<void>): Promise<void> {
    const next = entry.queue
      .then(() => entry.rowId)
      .then((rowId) => (rowId ? task(rowId) : undefined))
      .catch((err: unknown) => log.error({ err, roomId: entry.roomId }, `attendance: could not ${what}`));
    entry.queue = next;
    return next;
  }

  /** Ends the current speaking stretch (if any) and adds it to the row. */
  function stopSpeaking(entry: Entry, at: number): void {
    if (entry.speakingSince === null) return;
    const ms = Math.max(0, at - entry.speakingSince);
    entry.speakingSince = null;
    if (ms > 0) void run(entry, 'add talk time', (id) => repo.addTalk(id, ms));
  }

  /** Its socket dropped or it left: its row closes now (the time it was last there). */
  function absent(participantId: string): Promise<void> {
    const entry = entries.get(participantId);
    if (!entry?.present) return entry ? entry.queue.then(() => undefined) : Promise.resolve();
    const at = now();
    stopSpeaking(entry, at);
    entry.present = false;
    return run(entry, 'close attendance', (id) => repo.closeAttendance(id, new Date(at)));
  }

  return {
    /** The participant is in the room (its `joined`): a new row, or its row open again. */
    present(roomId: string, p: { id: string; name: string; isHost: boolean }): Promise<void> {
      if (!UUID.test(roomId)) return Promise.resolve();
      const at = now();
      const known = entries.get(p.id);
      if (known) {
        if (known.present) return known.queue.then(() => undefined);
        known.present = true;
        return run(known, 'reopen attendance', (id) => repo.reopenAttendance(id));
      }
      const rowId = repo
        .openAttendance({
          meetingId: roomId,
          participantId: p.id,
          name: p.name,
          isHost: p.isHost,
          joinedAt: new Date(at),
        })
        .catch((err: unknown) => {
          log.error({ err, roomId }, 'attendance: could not record an entry');
          return null;
        });
      const entry: Entry = {
        roomId,
        rowId,
        present: true,
        speakingSince: null,
        tokens: SPEAKING_LIMITS.burst,
        tokensAt: at,
        queue: rowId,
      };
      entries.set(p.id, entry);
      return rowId.then(() => undefined);
    },

    absent,

    /**
     * It left for good (participant_left): closed, and forgotten by this service. Heard for a
     * participant this instance holds no entry of (`roomId` given), its row is closed if still
     * open: the instance that held it may have crashed.
     */
    async gone(participantId: string, roomId?: string): Promise<void> {
      const entry = entries.get(participantId);
      if (!entry) {
        if (roomId && UUID.test(roomId)) {
          await repo
            .closeOpenAttendance(roomId, participantId, new Date(now()))
            .catch((err: unknown) => log.error({ err, roomId }, 'attendance: could not close an entry'));
        }
        return;
      }
      await absent(participantId);
      entries.delete(participantId);
    },

    /** Muted (by itself or the host): a speaking stretch ends. */
    muted(participantId: string): void {
      const entry = entries.get(participantId);
      if (entry) stopSpeaking(entry, now());
    },

    /**
     * speaking {speaking}: the participant's browser heard speech start or stop. `muted` is the
     * room's record of it: a muted participant's "speaking" counts for nothing. Over
     * SPEAKING_LIMITS it is refused.
     */
    speaking(participantId: string, speaking: boolean, muted: boolean): SpeakingRefusal | null {
      const entry = entries.get(participantId);
      if (!entry) return null;
      const at = now();
      entry.tokens = Math.min(
        SPEAKING_LIMITS.burst,
        entry.tokens + ((at - entry.tokensAt) / 1000) * SPEAKING_LIMITS.perSecond,
      );
      entry.tokensAt = at;
      if (entry.tokens < 1) return { code: 'rate_limited', message: SPEAKING_RATE_MESSAGE };
      entry.tokens -= 1;
      if (speaking && !muted && entry.present) {
        if (entry.speakingSince === null) entry.speakingSince = at;
      } else {
        stopSpeaking(entry, at);
      }
      return null;
    },

    /** The talk time of a stretch still going on (the report of a live meeting adds it). */
    ongoingTalkMs(participantId: string): number {
      const since = entries.get(participantId)?.speakingSince;
      return since == null ? 0 : Math.max(0, now() - since);
    },

    /** Every write queued so far has finished (tests; shutdown). */
    async settled(): Promise<void> {
      await Promise.all([...entries.values()].map((e) => e.queue));
    },

    /** Shutdown: everyone still present is closed now. */
    async closeAll(): Promise<void> {
      await Promise.all([...entries.keys()].map((id) => absent(id)));
      entries.clear();
    },

    now,
  };
}
export type AttendanceService = ReturnType<typeof createAttendanceService>;
