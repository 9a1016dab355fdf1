import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { ROOM_FILE_LIMITS, type RoomFile } from '@parley/protocol';
import { badRequest, forbidden, HttpError, notFound } from '../../http/errors.js';
import type { StorageProvider } from '../../providers/storage/index.js';
import type { Member, Room } from '../../realtime/types.js';
import { TEST_ROOM_UNAVAILABLE } from '../rooms/test-room.js';
import { presentFile } from './present.js';
import type { FilesRepository } from './repository.js';
import { SNIFF_BYTES, sniffMimeType } from './sniff.js';

export const FILE_TOO_LARGE_MESSAGE = `The file is larger than ${ROOM_FILE_LIMITS.maxBytes / (1024 * 1024)} MB`;

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

export function createFilesService(repo: FilesRepository, storage: StorageProvider) {
  return {
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
      const row = await repo.insert({
        id,
        meetingId: room.id,
        uploaderId: member.id,
        name: cleanFileName(upload.filename),
        size,
        mimeType: sniffMimeType(Buffer.concat(chunks)),
        storageKey: key,
      });
      return presentFile(row);
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
