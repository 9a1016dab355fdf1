import type { ClientMessageType } from '@parley/protocol';
import type { HandlerMap } from '../context.js';
import { admitParticipant } from './admit_participant.js';
import { allowRejoin } from './allow_rejoin.js';
import { answer } from './answer.js';
import { chatMessage } from './chat_message.js';
import { collaborationUpdate } from './collaboration_update.js';
import { denyParticipant } from './deny_participant.js';
import { endMeeting } from './end_meeting.js';
import { iceCandidate } from './ice-candidate.js';
import { joinMeeting } from './join_meeting.js';
import { leaveMeeting } from './leave_meeting.js';
import { mediaState } from './media_state.js';
import { muteAll } from './mute_all.js';
import { muteParticipant } from './mute_participant.js';
import { offer } from './offer.js';
import { ping } from './ping.js';
import { removeParticipant } from './remove_participant.js';
import { requestExistingConnections } from './request_existing_connections.js';
import { setCaptionLanguage } from './set_caption_language.js';
import { setRecording } from './set_recording.js';
import { setTranscription } from './set_transcription.js';
import { setTranscriptionConsent } from './set_transcription_consent.js';
import { sfuAnswer } from './sfu_answer.js';
import { sfuPublish } from './sfu_publish.js';
import { sfuLeave } from './sfu_leave.js';
import { sfuSubscribe } from './sfu_subscribe.js';
import { sfuTrickle } from './sfu_trickle.js';
import { sfuKeyframe } from './sfu_keyframe.js';
import { sfuView } from './sfu_view.js';
import { speaking } from './speaking.js';

/** One handler per client message type; the type checker requires every type to have one. */
export const handlers: HandlerMap = {
  join_meeting: joinMeeting,
  request_existing_connections: requestExistingConnections,
  offer,
  answer,
  'ice-candidate': iceCandidate,
  chat_message: chatMessage,
  media_state: mediaState,
  mute_all: muteAll,
  mute_participant: muteParticipant,
  remove_participant: removeParticipant,
  admit_participant: admitParticipant,
  deny_participant: denyParticipant,
  collaboration_update: collaborationUpdate,
  leave_meeting: leaveMeeting,
  ping,
  allow_rejoin: allowRejoin,
  end_meeting: endMeeting,
  set_transcription: setTranscription,
  set_transcription_consent: setTranscriptionConsent,
  set_caption_language: setCaptionLanguage,
  set_recording: setRecording,
  sfu_publish: sfuPublish,
  sfu_subscribe: sfuSubscribe,
  sfu_leave: sfuLeave,
  sfu_answer: sfuAnswer,
  sfu_trickle: sfuTrickle,
  sfu_view: sfuView,
  sfu_keyframe: sfuKeyframe,
  speaking,
};

/**
 * What the test room (ephemeral, no database row, no host) offers: joining, signaling, media
 * state and leaving. Everything else (chat, collaboration, host messages, and any message type
 * added later) is refused there with `error forbidden`.
 */
export const TEST_ROOM_MESSAGES: ReadonlySet<ClientMessageType> = new Set<ClientMessageType>([
  'join_meeting',
  'request_existing_connections',
  'offer',
  'answer',
  'ice-candidate',
  'media_state',
  'leave_meeting',
  'ping',
]);
