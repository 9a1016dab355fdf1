import { newRoom, type MemberState, type RoomMeeting, type RoomState } from './state.js';

/**
 * Where room state lives. In memory by default (one server instance holds a meeting's room); in
 * Redis with REDIS_URL (redis-store.ts: several instances share the rooms), so every call is async and every change goes
 * through `update`/`open`: one synchronous step that the store runs alone for that room (in
 * memory: nothing else runs during it; Redis: under the room's lock) and then keeps. A room
 * exists while it has members: one left without members after a change is dropped.
 *
 * What `get` and `byToken` answer is a view to read, never to change.
 */
export interface RoomStateStore {
  get(roomId: string): Promise<RoomState | undefined>;
  /** The room and member a join token (its SHA-256) names. */
  byToken(tokenHash: string): Promise<{ room: RoomState; member: MemberState } | undefined>;
  /** Runs `change` alone on the room (undefined when there is none) and keeps what it changed. */
  update<T>(roomId: string, change: (room: RoomState | undefined) => T): Promise<T>;
  /** As update, on the meeting's room, opened first when absent (its settings are refreshed). */
  open<T>(meeting: RoomMeeting, change: (room: RoomState) => T): Promise<T>;
  /** Drops a room at once and answers what it held (the meeting was deleted). */
  delete(roomId: string): Promise<RoomState | undefined>;
  /** Drops every room (server shutdown); a shared store keeps them for the other instances. */
  clear(): Promise<void>;

  // Shared stores only (Redis, several instances): what presence across instances needs.
  /** Keeps a participant swept with its crashed instance, so that its join token brings it back. */
  remember?(room: RoomState, member: MemberState): Promise<void>;
  /** The participant `remember` kept for this join token (its SHA-256), if any. */
  departed?(tokenHash: string): Promise<Departed | undefined>;
  /** Every room that has state. */
  roomIds?(): Promise<string[]>;
  /** Forgets a room id whose state is gone (expired). */
  forgetRoom?(roomId: string): Promise<void>;
  /**
   * The room is still in use (this instance holds a socket in it): its state's expiry starts
   * again, and this instance's copy of it (for `restore`) is brought up to date.
   */
  touch?(roomId: string): Promise<void>;
  /**
   * The shared state was lost (Redis restarted empty): puts back the members `ours` picks from
   * this instance's last copy of the room (the room too, with its settings, when it is gone),
   * without touching members that are there. Answers how many members it put back.
   */
  restore?(roomId: string, ours: (member: MemberState) => boolean): Promise<number>;
  /** Copies of rooms other than these are let go (the rooms where this instance holds sockets). */
  retain?(roomIds: string[]): void;
}

/** A participant swept with its crashed instance: its room, the meeting's public id, itself. */
export interface Departed {
  roomId: string;
  meetingId: string;
  member: MemberState;
}

/** The in-memory store: the rooms of this server instance. */
export function createMemoryRoomStore(): RoomStateStore {
  const rooms = new Map<string, RoomState>();
  /** tokenHash → where it points; entries are checked against the member's current token. */
  const tokens = new Map<string, { roomId: string; memberId: string }>();
  const roomTokens = new Map<string, Set<string>>();

  /** Keeps the token index and the room's presence in step with what a change did. */
  function keep(roomId: string): void {
    const room = rooms.get(roomId);
    const now = new Set<string>();
    if (room) for (const m of room.members.values()) now.add(m.tokenHash);
    for (const hash of roomTokens.get(roomId) ?? []) if (!now.has(hash)) tokens.delete(hash);
    if (room) for (const m of room.members.values()) tokens.set(m.tokenHash, { roomId, memberId: m.id });
    if (!room || room.members.size === 0) {
      rooms.delete(roomId);
      roomTokens.delete(roomId);
    } else {
      roomTokens.set(roomId, now);
    }
  }

  function run<T>(roomId: string, change: () => T): T {
    try {
      return change();
    } finally {
      keep(roomId);
    }
  }

  return {
    async get(roomId) {
      return rooms.get(roomId);
    },
    async byToken(tokenHash) {
      const ref = tokens.get(tokenHash);
      const room = ref ? rooms.get(ref.roomId) : undefined;
      const member = ref ? room?.members.get(ref.memberId) : undefined;
      return room && member && member.tokenHash === tokenHash ? { room, member } : undefined;
    },
    async update(roomId, change) {
      return run(roomId, () => change(rooms.get(roomId)));
    },
    async open(meeting, change) {
      let room = rooms.get(meeting.id);
      if (room) Object.assign(room.meeting, meeting);
      else rooms.set(meeting.id, (room = newRoom(meeting)));
      const opened = room;
      return run(meeting.id, () => change(opened));
    },
    async delete(roomId) {
      const room = rooms.get(roomId);
      rooms.delete(roomId);
      keep(roomId);
      return room;
    },
    async clear() {
      rooms.clear();
      tokens.clear();
      roomTokens.clear();
    },
  };
}
