import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { WS_CLOSE, type ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Audience, BusEnvelope, RoomBus } from '../providers/bus/index.js';
import {
  toRoomParticipant,
  type Admission,
  type Conn,
  type Member,
  type Room,
  type RoomMeeting,
} from './types.js';

export const hashJoinToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Lifecycle of a meeting's row; never fired for an ephemeral room (the test room has no row). */
export interface HubEvents {
  /** The first admitted participant connected: the meeting is live. */
  onRoomLive?(room: Room): unknown;
  /** The last participant left (after its grace period) a room that had gone live. */
  onRoomEmpty?(room: Room): unknown;
}

export interface HubOptions {
  bus: RoomBus;
  /** How long a participant without a socket is kept (WS_LIMITS.resumeGraceMs; tests shorten it). */
  resumeGraceMs: number;
  /**
   * How long a participant that has never connected is kept after POST /join
   * (WS_LIMITS.joinTimeoutMs; tests shorten it): places taken by joins whose socket never comes
   * are freed quickly.
   */
  joinTimeoutMs: number;
  log: FastifyBaseLogger;
  events?: HubEvents;
}

export interface IssueInput {
  name: string;
  email: string | null;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  userId: string | null;
  sessionKey: string;
  admission: Admission;
}

export type LeaveReason = 'left' | 'removed' | 'timeout';

/**
 * The rooms of this server instance, in memory: participants (connected or within the resume
 * grace period), their join tokens, and the sockets that speak for them. Every message that leaves
 * a room goes out through the bus; the hub delivers what the bus hands back to its own sockets.
 */
export class RoomHub {
  private readonly rooms = new Map<string, Room>();
  private readonly tokens = new Map<string, { roomId: string; memberId: string }>();
  private readonly sessions = new Map<string, Set<Conn>>();
  private closing = false;
  /** How long a participant without a socket is kept; tests shorten it. */
  resumeGraceMs: number;
  /** How long a participant that never connected is kept; tests shorten it. */
  joinTimeoutMs: number;

  constructor(private readonly options: HubOptions) {
    this.resumeGraceMs = options.resumeGraceMs;
    this.joinTimeoutMs = options.joinTimeoutMs;
    options.bus.subscribe((envelope) => this.deliver(envelope));
  }

  /** The room of a meeting, created on first use; the meeting's settings are refreshed. */
  roomFor(meeting: RoomMeeting): Room {
    const existing = this.rooms.get(meeting.id);
    if (existing) {
      Object.assign(existing.meeting, meeting);
      return existing;
    }
    const room: Room = {
      id: meeting.id,
      meeting: { ...meeting },
      startedAt: new Date(),
      members: new Map(),
      bySession: new Map(),
      wentLive: false,
      ended: false,
    };
    this.rooms.set(room.id, room);
    return room;
  }

  getRoom(id: string): Room | undefined {
    return this.rooms.get(id);
  }

  memberBySession(room: Room, sessionKey: string): Member | undefined {
    const id = room.bySession.get(sessionKey);
    return id ? room.members.get(id) : undefined;
  }

  findByToken(token: string): { room: Room; member: Member } | null {
    const ref = this.tokens.get(hashJoinToken(token));
    if (!ref) return null;
    const room = this.rooms.get(ref.roomId);
    const member = room?.members.get(ref.memberId);
    return room && member ? { room, member } : null;
  }

