import type { RoomParticipant, ServerMessage } from '@parley/protocol';

/** The server's record of one WebSocket: the sender of everything that arrives on it. */
export interface Conn {
  readonly id: number;
  /** Query `meetingId` the socket was opened with. */
  readonly meetingId: string;
  /** The signed-in session sent with the upgrade (same-origin only), if any. */
  readonly idHash: string | null;
  readonly userId: string | null;
  /** Set by join_meeting: the room and participant this socket speaks for. */
  member: Member | null;
  room: Room | null;
  send(message: ServerMessage): void;
  sendText(text: string): void;
  close(code: number, reason: string): void;
  readonly isOpen: boolean;
}

export type Admission = 'admitted' | 'waiting';

/** A participant of a room: connected, or within the resume grace period. */
export interface Member {
  readonly id: string;
  name: string;
  email: string | null;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  isScreenSharing: boolean;
  admission: Admission;
  /** The signed-in user who joined (null for guests). */
  userId: string | null;
  /** `${userId ?? 'guest'}:${sessionId}`: the same key rejoining returns this member. */
  readonly sessionKey: string;
  tokenHash: string;
  conn: Conn | null;
  graceTimer: NodeJS.Timeout | null;
  /** True once the others were told about this member (participant_joined). */
  announced: boolean;
  /** True once a socket has spoken for this member (join_meeting); until then it expires sooner. */
  everConnected: boolean;
  lastChat: { key: string; at: number } | null;
}

export interface RoomMeeting {
  /** meetings.id (uuid), or the test room's own id (no database row). */
  readonly id: string;
  /** The public ddd-ddd-ddd id. */
  readonly meetingId: string;
  title: string;
  meetingType: string;
  isRecurring: boolean;
  maxParticipants: number;
  waitingRoom: boolean;
  /** The owner (users.id); null in the test room, which has no host. */
  hostId: string | null;
  /**
   * True for the development test room (modules/rooms/test-room.ts): no database row, so nothing
   * may be read or written for it (meeting status, chat, files) and only signaling is offered.
   */
  readonly ephemeral: boolean;
}

export interface Room {
  readonly id: string;
  readonly meeting: RoomMeeting;
  readonly startedAt: Date;
  readonly members: Map<string, Member>;
  readonly bySession: Map<string, string>;
  /** True once an admitted participant connected (the meeting went live). */
  wentLive: boolean;
  /** True once the room was ended (its meeting deleted): everyone was sent away. */
  ended: boolean;
}

export function toRoomParticipant(m: Member): RoomParticipant {
  return {
    id: m.id,
    name: m.name,
    isHost: m.isHost,
    isMuted: m.isMuted,
    isVideoOn: m.isVideoOn,
    isScreenSharing: m.isScreenSharing,
    isConnected: m.conn !== null,
  };
}
