import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { ROOM_FILE_LIMITS, stripUnsafeText, type RoomFile, type SharedFile } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.js';
import type { StorageProvider } from '../../providers/storage/index.js';
import type { MemberState as Member, RoomState as Room } from '../rooms/state.js';
import { TEST_ROOM_UNAVAILABLE } from '../rooms/test-room.js';
import { presentFile, presentSharedFile } from './present.js';
import { createReservations } from './reservations.js';
import type { FilesRepository } from './repository.js';
import { SNIFF_BYTES, sniffMimeType } from './sniff.js';

export const FILE_TOO_LARGE_MESSAGE = `The file is larger than ${ROOM_FILE_LIMITS.maxBytes / (1024 * 1024)} MB`;

/**
 * How much one meeting may store, how many files one participant may share in it, how much all
 * the meetings of one host may store together (a Pro user looping "create a meeting, upload
 * 500 MB" stops there), and how much the whole instance stores.
 */
export interface FileQuota {
  /** Files of one meeting (uploads in progress included). */
  meetingBytes: number;
  filesPerParticipant: number;
  /** Files in all meetings one user hosts, whoever uploaded them (guests upload too). */
  hostBytes: number;
  /** Files of every meeting on this instance. */
  instanceBytes: number;
}
const MB = 1024 * 1024;
export const FILE_QUOTA: FileQuota = {
  meetingBytes: 500 * MB,
  filesPerParticipant: 50,
  hostBytes: 2048 * MB,
  instanceBytes: 20_480 * MB,
};

/** Room enough for a multipart body's boundaries and part headers (a long file name included). */
const MULTIPART_OVERHEAD_BYTES = 2048;

export const fileQuotaMessages = (quota: FileQuota) => ({
  meetingFull: `This meeting's shared files have reached the limit of ${Math.round(quota.meetingBytes / MB)} MB`,
  tooManyFiles: `You can share at most ${quota.filesPerParticipant} files in a meeting`,
  hostFull: `The host's meetings have used all of their ${Math.round(quota.hostBytes / MB)} MB of file storage. Files are deleted 30 days after a meeting ends.`,
  instanceFull: 'The server has no room for more files right now. Please try again later.',
});
export const MEETING_GONE_MESSAGE = 'This meeting has ended';

/**
 * A file name safe to store and show: no folders, none of the characters typed text may not hold
 * (control and text-direction override characters: `stripUnsafeText`), at most 200 characters.
 */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = [...stripUnsafeText(base).trim()].slice(0, 200).join('');
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : 'file';
}

/** Reads a stream to its end, dropping what it carries. */
function drain(stream: Readable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.readableEnded || stream.destroyed) return resolve();
    stream
      .once('end', resolve)
      .once('error', () => resolve())
      .once('close', resolve);
    stream.resume();
  });
}

