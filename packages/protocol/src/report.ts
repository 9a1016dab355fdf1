import { z } from 'zod';
import { actionItemSchema, summaryPointSchema } from './ai.js';

/**
 * The files area and the meeting report (issue 14).
 *
 * - `GET /api/meetings/{id}/files` (a participant's join token): everything shared in the meeting,
 *   chat attachments and direct uploads alike, oldest first; `file_shared {file}` tells the room of
 *   each new one.
 * - client → server `speaking {speaking}`: this participant's microphone started or stopped
 *   carrying speech (detected in its browser, sent only while unmuted). The server times the
 *   stretches on its own clock and sums them as the participant's talk time.
 * - `GET /api/meetings/{id}/report` and `/report.pdf` (the meeting's owner only; 404 for anyone
 *   else): duration, attendance, talk time, chat and file counts, and the AI summary when there is
 *   one.
 */

export const SPEAKING_LIMITS = {
  /** `speaking` messages a participant may send a second (sustained), with a burst. */
  perSecond: 4,
  burst: 10,
} as const;

/** A file shared in a meeting, as the files area lists it. */
export const sharedFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  mimeType: z.string(),
  /** Download URL (`GET /api/files/{id}`), participants of the meeting only. */
  url: z.string(),
  /** The sharer's name in the room at the time ("Someone" for files shared before names were kept). */
  uploaderName: z.string(),
  uploaderId: z.string(),
  /** ISO 8601. */
  sharedAt: z.string(),
});
export type SharedFile = z.infer<typeof sharedFileSchema>;
export const sharedFileListSchema = z.array(sharedFileSchema);

/** One participant's row of the report (one per room participant, from first entry). */
export const attendanceEntrySchema = z.object({
  participantId: z.string(),
  name: z.string(),
  isHost: z.boolean(),
  /** ISO 8601. */
  joinedAt: z.string(),
  /** ISO 8601; null while the participant is still in. */
  leftAt: z.string().nullable(),
  /** Time in the meeting (to now while still in). */
  presentMs: z.number(),
  /** Summed speaking time. */
  talkMs: z.number(),
});
export type AttendanceEntry = z.infer<typeof attendanceEntrySchema>;

export const meetingReportSchema = z.object({
  meetingId: z.string(),
  title: z.string(),
  /** First entry into the room; null when nobody ever joined. */
  startedAt: z.string().nullable(),
  /** Last departure; null while someone is still in (or nobody joined). */
  endedAt: z.string().nullable(),
  durationMs: z.number(),
  attendance: z.array(attendanceEntrySchema),
  totals: z.object({
    participants: z.number(),
    talkMs: z.number(),
    chatMessages: z.number(),
    files: z.number(),
  }),
  /** The AI summary when one was generated for the meeting. */
  summary: z
    .object({
      summary: z.string(),
      actionItems: z.array(actionItemSchema),
      decisions: z.array(summaryPointSchema),
      generatedAt: z.string(),
    })
    .nullable(),
});
export type MeetingReport = z.infer<typeof meetingReportSchema>;
