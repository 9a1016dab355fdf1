import { z } from 'zod';
import type { SERVER_MESSAGE_TYPES } from './constants.js';
import { NAME_LIMITS, SFU_VIEW, WS_LIMITS } from './constants.js';
import { translationLanguageSchema } from './ai.js';
import { chatMessageSchema, participantSchema, transcriptEntrySchema } from './entities.js';
import { collaborationSyncSchema } from './collaboration.js';
import { freeTimeStateSchema } from './billing.js';
import { sharedFileSchema } from './report.js';
import { recordingStateSchema } from './recordings.js';
import { safe } from './safe-text.js';
export { WS_LIMITS, WS_CLOSE, TEST_ROOM_ID, ROOM_FILE_LIMITS } from './constants.js';

/**
 * The realtime protocol on the WebSocket at /ws (spec §7). One discriminated union per direction,
 * keyed by `type`; changed only by adding. The server derives the sender of every message from
 * its own record of the socket: no client field names the sender. Messages that need an answer
 * carry a `requestId`, echoed in the reply or in an `error`.
 *
 * Connection: `/ws?meetingId={id}&name={name}&host={true|false}`. The first message must be
 * `join_meeting` with the `joinToken` that `POST /api/meetings/{id}/join` answered; the same token
 * resumes the same participant after a dropped connection (grace period below).
 */

/** Bounds of the free-form `data` of a collaboration_update (whiteboard, notes). */
export const COLLABORATION_LIMITS = {
  /** Deepest nesting of objects and arrays; a whiteboard or notes document needs a handful. */
  maxDepth: 32,
  /** Largest `data` once serialized (bytes of JSON): what one frame can carry. */
  maxBytes: WS_LIMITS.maxMessageBytes,
} as const;

/**
 * How deeply `value` nests objects and arrays, counted without recursion (a 20,000-level value
 * must not exhaust the stack here), stopping as soon as it exceeds `limit`.
 */