  /**
   * Issues a join token: for a new participant, or for the participant this session key already
   * has (a reload), whose previous token stops working. A participant without a socket must
   * connect within the grace period.
   */
  issue(room: Room, input: IssueInput): { member: Member; token: string } {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashJoinToken(token);
    let member = this.memberBySession(room, input.sessionKey);
    if (member) {
      this.tokens.delete(member.tokenHash);
      member.tokenHash = tokenHash;
      member.name = input.name;
      member.email = input.email ?? member.email;
      member.isHost = input.isHost;
      member.userId = input.userId;
      if (member.admission === 'waiting') member.admission = input.admission;
      if (!member.announced) {
        member.isMuted = input.isMuted;
        member.isVideoOn = input.isVideoOn;
      }
    } else {
      member = {
        id: randomUUID(),
        name: input.name,
        email: input.email,
        isHost: input.isHost,
        isMuted: input.isMuted,
        isVideoOn: input.isVideoOn,
        isScreenSharing: false,
        admission: input.admission,
        userId: input.userId,
        sessionKey: input.sessionKey,
        tokenHash,
        conn: null,
        graceTimer: null,
        announced: false,
        everConnected: false,
        lastChat: null,
      };
      room.members.set(member.id, member);
      room.bySession.set(member.sessionKey, member.id);
    }
    this.tokens.set(tokenHash, { roomId: room.id, memberId: member.id });
    if (!member.conn) this.startGrace(room, member);
    return { member, token };
  }

  /**
   * Makes `conn` the socket of `member`. A previous socket of the same participant is closed with
   * WS_CLOSE.replaced. Returns whether the participant was already in the room (a resume).
   */
  attach(conn: Conn, room: Room, member: Member): { resumed: boolean } {
    const previous = member.conn;
    if (previous && previous !== conn) {
      previous.member = null;
      previous.room = null;
      previous.close(WS_CLOSE.replaced, 'Replaced by a newer connection');
    }
    this.clearGrace(member);
    member.conn = conn;
    member.everConnected = true;
    conn.member = member;
    conn.room = room;
    return { resumed: member.announced };
  }

  /** Tells the room an admitted participant is (back) in: participant_joined or _updated. */
  announce(room: Room, member: Member): void {
    if (member.admission !== 'admitted') return;
    const participant = toRoomParticipant(member);
    if (member.announced) {
      this.publish(room, { kind: 'all', except: member.id }, { type: 'participant_updated', participant });
      return;
    }
    member.announced = true;
    this.publish(room, { kind: 'all', except: member.id }, { type: 'participant_joined', participant });
    if (!room.wentLive) {
      room.wentLive = true;
      this.fire('onRoomLive', room);
    }
  }

  /** The socket closed: the participant stays for the grace period, shown as disconnected. */
  detach(conn: Conn): void {
    this.untrackSession(conn);
    const { member, room } = conn;
    conn.member = null;
    conn.room = null;
    if (!member || !room || member.conn !== conn) return;
    member.conn = null;
    if (this.closing) return;
    if (member.announced) {
      this.publish(
        room,
        { kind: 'all', except: member.id },
        { type: 'participant_updated', participant: toRoomParticipant(member) },
      );
    }
    this.startGrace(room, member);
  }

  /** Removes a participant for good. The caller closes its socket if it should be closed. */
  remove(room: Room, member: Member, reason: LeaveReason): void {
    if (room.members.get(member.id) !== member) return;
    this.clearGrace(member);
    this.tokens.delete(member.tokenHash);
    room.members.delete(member.id);
    room.bySession.delete(member.sessionKey);
    if (member.conn) {
      member.conn.member = null;
      member.conn.room = null;
      member.conn = null;
    }
    if (member.announced) {
      this.publish(room, { kind: 'all' }, { type: 'participant_left', participantId: member.id, reason });
    }
    if (member.admission === 'waiting') this.publishWaitingRoom(room);
    if (room.members.size === 0) {
      this.rooms.delete(room.id);
      if (room.wentLive) this.fire('onRoomEmpty', room);
    }
  }

  /** Participants shown to others: admitted and announced. */
  participants(room: Room, exceptId?: string) {
    const list = [];
    for (const m of room.members.values()) {
      if (m.announced && m.admission === 'admitted' && m.id !== exceptId) list.push(toRoomParticipant(m));
    }
    return list;
  }

  waiting(room: Room) {
    const list = [];
    for (const m of room.members.values())
      if (m.admission === 'waiting') list.push({ id: m.id, name: m.name });
    return list;
  }

  publishWaitingRoom(room: Room): void {
    this.publish(room, { kind: 'hosts' }, { type: 'waiting_room', waiting: this.waiting(room) });
  }

