import { z } from 'zod';
export { RECORDING_LIMIT_TEXTS, RECORDING_TEXTS, spokenDuration } from './texts.js';

/**
 * Meeting recording (issue 17 item 5).
 *
 * - client → server `set_recording {requestId, on}` (the host; only when the meeting allows
 *   recording and the server can record): turns the room's recording on or off. Answered with
 *   `ack`, or `error` with a message that says why (`forbidden` for a non-host).
 * - server → client `recording_state {recording}`: to everyone when it changes, and after
 *   `joined` to each participant (a reload or a late joiner sees it too).
 * - `GET /api/recordings` (signed in): the recordings of the caller's own meetings, newest first.
 * - `GET /api/recordings/{id}/download` (signed in, the meeting's host): the file (404 unknown,
 *   403 another host's meeting, 409 while it is still being processed or failed);
 *   `GET /api/recordings/{id}/play` the same inline, for a player (byte ranges: 206 / 416).
 * - `DELETE /api/recordings/{id}` (the meeting's host): 204; 409 while it still records.
 */

/** The room's recording, as every participant sees it. */
export const recordingStateSchema = z.object({
  active: z.boolean(),
  /** ISO 8601, while active. */
  startedAt: z.string().nullable(),
  /** Whether the host can record this meeting here (allowRecording, and an SFU to record on). */
  available: z.boolean(),
  /** Why not, when `available` is false (RECORDING_TEXTS). */
  unavailableReason: z.string().nullable(),
  /** ISO 8601: when the recording stops by itself (its length limit), while active. */
  stopsAt: z.string().nullable().default(null),
  /**
   * A limit that is near (length or the host's storage), or the one that stopped it; null when
   * none. Everyone's room shows it.
   */
  limitNotice: z.string().nullable().default(null),
});
export type RecordingState = z.infer<typeof recordingStateSchema>;

export const recordingStatusSchema = z.enum(['recording', 'processing', 'ready', 'failed']);
export type RecordingStatus = z.infer<typeof recordingStatusSchema>;

/** One recording, as My Meetings lists it. */
export const recordingSchema = z.object({
  id: z.string(),
  /** The meeting's public id (ddd-ddd-ddd). */
  meetingId: z.string(),
  meetingTitle: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Seconds, measured on the finished file (null until ready). */
  durationSeconds: z.number().nullable(),
  /** Bytes of the finished file (null until ready). */
  size: z.number().nullable(),
  status: recordingStatusSchema,
  error: z.string().nullable(),
  /** `GET /api/recordings/{id}/download`, once ready. */
  downloadUrl: z.string().nullable(),
  /** `GET /api/recordings/{id}/play` (inline, with byte ranges, for the app's player), once ready. */
  playUrl: z.string().nullable().default(null),
});
export type Recording = z.infer<typeof recordingSchema>;
export const recordingListSchema = z.array(recordingSchema);

export const recordingIdParamsSchema = z.object({ id: z.uuid('Unknown recording') });

/** The file name a recording downloads as: `parley-recording-123-456-789-2025-01-31-1405.mp4`. */
export function recordingFileName(meetingId: string, startedAt: Date): string {
  const iso = startedAt.toISOString();
  return `parley-recording-${meetingId}-${iso.slice(0, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}.mp4`;
}