export function nestingDepthExceeds(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** Bytes of `s` as UTF-8 (the protocol package runs in browsers and Node without either's types). */
function utf8Length(s: string): number {
  let bytes = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The `data` of a collaboration_update: an object, nested at most COLLABORATION_LIMITS.maxDepth
 * deep and at most COLLABORATION_LIMITS.maxBytes serialized, so that passing it on can never fail.
 */
const collaborationData = z.record(z.string(), z.unknown()).superRefine((data, ctx) => {
  if (nestingDepthExceeds(data, COLLABORATION_LIMITS.maxDepth)) {
    ctx.addIssue({
      code: 'custom',
      message: `Collaboration data may nest at most ${COLLABORATION_LIMITS.maxDepth} levels deep`,
    });
    return;
  }
  if (utf8Length(JSON.stringify(data)) > COLLABORATION_LIMITS.maxBytes) {
    ctx.addIssue({
      code: 'custom',
      message: `Collaboration data may be at most ${COLLABORATION_LIMITS.maxBytes} bytes`,
    });
  }
});

/** A participant's display name in the room (spec §5: trimmed, 2 to 50 characters). */
export const roomNameSchema = safe(z.string().trim().min(NAME_LIMITS.roomMin).max(NAME_LIMITS.roomMax));
const roomName = roomNameSchema;

export const wsQuerySchema = z.object({
  meetingId: safe(z.string().min(1).max(64)),
  name: roomName.optional(),
  host: z.enum(['true', 'false']).optional(),
});

const requestId = safe(z.string().max(64)).optional();
const participantId = safe(z.string().min(1).max(64));
const sdp = z.object({
  type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
  sdp: z.string().max(200_000),
});
const iceCandidate = z
  .object({
    candidate: z.string().max(2000),
    sdpMid: z.string().max(64).nullable().optional(),
    sdpMLineIndex: z.number().int().min(0).max(1000).nullable().optional(),
    usernameFragment: z.string().max(256).nullable().optional(),
  })
  .nullable();

// ---------------------------------------------------------------- client → server

export const clientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('join_meeting'), requestId, joinToken: z.string().min(16).max(256) }),
  z.object({ type: z.literal('request_existing_connections'), requestId }),
  z.object({ type: z.literal('offer'), targetParticipant: participantId, offer: sdp }),
  z.object({ type: z.literal('answer'), targetParticipant: participantId, answer: sdp }),
  z.object({ type: z.literal('ice-candidate'), targetParticipant: participantId, candidate: iceCandidate }),
  z.object({
    type: z.literal('chat_message'),
    requestId,
    content: safe(z.string().max(WS_LIMITS.maxChatLength), { multiline: true }),
    /** An uploaded file's id (POST /api/meetings/{id}/files) to attach. */
    fileId: safe(z.string().max(64)).optional(),
  }),
  z.object({
    type: z.literal('media_state'),
    isMuted: z.boolean(),
    isVideoOn: z.boolean(),
    isScreenSharing: z.boolean().optional(),
  }),
  z.object({ type: z.literal('mute_all'), requestId, muted: z.boolean() }),
  z.object({
    type: z.literal('mute_participant'),
    requestId,
    targetParticipantId: participantId,
    muted: z.boolean(),
  }),
  z.object({ type: z.literal('remove_participant'), requestId, targetParticipantId: participantId }),
  z.object({ type: z.literal('admit_participant'), requestId, targetParticipantId: participantId }),
  z.object({ type: z.literal('deny_participant'), requestId, targetParticipantId: participantId }),
  z.object({ type: z.literal('collaboration_update'), data: collaborationData }),
  z.object({ type: z.literal('leave_meeting') }),
  z.object({ type: z.literal('ping'), requestId }),
  /** Added (host): lifts the deny list for a participant the host removed (its id in `removed_list`). */
  z.object({ type: z.literal('allow_rejoin'), requestId, removedId: participantId }),
  /**
   * Added: turns the meeting's live transcription on or off (room state). Starting needs a Pro
   * participant (`error subscription_required` otherwise); stopping: the one who started it, a
   * host, or any Pro participant. While it is on, every participant's browser streams its own
   * microphone as binary frames (AUDIO_STREAM: 16 kHz mono s16le PCM).
   */
  z.object({ type: z.literal('set_transcription'), requestId, on: z.boolean() }),
  /**
   * Added: the language this listener wants transcript lines translated into (Live Translation),
   * or null for none. Each line is translated once per language in use.
   */
  z.object({
    type: z.literal('set_caption_language'),
    requestId,
    language: translationLanguageSchema.nullable(),
  }),
  /**
   * Added: this participant's microphone started (true) or stopped (false) carrying speech, as
   * its browser detects it while unmuted. The server sums the stretches as talk time (the
   * meeting report); no reply. Limited to SPEAKING_LIMITS (error rate_limited beyond).
   */
  z.object({ type: z.literal('speaking'), speaking: z.boolean() }),
  /**
   * Added (SFU, issue 17): this participant's publisher offer for the room's SFU; answered with
   * `sfu_answer` (same requestId) or `error`. Only while the room's media mode is `sfu`.
   */
  z.object({ type: z.literal('sfu_publish'), requestId, offer: sdp }),
  /**
   * Added (SFU): receive everyone else's media from the SFU, now and as they come and go; the
   * server then sends `sfu_offer` on every change. Answered with `ack`.
   */
  z.object({ type: z.literal('sfu_subscribe'), requestId }),
  /**
   * Added (SFU): the room went back to peer-to-peer (`media_mode p2p`) and this page's mesh links
   * carry media now: its SFU publisher and subscriber may go. Answered with `ack`; refused while
   * the room is on the SFU.
   */
  z.object({ type: z.literal('sfu_leave'), requestId }),
  /**
   * Added (SFU): this browser's answer to an `sfu_offer`, naming it by its `offerId`. The server
   * takes only the answer to the offer it waits on: an offer sent again (its answer was late) is
   * answered twice, and the late copy must not be taken for the answer to a newer offer.
   */
  z.object({ type: z.literal('sfu_answer'), offerId: z.number().int().nonnegative(), answer: sdp }),
  /** Added (SFU): an ICE candidate of this browser's publisher or subscriber connection (null: done). */
  z.object({
    type: z.literal('sfu_trickle'),
    target: z.enum(['publisher', 'subscriber']),
    candidate: iceCandidate,
  }),
  /**
   * Added (SFU, issue 17 "Scale"): the remote videos this browser shows now and the simulcast
   * layer each tile needs (`high`: the large active-speaker tile; `low`: a thumbnail). The SFU
   * sends only these participants' video (others' video is unsubscribed; audio is not affected).
   * At most SFU_VIEW.maxVideos; ids not publishing in the room are ignored. No reply.
   */
  z.object({
    type: z.literal('sfu_view'),
    requestId,
    videos: z
      .array(z.object({ participantId, quality: z.enum(['high', 'medium', 'low']) }))
      .max(SFU_VIEW.maxVideos),
  }),
  /**
   * Added (issue 17): a video this page shows through the SFU has decoded nothing for a while
   * (SFU_VIEW.stallMs): the server asks that participant's publisher for a key frame. A new
   * subscription waits for one, and a request that crossed another one's may have been dropped
   * by the sender. Rate-limited by the server (SFU_VIEW.keyframeEveryMs a pair); no reply.
   */
  z.object({ type: z.literal('sfu_keyframe'), requestId, participantId }),
  /**
   * Added (issue 17, recording): the host turns the meeting's recording on or off (room state;
   * only when the meeting allows recording and the server has an SFU to record on; a room still
   * peer-to-peer moves to the SFU). Answered with `ack` or `error`.
   */
  z.object({ type: z.literal('set_recording'), requestId, on: z.boolean() }),
  /**
   * Added (issue 34, consent): this participant's answer to the transcription notice. `allowed`:
   * its microphone may be transcribed while transcription is on (until it is turned off; the
   * next start asks again); `declined`: its audio is not sent, and the server transcribes none
   * of it, until it allows again. Answered with `ack`; everyone gets `participant_updated` with
   * its `transcriptionConsent`, and the transcript says who declined.
   */
  z.object({
    type: z.literal('set_transcription_consent'),
    requestId,
    consent: z.enum(['allowed', 'declined']),
  }),
  /**
   * Added (issue 37, End meeting for everyone): the host ends the meeting. Every participant's
   * socket closes with WS_CLOSE.meetingEnded (4005, the host's too) and the meeting ends as when
   * the last one leaves; anyone else gets `error forbidden` ("Only the host can do this", the
   * 403 of the room's rules). Answered with `ack` before the sockets close.
   */
  z.object({ type: z.literal('end_meeting'), requestId }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;
export type ClientMessageType = ClientMessage['type'];

// ---------------------------------------------------------------- server → client

export const iceServerSchema = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof iceServerSchema>;

/**
 * Added (issue 34): a participant's answer to the transcription notice. `allowed`: transcribed
 * while transcription is on; `declined`: never transcribed until it allows again; null: no answer
 * yet (not transcribed either). Answers of `allowed` last until transcription is turned off.
 */
export const transcriptionConsentSchema = z.enum(['allowed', 'declined']).nullable();
export type TranscriptionConsent = z.infer<typeof transcriptionConsentSchema>;

export const roomParticipantSchema = participantSchema.extend({
  isScreenSharing: z.boolean(),
  /** False while the participant's socket is gone but within the resume grace period. */
  isConnected: z.boolean(),
  /** Added (issue 34): its answer to the transcription notice (absent from older servers: null). */
  transcriptionConsent: transcriptionConsentSchema.optional(),
});
export type RoomParticipant = z.infer<typeof roomParticipantSchema>;

export const waitingParticipantSchema = z.object({ id: z.string(), name: z.string() });

/** Added: the meeting's live transcription (room state), as every participant sees it. */
export const transcriptionStateSchema = z.object({
  active: z.boolean(),
  /** Who turned it on (null while off). */
  startedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  startedAt: z.string().nullable(),
});
export type TranscriptionState = z.infer<typeof transcriptionStateSchema>;

/** Spec §3's transcript entry, with what the room adds to it. */
export const liveTranscriptSchema = transcriptEntrySchema.extend({
  /** Added: the speaker (the server's record of the socket that streamed the audio). */
  participantId: z.string().optional(),
  /** Added: the language of translatedText (in this listener's caption language; null when it
   * chose none, or the same language), or why there is none for the listener's choice. */
  translationLanguage: z.string().nullable().optional(),
  translationError: z.enum(['unsupported', 'failed']).nullable().optional(),
  /**
   * Added (issue 34): `notice` for a line the room wrote about the transcription itself (a
   * participant declined, or allowed it again), not speech; absent or `speech` otherwise.
   */
  kind: z.enum(['speech', 'notice']).optional(),
  /**
   * Added (issue 37): the speech segment this final line ends, when interim words were sent for
   * it (`transcript_partial` with the same `segmentId`): the listener replaces them with it.
   */
  segmentId: z.string().optional(),
});
export type LiveTranscript = z.infer<typeof liveTranscriptSchema>;

/**
 * Added (issue 37): the words heard so far of a segment of speech still in progress, to show
 * while someone speaks. Each one replaces the last of its `segmentId` (the text may change
 * completely); the final line (`new_transcript` with the same `segmentId`) replaces them all, and
 * an empty `text` withdraws them (nothing was kept). Never saved, never translated.
 */
export const partialTranscriptSchema = z.object({
  segmentId: z.string(),
  participantId: z.string(),
  speakerName: z.string(),
  text: z.string(),
  language: z.string(),
  /** When the segment began (ISO time). */
  timestamp: z.string(),
});
export type PartialTranscript = z.infer<typeof partialTranscriptSchema>;

export const serverMessageSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('joined'),
    requestId,
    self: roomParticipantSchema,
    participants: z.array(roomParticipantSchema),
    chatHistory: z.array(chatMessageSchema),
    iceServers: z.array(iceServerSchema),
    meeting: z.object({ meetingId: z.string(), title: z.string(), startedAt: z.string() }),
    /** True when this socket resumed a participant whose previous socket dropped. */
    resumed: z.boolean(),
    /**
     * Added: the host's Mute All is on (room state kept by the server). A participant who joins
     * while it is on joins muted (`self.isMuted`); the host's button shows it after a reload.
     */
    allMuted: z.boolean(),
    /** Added: the meeting's live transcription (on or off, and who started it). */
    transcription: transcriptionStateSchema,
    /**
     * Added: the meeting's last transcript lines (spec §9: 20), oldest first, in the language they
     * were spoken (translations come only live), so a reload or a late joiner sees them too.
     */
    recentTranscripts: z.array(liveTranscriptSchema).max(20).default([]),
  }),
  z.object({ type: z.literal('waiting'), message: z.string() }),
  z.object({ type: z.literal('admitted') }),
  z.object({ type: z.literal('denied'), message: z.string() }),
  z.object({ type: z.literal('waiting_room'), waiting: z.array(waitingParticipantSchema) }),
  /**
   * Added, to hosts: the participants they removed, who cannot join again until a host sends
   * allow_rejoin. Sent on each change and with a host's `joined` when the list is not empty.
   */
  z.object({ type: z.literal('removed_list'), removed: z.array(waitingParticipantSchema) }),
  z.object({
    type: z.literal('existing_connections'),
    requestId,
    participants: z.array(roomParticipantSchema),
  }),
  z.object({ type: z.literal('participant_joined'), participant: roomParticipantSchema }),
  z.object({ type: z.literal('participant_updated'), participant: roomParticipantSchema }),
  z.object({
    type: z.literal('participant_left'),
    participantId: z.string(),
    reason: z.enum(['left', 'removed', 'timeout']),
  }),
  z.object({ type: z.literal('offer'), fromParticipant: z.string(), offer: sdp }),
  z.object({ type: z.literal('answer'), fromParticipant: z.string(), answer: sdp }),
  z.object({ type: z.literal('ice-candidate'), fromParticipant: z.string(), candidate: iceCandidate }),
  chatMessageSchema.extend({ type: z.literal('chat_message'), requestId }),
  z.object({ type: z.literal('mute_all'), muted: z.boolean() }),
  z.object({ type: z.literal('mute_participant'), targetParticipantId: z.string(), muted: z.boolean() }),
  z.object({ type: z.literal('removed'), message: z.string() }),
  z.object({
    type: z.literal('collaboration_update'),
    fromParticipant: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
  z.object({
    type: z.literal('new_transcript'),
    transcript: liveTranscriptSchema,
  }),
  /**
   * Added (issue 37): interim words of a speaker, at most about 3 a second per speaker; droppable
   * for a socket that does not keep up (the final line follows). Clients that do not know it
   * ignore it and see the final lines as before.
   */
  z.object({ type: z.literal('transcript_partial'), partial: partialTranscriptSchema }),
  /**
   * Added, to the speaker only, when it changes: whether this participant's speech is being
   * captioned while transcription is on. `busy`: every speech decoder of the server is in use
   * (the embedded engine serves a fixed number of speakers at once); captions start when one frees.
   * `failed`: the engine could not start a stream for this speaker.
   */
  z.object({
    type: z.literal('caption_status'),
    captioned: z.boolean(),
    reason: z.enum(['busy', 'failed']).nullable(),
  }),
  /** Added: the meeting's live transcription was turned on or off. */
  z.object({ type: z.literal('transcription_state'), transcription: transcriptionStateSchema }),
  /**
   * Added: this participant's free-time clock (spec §4, §9), sent after `joined`, at each
   * threshold (hint, prompt/warning, expiry), every billing tick and when it changes (card saved,
   * the host covers the meeting). `unlimited` for Pro participants and covered meetings.
   */
  z.object({ type: z.literal('free_time'), freeTime: freeTimeStateSchema }),
  /** Added: the free time and grace ran out without a card; the socket then closes with 4020. */
  z.object({ type: z.literal('free_time_ended'), message: z.string() }),
  /**
   * Added (issue 37 item 3): to the meeting's hosts, a participant's free time is counted (the
   * meeting does not cover it) and is about to end (`ending`, at the warning: 5 minutes left) or
   * has run out (`ended`: the grace has begun; without a card they leave when it ends). Once
   * per stage and participant's clock.
   */
  z.object({
    type: z.literal('guest_free_time'),
    participantId: z.string(),
    name: z.string(),
    stage: z.enum(['ending', 'ended']),
    remainingMs: z.number().int().nonnegative(),
    /** The free minutes left, rounded up (5 at `ending`, 0 at `ended`). */
    minutesLeft: z.number().int().nonnegative(),
    graceMs: z.number().int().nonnegative(),
  }),
  /** Added (issue 14): a part of the answer to a collaboration sync_request (never dropped). */
  collaborationSyncSchema,
  /** Added: someone shared a file in the meeting (the files area; chat attachments too). */
  z.object({ type: z.literal('file_shared'), file: sharedFileSchema }),
  /**
   * Added (SFU, issue 17): how the room's media flows. `p2p`: the mesh of offer/answer/ice-candidate;
   * `sfu`: through the server's SFU (sfu_* messages). Sent before `joined` and to everyone when it
   * changes (a third participant moves the room to the SFU); never sent where no SFU exists.
   */
  z.object({
    type: z.literal('media_mode'),
    mode: z.enum(['p2p', 'sfu']),
    /** Added: the SFU restarted (Janus came back): publish and subscribe again. */
    restart: z.boolean().optional(),
    /**
     * Added: sent to the newcomer whose arrival moves the room to the SFU. It connects
     * peer-to-peer to those already here as well (they are still on the mesh with each other),
     * so its first frames come as fast as on the mesh; each link closes once that participant's
     * media flows through the SFU, as theirs do.
     */
    bridge: z.boolean().optional(),
  }),
  /** Added (SFU): the SFU's answer to this participant's `sfu_publish`. */
  z.object({ type: z.literal('sfu_answer'), requestId, answer: sdp }),
  /**
   * Added (SFU): an offer for this participant's subscriber connection (answer with `sfu_answer`
   * and the same `offerId`), and whose media each of its m-lines carries. An offer whose answer is
   * late is sent again with the same `offerId`.
   */
  z.object({
    type: z.literal('sfu_offer'),
    offerId: z.number().int().nonnegative(),
    offer: sdp,
    streams: z.array(
      z.object({
        mid: z.string(),
        participantId: z.string().nullable(),
        kind: z.enum(['audio', 'video', 'data']),
        active: z.boolean(),
      }),
    ),
  }),
  /**
   * Added (SFU, issue 17 "Scale"): who the room's active speaker is (the last participant the SFU
   * heard start talking; null when none has yet or they left). Sent to everyone when it changes,
   * and after `joined` to a newcomer of a room that has one. The room shows them large.
   */
  z.object({ type: z.literal('active_speaker'), participantId: z.string().nullable() }),
  /**
   * Added (recording): the meeting's recording (on or off, and whether the host can start one).
   * Sent after `joined` to the newcomer, and to everyone when it changes.
   */
  z.object({ type: z.literal('recording_state'), recording: recordingStateSchema }),
  z.object({ type: z.literal('pong'), requestId }),
  z.object({ type: z.literal('ack'), requestId }),
  z.object({
    type: z.literal('error'),
    requestId,
    code: z.enum([
      'bad_message',
      'not_joined',
      'already_joined',
      'forbidden',
      'not_found',
      'rate_limited',
      'too_large',
      'invalid_token',
      /** Added: the action needs an active Pro subscription (the client offers the upgrade). */
      'subscription_required',
      /** Added: the server failed handling the message (logged); nothing was done. */
      'internal',
    ]),
    message: z.string(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;
export type ServerMessageType = ServerMessage['type'];
// SERVER_MESSAGE_TYPES (constants.ts, read by the web app) lists exactly these types: adding a
// message to the schema without listing it (or the reverse) fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const serverTypesListed: Same<ServerMessageType, (typeof SERVER_MESSAGE_TYPES)[number]> = true;
void serverTypesListed;
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;
export type ClientMessageOf<T extends ClientMessageType> = Extract<ClientMessage, { type: T }>;

// ---------------------------------------------------------------- REST bodies of the room

export const joinRequestSchema = z.object({
  name: roomName,
  isHost: z.boolean().default(false),
  isMuted: z.boolean().default(true),
  isVideoOn: z.boolean().default(true),
  sessionId: safe(z.string().min(1).max(100)),
  password: z.string().max(200).optional(),
  /**
   * Added: the join token this browser tab was answered last time for this meeting. With it a
   * reload comes back as the same participant; without it a guest's `sessionId` alone makes a
   * new participant (signed-in users come back by their session cookie and `sessionId`).
   */
  resumeToken: safe(z.string().min(16).max(256)).optional(),
  /**
   * Added: a random id this browser keeps (local storage): a guest who gave no e-mail keeps its
   * free-time clock by it across reloads and rejoins.
   */
  browserId: safe(z.string().min(8).max(100)).optional(),
});
export type JoinRequest = z.infer<typeof joinRequestSchema>;

export const joinResponseSchema = z.object({
  id: z.string(),
  joinToken: z.string(),
  isHost: z.boolean(),
  /** 'waiting' when the meeting has a waiting room and the host has not admitted this guest yet. */
  admission: z.enum(['admitted', 'waiting']),
  /**
   * Added: how the room's media will most likely flow once this participant is in, as the server
   * sees it now (`sfu`: the room is on the SFU, or this arrival moves it there). A hint for the
   * page to get ready while its socket connects; `media_mode` on the socket decides.
   */
  mediaMode: z.enum(['p2p', 'sfu']).optional(),
});
export type JoinResponse = z.infer<typeof joinResponseSchema>;

/** The answer of an upload, and `fileData` of a chat message that carries it. */
export const roomFileSchema = z.object({
  id: z.string(),
  name: z.string(),
  size: z.number(),
  mimeType: z.string(),
  /** Download URL (`GET /api/files/{id}`), answered with Content-Disposition: attachment. */
  url: z.string(),
});
export type RoomFile = z.infer<typeof roomFileSchema>;

/**
 * POST /api/meetings/{id}/participants (spec §7: the join form with name and an e-mail for
 * billing). The same checks as /join; answers {id, name} plus the join fields.
 */
export const participantRegistrationSchema = z.object({
  name: roomName,
  email: z.email().max(254).optional(),
  sessionId: safe(z.string().min(1).max(100)).optional(),
  password: z.string().max(200).optional(),
  /** Added: as in joinRequestSchema. */
  resumeToken: safe(z.string().min(16).max(256)).optional(),
  /** Added: as in joinRequestSchema. */
  browserId: safe(z.string().min(8).max(100)).optional(),
  isMuted: z.boolean().default(true),
  isVideoOn: z.boolean().default(true),
});
export type ParticipantRegistration = z.infer<typeof participantRegistrationSchema>;

export const participantRegistrationResponseSchema = joinResponseSchema.extend({ name: z.string() });
export type ParticipantRegistrationResponse = z.infer<typeof participantRegistrationResponseSchema>;

/** GET /api/meetings/{id}/participants: the admitted participants (connected or within grace). */
export const roomParticipantListSchema = z.array(roomParticipantSchema);
