import { WS_LIMITS, type ChatMessage } from '@parley/protocol';
import type { MeetingFileRow } from '../../db/schema/index.js';
import type { MemberState as Member, RoomState as Room } from '../rooms/state.js';
import type { FilesRepository } from '../files/repository.js';
import { isImage, presentFile } from '../files/present.js';
import { createChatLimiter, type ChatLimiter } from './limits.js';
import { chatMarkKey, type ChatMarks } from './marks.js';
import type { ChatRepository, ChatRowWithFile } from './repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Messages a joining participant receives as history. */
export const CHAT_HISTORY_LIMIT = 200;

export type ChatSendResult =
  | { kind: 'sent'; message: ChatMessage }
  | { kind: 'duplicate' }
  | { kind: 'rejected'; code: 'bad_message' | 'not_found' | 'rate_limited'; message: string };

export function toChatMessage(row: ChatRowWithFile['message'], file: MeetingFileRow | null): ChatMessage {
  const message: ChatMessage = {
    id: row.id,
    content: row.content,
    senderName: row.senderName,
    senderId: row.senderId,
    timestamp: row.createdAt.toISOString(),
  };
  if (file) {
    message.fileData = presentFile(file);
    if (isImage(file.mimeType)) message.imageData = message.fileData.url;
  }
  return message;
}

/**
 * Room chat: the sender is the participant of the socket; text is trimmed, a message with neither
 * text nor a file is refused (bad_message); the same text (and file) from the same sender within
 * WS_LIMITS.chatDuplicateWindowMs is kept once (marks.ts, on every instance); a file can be attached only by its uploader, in
 * its meeting. Past the chat limits of a participant or of the meeting (limits.ts) a message is
 * refused (rate_limited, saying how long to wait).
 */
export function createChatService(
  chat: ChatRepository,
  files: FilesRepository,
  marks: ChatMarks,
  limiter: ChatLimiter = createChatLimiter(),
) {
  return {
    /** The last messages of the room's meeting; none in an ephemeral room (no meeting row). */
    async history(room: Room): Promise<ChatMessage[]> {
      if (room.meeting.ephemeral) return [];
      const rows = await chat.history(room.id, CHAT_HISTORY_LIMIT);
      return rows.map((r) => toChatMessage(r.message, r.file));
    },

    async send(
      room: Room,
      member: Member,
      input: { content: string; fileId?: string },
    ): Promise<ChatSendResult> {
      const content = input.content.trim();
      if (!content && !input.fileId) {
        return { kind: 'rejected', code: 'bad_message', message: 'Message is empty' };
      }
      const key = chatMarkKey(room.id, member.id, content, input.fileId);
      if (!(await marks.claim(key, WS_LIMITS.chatDuplicateWindowMs))) return { kind: 'duplicate' };
      // After the duplicate check: a message sent twice by a reconnecting client counts once.
      const refused = limiter.take(room.id, member.id, content.length);
      if (refused) {
        await marks.release(key);
        return { kind: 'rejected', code: 'rate_limited', message: refused };
      }

      let file: MeetingFileRow | null = null;
      if (input.fileId) {
        file = UUID.test(input.fileId) ? await files.find(input.fileId) : null;
        if (!file || file.meetingId !== room.id || file.uploaderId !== member.id) {
          await marks.release(key);
          return { kind: 'rejected', code: 'not_found', message: 'File not found' };
        }
      }
      // A message that could not be kept is no duplicate when it is sent again.
      const row = await chat
        .insert({
          meetingId: room.id,
          senderId: member.id,
          senderName: member.name,
          content,
          fileId: file?.id ?? null,
        })
        .catch(async (err: unknown) => {
          await marks.release(key).catch(() => undefined);
          throw err;
        });
      return { kind: 'sent', message: toChatMessage(row, file) };
    },
  };
}
export type ChatService = ReturnType<typeof createChatService>;
