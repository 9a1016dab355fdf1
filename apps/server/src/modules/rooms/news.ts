import type {
  ChatMessage,
  IceServer,
  LiveTranscript,
  RoomParticipant,
  ServerMessage,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { RoomEvents } from './events.js';
import type { Entered, Gone } from './members.js';
import type { RoomsRepository } from './repository.js';
import { roster, waitingList, type RoomState } from './state.js';
import type { Audience, RoomTransport } from './transport.js';

/** What `joined` carries of the meeting so far. */
export interface History {
  chat: ChatMessage[];
  transcripts: LiveTranscript[];
}

/**
 * What the room tells after a change (the "publish" of the RoomService's check → change →
 * publish): the messages of each kind of change, always built the same way, the room's events
 * for the features that follow it (events.ts), and the meeting status that follows the room.
 */
export function createRoomNews(deps: {
  transport: RoomTransport;
  /** The features' hooks around `joined` (the events themselves go out through the transport). */
  events: Pick<RoomEvents, 'joining'>;
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
        if (participant.isConnected && participant.isMuted) {
          deps.transport.emit({ kind: 'muted', roomId, participantId: participant.id });
        }
      }
    },

    /** A participant's socket dropped (it may come back within the grace): shown disconnected. */
    away(roomId: string, participant: RoomParticipant): void {
      news.updated(roomId, [participant], participant.id);
      deps.transport.emit({ kind: 'away', roomId, participantId: participant.id });
    },

    /**
     * `joined` to the participant's socket, with what the features put around it (events.ts
     * `aroundJoined`), then the room hears of it (joined, or back).
     */
    entered(roomId: string, e: Entered, history: History, requestId?: string): void {
      const id = e.self.id;
      const self = { kind: 'one' as const, participantId: id };
      const around = deps.events.joining({
        roomId,
        participantId: id,
        inRoom: e.participants.length + 1,
        resumed: e.resumed,
      });
      for (const message of around.before) publish(roomId, self, message);
      publish(roomId, self, {
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
      });
      for (const after of around.after) after();
      const { name, isHost } = e.self;
      deps.transport.emit({
        kind: 'entered',
        roomId,
        participant: { id, name, isHost },
        resumed: e.resumed,
        socketId: e.socketId,
      });
      const type = e.resumed ? 'participant_updated' : 'participant_joined';
      publish(roomId, { kind: 'all', except: id }, { type, participant: e.self });
      if (e.resumed && e.self.isMuted) deps.transport.emit({ kind: 'muted', roomId, participantId: id });
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
        deps.transport.emit({
          kind: 'left',
          roomId: room.id,
          participantId,
          reason,
          inRoom: roster(room).length,
        });
      }
      if (gone.wasWaiting) news.waitingRoom(room.id, waitingList(room));
      if (gone.finished) meetingStatus(room.id, 'finished', room.meeting.meetingType);
    },

    /**
     * The room ended (its meeting deleted, or its host ended it): everyone in it is gone. A
     * meeting that still exists then ends as when the last one leaves (`meetingType` given).
     */
    ended(roomId: string, participantIds: string[], meetingType?: string): void {
      deps.transport.emit({ kind: 'ended', roomId, participantIds });
      if (meetingType !== undefined) meetingStatus(roomId, 'finished', meetingType);
    },
  };
  return news;
}
export type RoomNews = ReturnType<typeof createRoomNews>;
