import type { IceServer, RoomParticipant, ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Entered, Gone } from './members.js';
import type { History } from './service.js';
import type { RoomsRepository } from './repository.js';
import { waitingList, type RoomState } from './state.js';
import type { Audience, RoomTransport } from './transport.js';

/**
 * What the room tells after a change (the "publish" of the RoomService's check → change →
 * publish): the messages of each kind of change, always built the same way, and the meeting
 * status that follows the room.
 */
export function createRoomNews(deps: {
  transport: RoomTransport;
  repo: Pick<RoomsRepository, 'markLive' | 'markFinished'>;
  /** This server instance's id (recorded on the meetings its rooms hold). */
  instance: string;
  iceServers(participantId: string): IceServer[];
  log: FastifyBaseLogger;
}) {
  const publish = (roomId: string, to: Audience, message: ServerMessage) =>
    deps.transport.publish(roomId, to, message);

  function meetingStatus(roomId: string, change: 'live' | 'finished', meetingType?: string): void {
    const done =
      change === 'live'
        ? deps.repo.markLive(roomId, deps.instance)
        : deps.repo.markFinished(roomId, meetingType === 'instant' ? 'ended' : 'scheduled');
    done.catch((err: unknown) => deps.log.error({ err, roomId, change }, 'meeting status update failed'));
  }

  const news = {
    publish,

    /** The hosts see the waiting room. */
    waitingRoom(roomId: string, waiting: Array<{ id: string; name: string }>): void {
      publish(roomId, { kind: 'hosts' }, { type: 'waiting_room', waiting });
    },

    /** The hosts see the deny list (participants they removed, who cannot come back yet). */
    removedList(roomId: string, removed: Array<{ id: string; name: string }>): void {
      publish(roomId, { kind: 'hosts' }, { type: 'removed_list', removed });
    },

    /** The one way the participant list changes: participant_updated for each changed member. */
    updated(roomId: string, changed: RoomParticipant[], except?: string): void {
      for (const participant of changed) {
        publish(roomId, { kind: 'all', except }, { type: 'participant_updated', participant });
      }
    },

    /** `joined` to the participant's socket, then the room hears of it (joined, or back). */
    entered(roomId: string, e: Entered, history: History, requestId?: string): void {
      const id = e.self.id;
      publish(
        roomId,
        { kind: 'one', participantId: id },
        {
          type: 'joined',
          requestId,
          self: e.self,
          participants: e.participants,
          chatHistory: history.chat,
          iceServers: deps.iceServers(id),
          meeting: e.meeting,
          resumed: e.resumed,
          allMuted: e.allMuted,
          transcription: e.transcription,
          recentTranscripts: history.transcripts,
        },
      );
      const type = e.resumed ? 'participant_updated' : 'participant_joined';
      publish(roomId, { kind: 'all', except: id }, { type, participant: e.self });
      if (e.firstLive) meetingStatus(roomId, 'live');
      if (e.waiting.length) {
        publish(roomId, { kind: 'one', participantId: id }, { type: 'waiting_room', waiting: e.waiting });
      }
      if (e.removed.length) {
        publish(roomId, { kind: 'one', participantId: id }, { type: 'removed_list', removed: e.removed });
      }
    },

    /** A participant is gone: the room's lists, and the meeting's status when it was the last. */
    gone(room: RoomState, gone: Gone, reason: 'left' | 'removed' | 'timeout'): void {
      if (gone.announced) {
        const { participantId } = gone;
        publish(room.id, { kind: 'all' }, { type: 'participant_left', participantId, reason });
      }
      if (gone.wasWaiting) news.waitingRoom(room.id, waitingList(room));
      if (gone.finished) meetingStatus(room.id, 'finished', room.meeting.meetingType);
    },
  };
  return news;
}
export type RoomNews = ReturnType<typeof createRoomNews>;