/** RFC 6266 attachment header: an ASCII fallback and the exact UTF-8 name in filename*. */
export function attachmentHeader(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

export function createFilesService(
  repo: FilesRepository,
  storage: StorageProvider,
  options: {
    log: FastifyBaseLogger;
    quota?: Partial<FileQuota>;
    /** Tells the meeting's room of a newly shared file (its files area lists it at once). */
    announce?: (roomId: string, file: SharedFile) => void;
  },
) {
  /** The quota in force; tests lower it. */
  const quota: FileQuota = { ...FILE_QUOTA, ...options.quota };
  /** Per key, the tail of the queue of quota checks + inserts (one at a time per key). */
  const queues = new Map<string, Promise<unknown>>();
  function oneAtATime<T>(meetingId: string, task: () => Promise<T>): Promise<T> {
    const previous = queues.get(meetingId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const tail = run.catch(() => undefined);
    queues.set(meetingId, tail);
    void tail.then(() => {
      if (queues.get(meetingId) === tail) queues.delete(meetingId);
    });
    return run;
  }

  /** Bytes and file counts that uploads in progress hold (reservations.ts). */
  const reservations = createReservations();

  /**
   * Reserves an upload's place before any byte is written: a file of the participant's count
   * (429 when it has shared enough) and `upfront` bytes (the request's declared length) of the
   * meeting's and its host's quotas (413) and of the instance's (507); bytes past it are
   * reserved chunk by chunk as they arrive. Uploads in progress count as much as stored files:
   * concurrent uploads cannot together pass a quota.
   */
  async function reserve(room: Room, member: Member, upfront: number) {
    const usage = await repo.usage(room.id, member.id, room.meeting.hostId);
    const messages = fileQuotaMessages(quota);
    const refusal = (status: number, message: string) => () => new HttpError(status, message);
    const files = reservations.open(
      [
        {
          key: `member-files:${room.id}:${member.id}`,
          stored: usage.memberFiles,
          limit: quota.filesPerParticipant,
          error: refusal(429, messages.tooManyFiles),
        },
      ],
      1,
    );
    if ('refused' in files) throw files.refused;
    files.reservation.take(1);
    const bytes = reservations.open(
      [
        {
          key: `meeting:${room.id}`,
          stored: usage.meetingBytes,
          limit: quota.meetingBytes,
          error: refusal(413, messages.meetingFull),
        },
        ...(room.meeting.hostId
          ? [
              {
                key: `host:${room.meeting.hostId}`,
                stored: usage.hostBytes,
                limit: quota.hostBytes,
                error: refusal(413, messages.hostFull),
              },
            ]
          : []),
        {
          key: 'instance',
          stored: usage.instanceBytes,
          limit: quota.instanceBytes,
          error: refusal(507, messages.instanceFull),
        },
      ],
      Math.max(1, upfront),
    );
    if ('refused' in bytes) {
      files.reservation.release();
      throw bytes.refused;
    }
    bytes.reservation.take(upfront);
    let held = upfront;
    let seen = 0;
    return {
      /** `amount` more bytes arrived: reserved past what is held, or the refusal. */
      arrived(amount: number): HttpError | null {
        seen += amount;
        if (seen <= held) return null;
        const refused = bytes.reservation.take(seen - held);
        if (!refused) held = seen;
        return refused;
      },
      commit(size: number) {
        files.reservation.commit();
        bytes.reservation.commit(size);
      },
      release() {
        files.reservation.release();
        bytes.reservation.release();
      },
    };
  }

  return {
    quota,

    /** Files belong to a meeting row: the test room (ephemeral, no row) has none. */
    ensureSharing(room: Room): void {
      if (room.meeting.ephemeral) throw forbidden(TEST_ROOM_UNAVAILABLE);
    },

    /**
     * Stores an uploaded stream for a participant. The type is sniffed from the first bytes; a
     * stream cut at the size limit (`truncated`) is discarded with 413.
     */
    async upload(
      room: Room,
      member: Member,
      upload: {
        filename: string | undefined;
        stream: Readable & { truncated?: boolean };
        /** The request's Content-Length, when it has one: reserved before the first byte is read. */
        declaredBytes?: number;
      },
    ): Promise<RoomFile> {
      // The quotas are reserved before any byte is written, one upload opening at a time (with
      // the commits of others: the snapshot of what is stored must not miss one). The declared
      // length is the whole multipart body: its part headers and boundaries are not the file's,
      // so a file that fits exactly is not refused for them (the chunks are reserved exactly).
      const upfront = Math.min(
        Number.isSafeInteger(upload.declaredBytes)
          ? Math.max(0, upload.declaredBytes! - MULTIPART_OVERHEAD_BYTES)
          : 0,
        ROOM_FILE_LIMITS.maxBytes,
      );
      let reservation;
      try {
        reservation = await oneAtATime('all', () => reserve(room, member, upfront));
      } catch (err) {
        // Read and drop what the client sends, so that it hears the refusal (nothing is stored).
        await drain(upload.stream);
        throw err;
      }
      const id = randomUUID();
      const key = `${room.id}/${id}`;
      // The first bytes are kept as they pass through, for sniffing. A chunk goes on to storage
      // only once its bytes are reserved; past a full quota the rest is read and dropped, so the
      // client still hears why.
      const chunks: Buffer[] = [];
      let headLength = 0;
      let refused: HttpError | null = null;
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (refused) return done();
          refused = reservation.arrived(chunk.length);
          if (refused) return done();
          if (headLength < SNIFF_BYTES) {
            const part = chunk.subarray(0, SNIFF_BYTES - headLength);
            chunks.push(part);
            headLength += part.length;
          }
          done(null, chunk);
        },
      });
      upload.stream.on('error', (err) => tap.destroy(err));
      let row;
      try {
        const size = await storage.write(key, upload.stream.pipe(tap));
        if (upload.stream.truncated) throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
        if (refused) throw refused;
        if (size === 0) throw badRequest('The file is empty');
        // One queue for the whole process, not one per meeting: the host's and the instance's
        // quotas span meetings.
        row = await oneAtATime('all', async () => {
          // The meeting was deleted while the bytes were arriving (its room was ended).
          if (room.ended) throw new HttpError(410, MEETING_GONE_MESSAGE);
          const inserted = await repo.insert({
            id,
            meetingId: room.id,
            uploaderId: member.id,
            uploaderName: member.name,
            name: cleanFileName(upload.filename),
            size,
            mimeType: sniffMimeType(Buffer.concat(chunks)),
            storageKey: key,
          });
          reservation.commit(size);
          return inserted;
        });
      } catch (err) {
        reservation.release();
        // No row, no bytes: nothing else would ever remove them.
        await storage.remove(key).catch((removeErr: unknown) => {
          options.log.error({ err: removeErr, key }, 'could not remove the bytes of a refused upload');
        });
        throw err;
      }
      options.announce?.(room.id, presentSharedFile(row));
      return presentFile(row);
    },

    /** The files area: everything shared in the meeting (chat attachments and uploads), oldest first. */
    async list(room: Room): Promise<SharedFile[]> {
      if (room.meeting.ephemeral) return [];
      return (await repo.listByMeeting(room.id)).map(presentSharedFile);
    },

    /** Removes the stored bytes of every file of a meeting (its rows go with the meeting). */
    async removeMeetingFiles(meetingId: string): Promise<void> {
      await storage.removePrefix(meetingId);
    },

    /**
     * Deletes every file of a meeting that stays (retention): the bytes first, then the rows, so
     * a failure leaves rows that the next run finds again, never bytes that nothing points at.
     * Answers how many files went.
     */
    async purgeMeetingFiles(meetingId: string): Promise<number> {
      await storage.removePrefix(meetingId);
      return repo.deleteByMeeting(meetingId);
    },

    async findForDownload(id: string) {
      const found = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findWithMeeting(id) : null;
      if (!found) throw notFound('File not found');
      return found;
    },

    open(storageKey: string) {
      return storage.read(storageKey);
    },
  };
}
export type FilesService = ReturnType<typeof createFilesService>;
