import type { FastifyBaseLogger } from 'fastify';
import type { MeetingIdColumn, RetentionRepository } from './repository.js';

/** Spec §9: content goes 30 days after its meeting ended, unless the host saved it. */
export const RETENTION_DAYS = 30;
const DAY_MS = 86_400_000;
/** Meetings handled per kind and run; the next run takes the rest. */
const BATCH = 200;

/**
 * One kind of meeting content the job deletes (chat, files, transcripts, summaries, recordings,
 * notes and whiteboard, attendance). `meetingId` is its table's column that references meetings.id.
 */
export interface RetainedContent {
  name: string;
  meetingId: MeetingIdColumn;
  /** Deletes this kind of content of one meeting; answers how many items went. */
  purge(meetingId: string): Promise<number>;
}

export interface RetentionDeps {
  repo: RetentionRepository;
  kinds: RetainedContent[];
  log: FastifyBaseLogger;
  days?: number;
}

export type RetentionRun = Record<string, { meetings: number; items: number; failed: number }>;

/**
 * The retention job: each run deletes, for every kind, the content of meetings that ended more
 * than `days` ago and that the host did not keep. A failure on one meeting is logged and the
 * others go on; that meeting is found again by the next run.
 */
export function createRetentionJob({ repo, kinds, log, days = RETENTION_DAYS }: RetentionDeps) {
  return {
    async runOnce(now: Date): Promise<RetentionRun> {
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      const run: RetentionRun = {};
      for (const kind of kinds) {
        const result = { meetings: 0, items: 0, failed: 0 };
        run[kind.name] = result;
        for (const meetingId of await repo.dueMeetingsWith(kind.meetingId, cutoff, BATCH)) {
          try {
            result.items += await kind.purge(meetingId);
            result.meetings++;
          } catch (err) {
            result.failed++;
            log.error({ err, meetingId, kind: kind.name }, 'retention: could not delete meeting content');
          }
        }
      }
      if (Object.values(run).some((r) => r.meetings > 0 || r.failed > 0)) {
        log.info({ run, cutoff }, 'retention: deleted the content of meetings past their retention');
      }
      return run;
    },
  };
}
export type RetentionJob = ReturnType<typeof createRetentionJob>;
