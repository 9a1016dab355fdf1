import type { RoomFile, SharedFile } from '@parley/protocol';
import type { MeetingFileRow } from '../../db/schema/index.js';
import { IMAGE_TYPES } from './sniff.js';

export const fileUrl = (id: string): string => `/api/files/${id}`;

/** The file as the API and chat messages show it. */
export function presentFile(row: MeetingFileRow): RoomFile {
  return { id: row.id, name: row.name, size: row.size, mimeType: row.mimeType, url: fileUrl(row.id) };
}

export const isImage = (mimeType: string): boolean => IMAGE_TYPES.has(mimeType);

/** The file as the files area lists it: who shared it and when. */
export function presentSharedFile(row: MeetingFileRow): SharedFile {
  return {
    ...presentFile(row),
    uploaderId: row.uploaderId,
    uploaderName: row.uploaderName ?? 'Someone',
    sharedAt: row.createdAt.toISOString(),
  };
}
