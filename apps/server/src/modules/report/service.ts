import type { AttendanceEntry, MeetingReport } from '@parley/protocol';
import type { MeetingRow } from '../../db/schema/index.js';
import { HttpError, notFound } from '../../http/errors.js';
import type { AttendanceService } from './attendance.js';
import type { ReportRepository } from './repository.js';

export const REPORT_MESSAGES = { notFound: 'Meeting not found' } as const;

/** What the report reads of the AI summary (modules/ai: read only, never changed). */
export type SavedSummaryReader = (meeting: MeetingRow) => Promise<{
  summary: string;
  actionItems: NonNullable<MeetingReport['summary']>['actionItems'];
  decisions: NonNullable<MeetingReport['summary']>['decisions'];
  generatedAt: string;
} | null>;

/**
 * The meeting report (issue 14) for the meeting's owner: duration (first entry to last departure),
 * attendance with talk time, chat and file counts, and the AI summary when one exists. Anyone else
 * is told the meeting does not exist (404), as for every meeting route.
 */
export function createReportService(deps: {
  repo: ReportRepository;
  attendance: Pick<AttendanceService, 'ongoingTalkMs' | 'now'>;
  savedSummary: SavedSummaryReader;
}) {
  const { repo } = deps;

  return {
    /** The meeting, if `userId` owns it; 404 otherwise. */
    async owned(publicId: string, userId: string): Promise<MeetingRow> {
      const meeting = await repo.findMeeting(publicId);
      if (!meeting || meeting.hostId !== userId) throw notFound(REPORT_MESSAGES.notFound);
      return meeting;
    },

    async report(meeting: MeetingRow): Promise<MeetingReport> {
      const [rows, counts, summary] = await Promise.all([
        repo.attendance(meeting.id),
        repo.counts(meeting.id),
        deps.savedSummary(meeting).catch((err: unknown) => {
          if (err instanceof HttpError && err.statusCode === 404) return null;
          throw err;
        }),
      ]);
      const now = deps.attendance.now();
      const attendance: AttendanceEntry[] = rows.map((r) => {
        const end = r.leftAt ? r.leftAt.getTime() : now;
        return {
          participantId: r.participantId,
          name: r.name,
          isHost: r.isHost,
          joinedAt: r.joinedAt.toISOString(),
          leftAt: r.leftAt ? r.leftAt.toISOString() : null,
          presentMs: Math.max(0, end - r.joinedAt.getTime()),
          talkMs: r.talkMs + (r.leftAt ? 0 : deps.attendance.ongoingTalkMs(r.participantId)),
        };
      });
      const start = rows.length ? Math.min(...rows.map((r) => r.joinedAt.getTime())) : null;
      const stillIn = rows.some((r) => !r.leftAt);
      const end = rows.length
        ? stillIn
          ? now
          : Math.max(...rows.map((r) => r.leftAt?.getTime() ?? 0))
        : null;
      return {
        meetingId: meeting.meetingId,
        title: meeting.title,
        startedAt: start === null ? null : new Date(start).toISOString(),
        endedAt: end === null || stillIn ? null : new Date(end).toISOString(),
        durationMs: start === null || end === null ? 0 : Math.max(0, end - start),
        attendance,
        totals: {
          participants: new Set(rows.map((r) => r.participantId)).size,
          talkMs: attendance.reduce((sum, a) => sum + a.talkMs, 0),
          chatMessages: counts.chatMessages,
          files: counts.files,
        },
        summary: summary
          ? {
              summary: summary.summary,
              actionItems: summary.actionItems,
              decisions: summary.decisions,
              generatedAt: summary.generatedAt,
            }
          : null,
      };
    },
  };
}
export type ReportService = ReturnType<typeof createReportService>;
