import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  RECORDING_LIMIT_TEXTS,
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
import {
  NAME_FONT,
  cellsOf,
  concatSegments,
  encodeSegment,
  prepareRecording,
  rawFilesOf,
  segmentsOf,
  writeNameFiles,
  type Prepared,
  type RecordingTools,
} from './process.js';
import type { RecordingsRepository, RecordingWithMeeting } from './repository.js';
import { SpeakerTimeline, speakersFileOf, writeSpeakers } from './speaker-timeline.js';

/** The media service's part recording uses (modules/media). */
export interface RecordingMedia {
  canRecord(): boolean;
  readonly recordingDir: string | null;
  moveToSfu(roomId: string): Promise<boolean>;
  startRecording(roomId: string, name: string): Promise<void>;
  stopRecording(roomId: string): Promise<void>;
  /** The room's active speaker now (the SFU's), when the recording starts. */
  activeSpeaker?(roomId: string): string | null;
  /** Follows the rooms' active speaker changes (the recording's speaker timeline). */
  onSpeakerChanged?(listener: (roomId: string, participantId: string | null) => void): unknown;
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
  /** Queues a step of the post-processing of a finished recording (the jobs queue). */
  enqueue(recordingId: string, step: number): Promise<void>;
  /** RECORDING_MAX_MINUTES, RECORDING_QUOTA_PER_HOST_MB and RECORDING_SEGMENT_SECONDS (config). */
  limits: { maxMs: number; hostQuotaBytes: number; segmentMs: number };
  /** How often a recording's size on disk is checked against the host's storage (30 s). */
  checkEveryMs?: number;
  /** The font of the names on the tiles; null: no names (the font is missing). */
  fontFile?: string | null;
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
  hostId: string;
  /** When it stops by itself (the length limit). */
  stopsAt: Date;
  /** A limit that is near, said to everyone (RECORDING_LIMIT_TEXTS). */
  limitNotice: string | null;
  timers: NodeJS.Timeout[];
  /** Who spoke when, kept beside the raw files (the speaker view of the file). */
  speakers: SpeakerTimeline;
  /** Its file's writes, one after another. */
  speakersWritten: Promise<void>;
}

/** Before the length limit, the room is warned this long ahead (at most a third of the limit). */
export const LENGTH_WARNING_MS = 5 * 60_000;
/** The host's storage is "almost full" from this share on. */
export const STORAGE_WARNING_SHARE = 0.9;

/**
 * Meeting recording (issue 17 item 5). Recording is room state: the host starts and stops it,
 * everyone hears `recording_state`, newcomers after `joined`. Janus records the publishers (a
 * peer-to-peer room moves to the SFU first); when the recording stops — by the host, or because
 * the room emptied or ended — its row goes to `processing` and a job makes the one file
 * (process.ts). Which rooms record lives in this process, beside the SFU state it depends on.
 */
