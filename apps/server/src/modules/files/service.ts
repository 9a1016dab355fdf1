import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { ROOM_FILE_LIMITS, type RoomFile, type SharedFile } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.js';
import type { StorageProvider } from '../../providers/storage/index.js';
import type { MemberState as Member, RoomState as Room } from '../rooms/state.js';
import { TEST_ROOM_UNAVAILABLE } from '../rooms/test-room.js';
import { presentFile, presentSharedFile } from './present.js';
import type { FilesRepository } from './repository.js';
import { SNIFF_BYTES, sniffMimeType } from './sniff.js';

export const FILE_TOO_LARGE_MESSAGE = `The file is larger than ${ROOM_FILE_LIMITS.maxBytes / (1024 * 1024)} MB`;

/**
 * How much one meeting may store, how many files one participant may share in it, how much all
 * the meetings of one host may store together (a Pro user looping "create a meeting, upload
 * 500 MB" stops there), and how much the whole instance stores.
 */
export interface FileQuota {
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

export const fileQuotaMessages = (quota: FileQuota) => ({
  meetingFull: `This meeting's shared files have reached the limit of ${Math.round(quota.meetingBytes / MB)} MB`,
  tooManyFiles: `You can share at most ${quota.filesPerParticipant} files in a meeting`,
  hostFull: `The host's meetings have used all of their ${Math.round(quota.hostBytes / MB)} MB of file storage. Files are deleted 30 days after a meeting ends.`,
  instanceFull: 'The server has no room for more files right now. Please try again later.',
});
export const MEETING_GONE_MESSAGE = 'This meeting has ended';

/** A file name safe to store and show: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[/\\]/).pop() ?? '';
  let cleaned = '';
  for (const ch of base) if (ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f) cleaned += ch;
  cleaned = cleaned.trim().slice(0, 200);
  return cleaned && cleaned !== '.' && cleaned !== '..' ? cleaned : 'file';
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

  /**
   * 429 when the participant has shared enough; 413 when the meeting's or its host's files would
   * exceed their bytes; 507 (Insufficient Storage) when the instance's would.
   */
  async function checkQuota(room: Room, member: Member, adding: number): Promise<void> {
    const usage = await repo.usage(room.id, member.id, room.meeting.hostId);
    const messages = fileQuotaMessages(quota);
    if (usage.memberFiles >= quota.filesPerParticipant) throw new HttpError(429, messages.tooManyFiles);
    if (usage.meetingBytes + adding > quota.meetingBytes) throw new HttpError(413, messages.meetingFull);
    if (usage.hostBytes + adding > quota.hostBytes) throw new HttpError(413, messages.hostFull);
    if (usage.instanceBytes + adding > quota.instanceBytes) throw new HttpError(507, messages.instanceFull);
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
      upload: { filename: string | undefined; stream: Readable & { truncated?: boolean } },
    ): Promise<RoomFile> {
      // Before any byte is written: a full meeting or a participant at its count is refused at once.
      await checkQuota(room, member, 1);
      const id = randomUUID();
      const key = `${room.id}/${id}`;
      // The first bytes are kept as they pass through, for sniffing.
      const chunks: Buffer[] = [];
      let headLength = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          if (headLength < SNIFF_BYTES) {
            const part = chunk.subarray(0, SNIFF_BYTES - headLength);
            chunks.push(part);
            headLength += part.length;
          }
          done(null, chunk);
        },
      });
      upload.stream.on('error', (err) => tap.destroy(err));
      const size = await storage.write(key, upload.stream.pipe(tap));
      if (upload.stream.truncated) {
        await storage.remove(key);
        throw new HttpError(413, FILE_TOO_LARGE_MESSAGE);
      }
      if (size === 0) {
        await storage.remove(key);
        throw badRequest('The file is empty');
      }
      const insert = () =>
        // One queue for the whole process, not one per meeting: the host's and the instance's
        // quotas span meetings. The check and the insert are two quick queries.
        oneAtATime('all', async () => {
          // Checked again with the real size, one upload at a time, right before the row is
          // written: concurrent uploads cannot together pass a quota.
          await checkQuota(room, member, size);
          // The meeting was deleted while the bytes were arriving (its room was ended).
          if (room.ended) throw new HttpError(410, MEETING_GONE_MESSAGE);
          return repo.insert({
            id,
            meetingId: room.id,
            uploaderId: member.id,
            uploaderName: member.name,
            name: cleanFileName(upload.filename),
            size,
            mimeType: sniffMimeType(Buffer.concat(chunks)),
            storageKey: key,
          });
        });
      let row;
      try {
        row = await insert();
      } catch (err) {
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
