import { WS_CLOSE } from '@parley/protocol';
import type { RoomTransport } from '../rooms/transport.js';
import type { MediaService } from './service.js';

/**
 * The media mode follows the room's own news, like the free-time clock: a participant's `joined`
 * is preceded by the room's mode (`media_mode`, addressed to it, so it never starts a mesh the
 * room no longer uses) and, when its arrival moves the room to the SFU, everyone else hears it
 * too, and a newcomer to a room on the SFU hears its active speaker after `joined`. Its leaving releases its SFU connections; the room ending, the SFU room. Without an SFU
 * the transport is passed through unchanged (no media_mode at all).
 */
export function observeRoomForMedia(transport: RoomTransport, media: MediaService): RoomTransport {
  if (!media.hasSfu) return transport;
  return {
    publish(roomId, to, message) {
      if (message.type === 'joined' && to.kind === 'one') {
        const { mode, changed } = media.entering(roomId, to.participantId, message.participants.length + 1);
        // The newcomer of the switch also meshes with the others until the SFU carries them.
        transport.publish(roomId, to, { type: 'media_mode', mode, ...(changed ? { bridge: true } : {}) });
        transport.publish(roomId, to, message);
        // A newcomer to a room on the SFU learns who is speaking (the others heard it already).
        const speaker = mode === 'sfu' ? media.activeSpeaker(roomId) : null;
        if (speaker && speaker !== to.participantId)
          transport.publish(roomId, to, { type: 'active_speaker', participantId: speaker });
        if (changed)
          transport.publish(roomId, { kind: 'all', except: to.participantId }, { type: 'media_mode', mode });
        // A page that resumes keeps its SFU session: an offer lost with its old socket comes again.
        if (message.resumed && mode === 'sfu') media.resumed(roomId, to.participantId);
        return;
      }
      transport.publish(roomId, to, message);
      if (message.type === 'participant_left') media.left(message.participantId);
    },
    close(participantId, code, reason, last) {
      transport.close(participantId, code, reason, last);
      if (code === WS_CLOSE.meetingEnded) media.left(participantId);
    },
  };
}