export function createRecordingsService(deps: RecordingsServiceDeps) {
  const { repo, media, log, limits } = deps;
  const now = deps.now ?? (() => new Date());
  const checkEveryMs = deps.checkEveryMs ?? 30_000;
  const active = new Map<string, Active>();
  /** Why each room's last recording stopped by itself, said with the stopped state. */
  const stoppedBy = new Map<string, string>();
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
      stopsAt: a ? a.stopsAt.toISOString() : null,
      limitNotice: a ? a.limitNotice : (stoppedBy.get(room.id) ?? null),
    };
  }

  /** Bytes the recording's raw streams take on disk so far (what Janus wrote). */
  async function rawBytes(recordingId: string): Promise<number> {
    if (!media.recordingDir) return 0;
    let total = 0;
    for (const f of await rawFilesOf(media.recordingDir, recordingId))
      total += await stat(f).then(
        (x) => x.size,
        () => 0,
      );
    return total;
  }

  /**
   * What a host's recordings take on this server: the finished files, and the raw streams of
   * those still recording or being processed (so starting and stopping again does not escape it).
   */
  async function usedByHost(hostId: string): Promise<number> {
    let used = await repo.usedBytesForHost(hostId);
    for (const r of await repo.unfinishedForHost(hostId)) used += await rawBytes(r.id);
    return used;
  }

  /** Says a limit that is near to everyone in the room (once per notice). */
  async function warn(roomId: string, a: Active, notice: string): Promise<void> {
    if (active.get(roomId) !== a || a.limitNotice === notice) return;
    a.limitNotice = notice;
    const room = await deps.room(roomId);
    if (room) await announce(room);
  }

  /** A limit was reached: the recording stops and everyone is told why. */
  async function stopForLimit(roomId: string, a: Active, notice: string): Promise<void> {
    await serial(roomId, async () => {
      if (active.get(roomId) !== a) return;
      stoppedBy.set(roomId, notice);
      await stopNow(roomId);
      log.info({ roomId, recordingId: a.id, notice }, 'recording stopped at a limit');
      const room = await deps.room(roomId);
      if (room) await announce(room);
    });
  }

  /** The timers of a recording: the length warning and limit, and the storage check. */
  function watchLimits(roomId: string, a: Active, usedBefore: number): void {
    const { maxMs, hostQuotaBytes } = limits;
    const warnAhead = Math.min(LENGTH_WARNING_MS, Math.floor(maxMs / 3));
    const onError = (err: unknown) => log.warn({ err, roomId }, 'recording limit check failed');
    a.timers.push(
      setTimeout(() => {
        warn(roomId, a, RECORDING_LIMIT_TEXTS.lengthSoon(warnAhead, maxMs)).catch(onError);
      }, maxMs - warnAhead),
      setTimeout(() => {
        stopForLimit(roomId, a, RECORDING_LIMIT_TEXTS.lengthReached(maxMs)).catch(onError);
      }, maxMs),
      setInterval(() => {
        rawBytes(a.id)
          .then(async (bytes) => {
            const used = usedBefore + bytes;
            if (used >= hostQuotaBytes) await stopForLimit(roomId, a, RECORDING_LIMIT_TEXTS.storageReached);
            else if (used >= hostQuotaBytes * STORAGE_WARNING_SHARE)
              await warn(roomId, a, RECORDING_LIMIT_TEXTS.storageSoon);
          })
          .catch(onError);
      }, checkEveryMs),
    );
    for (const t of a.timers) t.unref();
  }

  /** Writes the recording's speaker timeline again (after the ones before it). */
  function saveSpeakers(roomId: string, a: Active): void {
    const rawDir = media.recordingDir;
    if (!rawDir) return;
    a.speakersWritten = a.speakersWritten
      .then(() => writeSpeakers(speakersFileOf(rawDir, a.id), a.speakers))
      .catch((err: unknown) => log.warn({ err, roomId }, 'could not write the speaker timeline'));
  }

  // The speaker changes of the rooms being recorded, in ms since their recording's start.
  media.onSpeakerChanged?.((roomId, participantId) => {
    const a = active.get(roomId);
    if (a && a.speakers.heard(participantId, now().getTime() - a.startedAt.getTime()))
      saveSpeakers(roomId, a);
  });

  /** The raw files of a recording: Janus's streams and its speaker timeline. */
  async function removeRaw(recordingId: string): Promise<void> {
    const rawDir = media.recordingDir;
    if (!rawDir) return;
    for (const f of await rawFilesOf(rawDir, recordingId)) await rm(f, { force: true });
    await rm(speakersFileOf(rawDir, recordingId), { force: true });
  }

  const announce = async (room: RoomState) =>
    deps.publish(room.id, { kind: 'all' }, { type: 'recording_state', recording: await stateOf(room) });

  /** Ends the room's recording: Janus stops writing, the row waits for its file. */
  async function stopNow(roomId: string): Promise<Active | null> {
    const a = active.get(roomId);
    if (!a) return null;
    active.delete(roomId);
    for (const t of a.timers) clearTimeout(t);
    await media
      .stopRecording(roomId)
      .catch((err: unknown) => log.warn({ err, roomId }, 'could not stop the janus recording'));
    // Its processing reads the speaker timeline: the last write is on disk first.
    await a.speakersWritten;
    const row = await repo.finish(a.id, now());
    if (row) await deps.enqueue(a.id, 0);
    return a;
  }

  /** The work folder of a recording's processing (beside its file, so moves stay on one disk). */
  const workDirOf = (meetingId: string, recordingId: string) =>
    path.join(deps.dir, meetingId, `${recordingId}.parts`);
  const partOf = (workDir: string, k: number) => path.join(workDir, `part-${String(k).padStart(4, '0')}.mp4`);

  interface Plan extends Prepared {
    segments: { fromMs: number; toMs: number }[];
    nameFiles: [string, string][];
  }
  const readPlan = async (workDir: string): Promise<Plan> =>
    JSON.parse(await readFile(path.join(workDir, 'plan.json'), 'utf8')) as Plan;

  return {
    /** Whether this server can record at all (Janus with a recordings folder, and the tools). */
    canRecordHere(): boolean {
      return media.canRecord() && deps.missingTools.length === 0;
    },

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
        // The host's storage: what their finished recordings take, and any still being made.
        const hostId = room.meeting.hostId!;
        const usedBefore = await usedByHost(hostId);
        if (usedBefore >= limits.hostQuotaBytes) {
          throw new RoomError(
            'forbidden',
            409,
            RECORDING_LIMIT_TEXTS.storageFull(Math.round(limits.hostQuotaBytes / 1024 / 1024)),
          );
        }
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
        const a: Active = {
          id: row.id,
          startedAt,
          hostId,
          stopsAt: new Date(startedAt.getTime() + limits.maxMs),
          limitNotice: null,
          timers: [],
          speakers: new SpeakerTimeline(),
          speakersWritten: Promise.resolve(),
        };
        // Whoever is speaking now is on the stage from the start.
        const speaking = media.activeSpeaker?.(room.id) ?? null;
        if (speaking) a.speakers.start(speaking);
        active.set(room.id, a);
        saveSpeakers(room.id, a);
        stoppedBy.delete(room.id);
        watchLimits(room.id, a, usedBefore);
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
        const a = active.get(meetingId);
        if (!a) return;
        active.delete(meetingId);
        for (const t of a.timers) clearTimeout(t);
        await media.stopRecording(meetingId).catch(() => undefined);
      });
      await rm(path.join(deps.dir, meetingId), { recursive: true, force: true });
    },

    /** Server shutdown: recordings in progress stop and are processed by the next run. */
    async stopAll(): Promise<void> {
      for (const roomId of [...active.keys()]) await serial(roomId, () => stopNow(roomId));
    },

    /**
     * One post-processing job (issue 34 item 9: bounded jobs). Step 0 turns the raw streams into
     * plain files and plans the segments; step k encodes segment k (at most
     * RECORDING_SEGMENT_SECONDS of timeline, so no job runs for hours) and queues the next, so
     * other recordings' jobs run in between; the last step joins the segments into the one file
     * and marks the row ready. A failure on the last try marks it failed and clears its work.
     */
    async process(recordingId: string, step: number, lastAttempt: boolean): Promise<void> {
      const row = await repo.get(recordingId);
      if (!row || row.status !== 'processing' || !row.endedAt) return;
      const rawDir = media.recordingDir;
      const workDir = workDirOf(row.meetingId, row.id);
      const started = Date.now();
      try {
        if (!rawDir) throw new Error('This server has no recordings folder');
        if (step === 0) {
          await rm(workDir, { recursive: true, force: true });
          const prepared = await prepareRecording({
            rawDir,
            name: row.id,
            workDir,
            startedAt: row.startedAt,
            endedAt: row.endedAt,
            tools: deps.tools,
          });
          const fontFile = deps.fontFile === undefined ? NAME_FONT : deps.fontFile;
          const names = fontFile ? await repo.namesOf(row.meetingId) : new Map<string, string>();
          const nameFiles = await writeNameFiles(workDir, names, cellsOf(prepared.tracks));
          const plan: Plan = {
            ...prepared,
            segments: segmentsOf(prepared.totalMs, limits.segmentMs),
            nameFiles: [...nameFiles],
          };
          await writeFile(path.join(workDir, 'plan.json'), JSON.stringify(plan));
          log.info(
            {
              recordingId,
              tracks: plan.tracks.length,
              segments: plan.segments.length,
              problems: plan.problems,
            },
            'recording prepared',
          );
          await deps.enqueue(recordingId, 1);
          return;
        }
        const plan = await readPlan(workDir);
        const k = step - 1;
        const window = plan.segments[k];
        if (!window) throw new Error(`The recording has no segment ${step}`);
        const fontFile = deps.fontFile === undefined ? NAME_FONT : deps.fontFile;
        await encodeSegment(plan, window, partOf(workDir, k), deps.tools, {
          nameFiles: new Map(plan.nameFiles),
          fontFile,
        });
        log.info(
          { recordingId, segment: step, of: plan.segments.length, ms: Date.now() - started },
          'recording segment encoded',
        );
        if (step < plan.segments.length) {
          await deps.enqueue(recordingId, step + 1);
          return;
        }
        const rel = path.join(row.meetingId, `${row.id}.mp4`);
        const outFile = path.join(deps.dir, rel);
        await mkdir(path.dirname(outFile), { recursive: true });
        const result = await concatSegments(
          plan.segments.map((_, i) => partOf(workDir, i)),
          outFile,
          deps.tools,
        );
        await repo.markReady(row.id, { filePath: rel, size: result.size, durationMs: result.durationMs });
        log.info({ recordingId: row.id, ...result, segments: plan.segments.length }, 'recording processed');
        // The raw streams and the work served their purpose.
        await rm(workDir, { recursive: true, force: true });
        await removeRaw(row.id);
      } catch (err) {
        log.warn({ err, recordingId: row.id, step }, 'recording post-processing failed');
        if (!lastAttempt) throw err;
        await repo.markFailed(row.id, (err as Error).message.slice(0, 500));
        await rm(workDir, { recursive: true, force: true });
      }
    },

    /** Rows a stopped server left `recording`: what Janus wrote is processed up to now. */
    async recover(): Promise<void> {
      for (const row of await repo.orphaned()) {
        if ([...active.values()].some((a) => a.id === row.id)) continue;
        const finished = await repo.finish(row.id, now());
        if (finished) await deps.enqueue(row.id, 0);
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

    /** The host deletes one of its recordings (the row and its file): 404 unknown, 403 another's, 409 recording. */
    async deleteOne(user: UserRow, id: string): Promise<void> {
      const found = await repo.findWithMeeting(id);
      if (!found) throw notFound('Recording not found');
      if (found.hostId !== user.id) throw forbidden('Only the meeting’s host can delete its recordings');
      if (found.recording.status === 'recording')
        throw new HttpError(409, 'Stop the recording in the meeting before deleting it');
      const row = await repo.delete(id);
      if (!row) throw notFound('Recording not found');
      if (row.filePath) await rm(path.join(deps.dir, row.filePath), { force: true });
      await rm(workDirOf(row.meetingId, row.id), { recursive: true, force: true });
      await removeRaw(row.id);
    },

    /** Retention / deletion: a meeting's recordings, rows and files (finished and raw). */
    async purgeMeeting(meetingId: string): Promise<number> {
      const rows = await repo.deleteByMeeting(meetingId);
      for (const r of rows) {
        if (r.filePath) await rm(path.join(deps.dir, r.filePath), { force: true });
        await removeRaw(r.id);
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
    playUrl: row.status === 'ready' ? `/api/recordings/${row.id}/play` : null,
  };
}
