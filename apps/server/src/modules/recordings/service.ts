import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  RECORDING_TEXTS,
  recordingFileName,
  type Recording,
  type RecordingState,
  type ServerMessage,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema/index.js';
import { forbidden, HttpError, notFound } from '../../http/errors.js';
import { RoomError } from '../rooms/errors.js';
import type { RoomState } from '../rooms/state.js';
import type { Actor, Audience } from '../rooms/transport.js';
import { processRecording, rawFilesOf, type RecordingTools } from './process.js';
import type { RecordingsRepository, RecordingWithMeeting } from './repository.js';

/** The media service's part recording uses (modules/media). */
export interface RecordingMedia {
  canRecord(): boolean;
  readonly recordingDir: string | null;
  moveToSfu(roomId: string): Promise<boolean>;
  startRecording(roomId: string, name: string): Promise<void>;
  stopRecording(roomId: string): Promise<void>;
}

export interface RecordingsServiceDeps {
  repo: RecordingsRepository;
  media: RecordingMedia;
  /** The acting participant, admitted, and its room (RoomService.admitted). */
  admitted(actor: Actor): Promise<{ room: RoomState; member: { isHost: boolean; id: string } }>;
  /** Whether a user has Pro now (app.subscriptions.isPro): recording is the host's Pro feature. */
  isPro(userId: string): Promise<boolean>;
  /** The room now (RoomService.room); null when it is over. */
  room(roomId: string): Promise<RoomState | null | undefined>;
  publish(roomId: string, to: Audience, message: ServerMessage): void;
  /** Queues the post-processing of a finished recording (the jobs queue). */
  enqueue(recordingId: string): Promise<void>;
  /** Folder of finished files (`${DATA_DIR}/recordings`). */
  dir: string;
  tools: RecordingTools;
  /** The post-processing tools that are missing (checked once at start). */
  missingTools: string[];
  log: FastifyBaseLogger;
  now?: () => Date;
}

interface Active {
  id: string;
  startedAt: Date;
}

/**
 * Meeting recording (issue 17 item 5). Recording is room state: the host starts and stops it,
 * everyone hears `recording_state`, newcomers after `joined`. Janus records the publishers (a
 * peer-to-peer room moves to the SFU first); when the recording stops — by the host, or because
 * the room emptied or ended — its row goes to `processing` and a job makes the one file
 * (process.ts). Which rooms record lives in this process, beside the SFU state it depends on.
 */
