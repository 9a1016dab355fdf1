import { z } from 'zod';
export { COLLABORATION_BOUNDS } from './constants.js';
import { COLLABORATION_BOUNDS } from './constants.js';

/**
 * The meeting's collaboration document (issue 14): one Yjs document per meeting holding the
 * whiteboard (`Y.Map` 'whiteboard': element id → Excalidraw element) and the shared notes
 * (`Y.XmlFragment` 'notes', ProseMirror through y-prosemirror). The server keeps it, persists it
 * with the meeting and syncs it over the meeting's WebSocket:
 *
 * - client → server `collaboration_update {data}` with `data` one of `collaborationPayloadSchema`;
 * - server → client `collaboration_update {fromParticipant, data}` with `data` one of
 *   `collaborationBroadcastSchema` (best effort: dropped for a socket that does not read);
 * - server → client `collaboration_sync {syncId, part, parts, update, stateVector}`: the answer to
 *   a `sync_request`, in parts (never dropped).
 *
 * Binary Yjs messages travel as base64 strings.
 */
export const COLLABORATION_DOC = {
  whiteboard: 'whiteboard',
  notes: 'notes',
} as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const base64Of = (maxBytes: number, what: string) =>
  z
    .string()
    .max(Math.ceil(maxBytes / 3) * 4, `${what} is too large`)
    .regex(BASE64, `${what} must be base64`);

/** The `data` of a client's collaboration_update. */
export const collaborationPayloadSchema = z.discriminatedUnion('kind', [
  /** Asks for what the server has that this client lacks (answered by collaboration_sync). */
  z.object({
    kind: z.literal('sync_request'),
    stateVector: base64Of(COLLABORATION_BOUNDS.maxStateVectorBytes, 'stateVector'),
  }),
  /** A Yjs update made by this client (or what it had that the server lacked). */
  z.object({ kind: z.literal('update'), update: base64Of(COLLABORATION_BOUNDS.maxUpdateBytes, 'update') }),
  /** A y-protocols awareness update: this client's cursor, name and colour. */
  z.object({
    kind: z.literal('awareness'),
    update: base64Of(COLLABORATION_BOUNDS.maxAwarenessBytes, 'awareness update'),
  }),
]);
export type CollaborationPayload = z.infer<typeof collaborationPayloadSchema>;

/** The `data` of a server's collaboration_update. */
export const collaborationBroadcastSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('update'), update: z.string() }),
  z.object({ kind: z.literal('awareness'), update: z.string() }),
]);
export type CollaborationBroadcast = z.infer<typeof collaborationBroadcastSchema>;

/** One part of the answer to a sync_request (the parts' `update`s concatenate, base64-decoded). */
export const collaborationSyncSchema = z.object({
  type: z.literal('collaboration_sync'),
  syncId: z.string(),
  part: z.number().int().min(0),
  parts: z.number().int().min(1),
  /** Base64 of this part's bytes of the Yjs update the client lacks. */
  update: z.string(),
  /** Base64 of the server's state vector (in the last part only; '' in the others). */
  stateVector: z.string(),
  /** Base64 of the awareness states the server knows (in the last part only). */
  awareness: z.string(),
});
export type CollaborationSync = z.infer<typeof collaborationSyncSchema>;

/** GET /api/meetings/{id}/notes: the meeting's shared notes, for its owner after the meeting. */
export const meetingNotesSchema = z.object({
  /** ProseMirror JSON of the notes (a `doc` node); null when nobody wrote any. */
  doc: z.record(z.string(), z.unknown()).nullable(),
  /** The notes as plain text, one block a line. */
  text: z.string(),
  updatedAt: z.string().nullable(),
  /** Persisted size of the meeting's collaboration document, in bytes. */
  bytes: z.number(),
});
export type MeetingNotes = z.infer<typeof meetingNotesSchema>;
