import { TEST_ROOM_ID } from '@parley/protocol';
import type { RoomMeeting } from './state.js';

/**
 * The development test room behind /webrtc-test (spec §7: "the test page connects to a local
 * development socket with meetingId test-room"). Outside production, `POST
 * /api/meetings/test-room/join` and `/ws?meetingId=test-room` work like a meeting with no
 * database row: no host, no waiting room, no password, at most TEST_ROOM_MAX_PARTICIPANTS people,
 * signaling only (chat, files, host and collaboration messages are refused). In production the
 * id is unknown (404).
 */

export { TEST_ROOM_ID };

/** Enough for the two-person page plus a couple of extra windows. */
export const TEST_ROOM_MAX_PARTICIPANTS = 4;

export const TEST_ROOM_UNAVAILABLE = 'Not available in the test room';

/** The hub's record of the test room; its id is not a uuid, so it can never match a row. */
export function testRoomMeeting(): RoomMeeting {
  return {
    id: TEST_ROOM_ID,
    meetingId: TEST_ROOM_ID,
    title: 'WebRTC test room',
    meetingType: 'test',
    isRecurring: false,
    maxParticipants: TEST_ROOM_MAX_PARTICIPANTS,
    waitingRoom: false,
    hostId: null,
    ephemeral: true,
  };
}