export function createRecordingsService(deps: RecordingsServiceDeps) {
  const { repo, media, log } = deps;
  const now = deps.now ?? (() => new Date());
  const active = new Map<string, Active>();
  /** Each room's start/stop run one at a time (a double click must not start two). */
  const locks = new Map<string, Promise<unknown>>();
  const serial = <T>(roomId: string, fn: () => Promise<T>): Promise<T> => {
    const next = (locks.get(roomId) ?? Promise.resolve()).catch(() => undefined).then(fn);
    locks.set(roomId, next);
    next
      .finally(() => {
        if (locks.get(roomId) === next) locks.delete(roomId);
      })
      .catch(() => undefined); // the caller hears the failure

    return next;
  };

  /** Why this room cannot be recorded here, or null when it can. */
  async function unavailable(room: RoomState): Promise<string | null> {
    if (room.meeting.ephemeral) return RECORDING_TEXTS.testRoom;
    // Checked whenever it is used: a host whose Pro lapsed cannot start one.
    const hostId = room.meeting.hostId;
    if (!hostId || !(await deps.isPro(hostId).catch(() => false))) return RECORDING_TEXTS.needsPro;
    if (!media.canRecord()) return RECORDING_TEXTS.noSfu;
    if (deps.missingTools.length > 0)
      return `Recording needs ${deps.missingTools.join(', ')} on the server (scripts/install-system-deps.sh)`;
    const allowed = await repo.allowsRecording(room.meeting.id);
    if (!allowed) return RECORDING_TEXTS.notAllowed;
    return null;
  }

  async function stateOf(room: RoomState): Promise<RecordingState> {
    const a = active.get(room.id);
    const reason = await unavailable(room);
    return {
      active: a !== undefined,
      startedAt: a ? a.startedAt.toISOString() : null,
      available: reason === null,
      unavailableReason: reason,
    };
  }

  const announce = async (room: RoomState) =>
    deps.publish(room.id, { kind: 'all' }, { type: 'recording_state', recording: await stateOf(room) });

  /** Ends the room's recording: Janus stops writing, the row waits for its file. */
  async function stopNow(roomId: string): Promise<Active | null> {
    const a = active.get(roomId);
    if (!a) return null;
    active.delete(roomId);
    await media
      .stopRecording(roomId)
      .catch((err: unknown) => log.warn({ err, roomId }, 'could not stop the janus recording'));
    const row = await repo.finish(a.id, now());
    if (row) await deps.enqueue(a.id);
    return a;
  }

  return {
    /** The recording state a participant of the room sees (after its `joined`). */
    async stateFor(roomId: string): Promise<RecordingState | null> {
      const room = await deps.room(roomId);
      return room ? stateOf(room) : null;
    },

    /**
     * set_recording (host): starts or stops the room's recording. Answers whether it changed.
     * Refusals say why: host only, the meeting does not allow it, no SFU or tools here.
     */
    async setRecording(actor: Actor, on: boolean): Promise<boolean> {
      const { room, member } = await deps.admitted(actor);
      if (!member.isHost) throw new RoomError('forbidden', 403, RECORDING_TEXTS.hostOnly);
      return serial(room.id, async () => {
        if (!on) {
          const stopped = await stopNow(room.id);
          if (stopped) await announce(room);
          return stopped !== null;
        }
        if (active.has(room.id)) return false;
        const reason = await unavailable(room);
        if (reason === RECORDING_TEXTS.needsPro) throw new RoomError('subscription_required', 403, reason);
        if (reason) throw new RoomError('forbidden', 409, reason);
        // Janus records what it carries: a peer-to-peer room moves to the SFU first, and its
        // publishers are recorded from their first packet when they publish there.
        if (!(await media.moveToSfu(room.id))) throw new RoomError('internal', 503, RECORDING_TEXTS.noSfu);
        const startedAt = now();
        const row = await repo.create({ meetingId: room.meeting.id, startedBy: member.id, startedAt });
        try {
          await media.startRecording(room.id, row.id);
        } catch (err) {
          log.warn({ err, roomId: room.id }, 'janus could not start recording');
          await media.stopRecording(room.id).catch(() => undefined);
          await repo.markFailed(row.id, 'The video server could not start recording');
          throw new RoomError('internal', 503, 'The video server could not start recording; try again');
        }
        active.set(room.id, { id: row.id, startedAt });
        log.info({ roomId: room.id, recordingId: row.id }, 'recording started');
        await announce(room);
        return true;
      });
    },

    /**
     * Someone left, or the room ended: when nobody is left in it, its recording stops (and is
     * processed) without the host.
     */
    async roomMayBeEmpty(roomId: string): Promise<void> {
      if (!active.has(roomId)) return;
      const room = await deps.room(roomId);
      const someone =
        room && !room.ended && [...room.members.values()].some((m) => m.admission === 'admitted');
      if (someone) return;
      await serial(roomId, () => stopNow(roomId));
      log.info({ roomId }, 'recording stopped: the room is empty');
    },

    /** The meeting was deleted (its rows went with it): Janus stops, the files go. */
    async meetingDeleted(meetingId: string): Promise<void> {
      await serial(meetingId, async () => {
        if (!active.delete(meetingId)) return;
        await media.stopRecording(meetingId).catch(() => undefined);
      });
      await rm(path.join(deps.dir, meetingId), { recursive: true, force: true });
    },

    /** Server shutdown: recordings in progress stop and are processed by the next run. */
    async stopAll(): Promise<void> {
      for (const roomId of [...active.keys()]) await serial(roomId, () => stopNow(roomId));
    },

    /** The post-processing job: makes the file, marks the row ready (or failed, on the last try). */
    async process(recordingId: string, lastAttempt: boolean): Promise<void> {
      const row = await repo.get(recordingId);
      if (!row || row.status !== 'processing' || !row.endedAt) return;
      const rawDir = media.recordingDir;
      try {
        if (!rawDir) throw new Error('This server has no recordings folder');
        const rel = path.join(row.meetingId, `${row.id}.mp4`);
        const outFile = path.join(deps.dir, rel);
        await mkdir(path.dirname(outFile), { recursive: true });
        const started = Date.now();
        const result = await processRecording({
          rawDir,
          name: row.id,
          outFile,
          startedAt: row.startedAt,
          endedAt: row.endedAt,
          tools: deps.tools,
        });
        await repo.markReady(row.id, { filePath: rel, size: result.size, durationMs: result.durationMs });
        log.info(
          { recordingId: row.id, ...result, processingMs: Date.now() - started },
          'recording processed',
        );
        // The raw streams served their purpose.
        for (const f of await rawFilesOf(rawDir, row.id)) await rm(f, { force: true });
      } catch (err) {
        log.warn({ err, recordingId: row.id }, 'recording post-processing failed');
        if (!lastAttempt) throw err;
        await repo.markFailed(row.id, (err as Error).message.slice(0, 500));
      }
    },

    /** Rows a stopped server left `recording`: what Janus wrote is processed up to now. */
    async recover(): Promise<void> {
      for (const row of await repo.orphaned()) {
        if ([...active.values()].some((a) => a.id === row.id)) continue;
        const finished = await repo.finish(row.id, now());
        if (finished) await deps.enqueue(row.id);
      }
    },

    /** My Meetings: the signed-in host's recordings. */
    async listMine(user: UserRow): Promise<Recording[]> {
      return (await repo.listForHost(user.id)).map(toRecording);
    },

    /** The host's finished file: 404 unknown, 403 another's meeting, 409 not ready. */
    async forDownload(user: UserRow, id: string): Promise<{ file: string; name: string; size: number }> {
      const found = await repo.findWithMeeting(id);
      if (!found) throw notFound('Recording not found');
      if (found.hostId !== user.id) throw forbidden('Only the meeting’s host can download its recordings');
      const r = found.recording;
      if (r.status !== 'ready' || !r.filePath) {
        throw new HttpError(
          409,
          r.status === 'failed'
            ? `${RECORDING_TEXTS.failed}: ${r.error ?? 'unknown error'}`
            : 'The recording is still being processed',
        );
      }
      return {
        file: path.join(deps.dir, r.filePath),
        name: recordingFileName(found.meetingId, r.startedAt),
        size: r.size ?? 0,
      };
    },

    /** Retention / deletion: a meeting's recordings, rows and files (finished and raw). */
    async purgeMeeting(meetingId: string): Promise<number> {
      const rows = await repo.deleteByMeeting(meetingId);
      for (const r of rows) {
        if (r.filePath) await rm(path.join(deps.dir, r.filePath), { force: true });
        if (media.recordingDir)
          for (const f of await rawFilesOf(media.recordingDir, r.id)) await rm(f, { force: true });
      }
      await rm(path.join(deps.dir, meetingId), { recursive: true, force: true });
      return rows.length;
    },
  };
}
export type RecordingsService = ReturnType<typeof createRecordingsService>;

export function toRecording(r: RecordingWithMeeting): Recording {
  const row = r.recording;
  return {
    id: row.id,
    meetingId: r.meetingId,
    meetingTitle: r.meetingTitle,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
    durationSeconds: row.durationMs === null ? null : Math.round(row.durationMs / 100) / 10,
    size: row.size,
    status: row.status,
    error: row.error,
    downloadUrl: row.status === 'ready' ? `/api/recordings/${row.id}/download` : null,
  };
}