  publish(room: Room, to: Audience, message: ServerMessage): void {
    this.options.bus.publish({ roomId: room.id, to, message });
  }

  trackSession(conn: Conn): void {
    if (!conn.idHash) return;
    let set = this.sessions.get(conn.idHash);
    if (!set) this.sessions.set(conn.idHash, (set = new Set()));
    set.add(conn);
  }

  private untrackSession(conn: Conn): void {
    if (!conn.idHash) return;
    const set = this.sessions.get(conn.idHash);
    set?.delete(conn);
    if (set?.size === 0) this.sessions.delete(conn.idHash);
  }

  /** A signed-in session ended (logout, expiry): its sockets close and their participants leave. */
  endSession(idHash: string): void {
    const set = this.sessions.get(idHash);
    if (!set) return;
    this.sessions.delete(idHash);
    for (const conn of set) {
      if (conn.member && conn.room) this.remove(conn.room, conn.member, 'left');
      conn.close(WS_CLOSE.sessionEnded, 'Session ended');
    }
  }

  /**
   * Ends a meeting's room at once (the meeting was deleted): every participant is removed, its
   * join token stops working and its socket is closed with WS_CLOSE.meetingEnded (4005). No
   * meeting status is written (there is no row any more). Returns how many participants left.
   */
  endRoom(roomId: string, reason = 'This meeting has ended'): number {
    const room = this.rooms.get(roomId);
    if (!room) return 0;
    this.rooms.delete(roomId);
    room.ended = true;
    const members = [...room.members.values()];
    room.members.clear();
    room.bySession.clear();
    for (const member of members) {
      this.clearGrace(member);
      this.tokens.delete(member.tokenHash);
      const conn = member.conn;
      member.conn = null;
      if (conn) {
        conn.member = null;
        conn.room = null;
        conn.close(WS_CLOSE.meetingEnded, reason);
      }
    }
    return members.length;
  }

  /** Counts for monitoring and tests. */
  stats() {
    let members = 0;
    for (const r of this.rooms.values()) members += r.members.size;
    return { rooms: this.rooms.size, members, tokens: this.tokens.size };
  }

  shutdown(): void {
    this.closing = true;
    for (const room of this.rooms.values()) {
      for (const m of room.members.values()) {
        this.clearGrace(m);
        m.conn?.close(WS_CLOSE.goingAway, 'Server is restarting');
      }
    }
    this.rooms.clear();
    this.tokens.clear();
  }

  private deliver(envelope: BusEnvelope): void {
    const room = this.rooms.get(envelope.roomId);
    if (!room) return;
    const to = envelope.to;
    if (to.kind === 'one') {
      room.members.get(to.participantId)?.conn?.send(envelope.message);
      return;
    }
    let text: string | null = null;
    for (const m of room.members.values()) {
      if (!m.conn || m.admission !== 'admitted') continue;
      if (to.kind === 'all' && m.id === to.except) continue;
      if (to.kind === 'hosts' && !m.isHost) continue;
      text ??= JSON.stringify(envelope.message);
      m.conn.sendText(text);
    }
  }

  /** A participant without a socket leaves after the resume grace, or sooner if it never connected. */
  private startGrace(room: Room, member: Member): void {
    this.clearGrace(member);
    member.graceTimer = setTimeout(
      () => {
        member.graceTimer = null;
        if (!member.conn) this.remove(room, member, 'timeout');
      },
      member.everConnected ? this.resumeGraceMs : this.joinTimeoutMs,
    );
    member.graceTimer.unref();
  }

  private clearGrace(member: Member): void {
    if (member.graceTimer) clearTimeout(member.graceTimer);
    member.graceTimer = null;
  }

  private fire(event: keyof HubEvents, room: Room): void {
    if (room.meeting.ephemeral) return;
    try {
      const result = this.options.events?.[event]?.(room);
      if (result instanceof Promise) {
        result.catch((err: unknown) => this.options.log.error({ err, event }, 'room event failed'));
      }
    } catch (err) {
      this.options.log.error({ err, event }, 'room event failed');
    }
  }
}
