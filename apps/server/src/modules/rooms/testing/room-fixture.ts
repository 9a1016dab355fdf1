import { randomUUID } from 'node:crypto';
import type { ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { MeetingRow } from '../../../db/schema/index.js';
import type { ActiveSession } from '../../auth/session-service.js';
import { createRoomEvents, type RoomEventWire } from '../events.js';
import { createJoinGate, type Caller } from '../gate.js';
import type { RoomsRepository } from '../repository.js';
import { createRoomService, type JoinInput } from '../service.js';
import { createMemoryRoomStore } from '../store.js';
import type { Actor, Audience, ParticipantSocket, RoomTransport } from '../transport.js';

/**
 * A RoomService on the in-memory store with no database, no sockets and no bus: meetings are
 * rows in a map, and the transport records what the room published and which sockets it closed.
 * For unit tests of the room's rules.
 */
export function roomFixture(
  timings = { resumeGraceMs: 45_000, closedGraceMs: 5_000, joinTimeoutMs: 10_000, knockTimeoutMs: 600_000 },
) {
  /** Signed-in users with Pro (tests add to it). */
  const proUsers = new Set<string>();
  const rows = new Map<string, MeetingRow>();
  const published: Array<{ roomId: string; to: Audience; message: ServerMessage }> = [];
  const closed: Array<{ participantId: string; code: number; reason: string; last?: ServerMessage }> = [];
  const statuses: string[] = [];
  /** The room's events, in the order it emitted them (as the bus would hand them back). */
  const emitted: RoomEventWire[] = [];
  const log = { error: () => undefined } as unknown as FastifyBaseLogger;
  const events = createRoomEvents(log);
  const transport: RoomTransport = {
    publish: (roomId, to, message) => published.push({ roomId, to, message }),
    close: (participantId, code, reason, last) => closed.push({ participantId, code, reason, last }),
    emit: (event) => {
      emitted.push(event);
      // One instance holding every socket: an entered participant's socket is local.
      events.dispatch(event, event.kind === 'entered');
    },
  };
  const repo = {
    findMeeting: async (publicId: string) => rows.get(publicId) ?? null,
    markLive: async (id: string) => void statuses.push(`live ${id}`),
    markFinished: async (id: string, status: string) => void statuses.push(`${status} ${id}`),
    heartbeat: async () => undefined,
    holdLive: async () => undefined,
    finishOrphaned: async () => 0,
  } satisfies RoomsRepository;
  const rooms = createRoomService({
    store: createMemoryRoomStore(),
    transport,
    events,
    gate: createJoinGate(repo, { testRoom: true }),
    repo,
    instance: 'test-instance',
    chatHistory: async () => [],
    iceServers: () => [],
    isPro: async (userId) => proUsers.has(userId),
    canTranscribe: () => true,
    log,
    timings,
  });

  const hostId = randomUUID();
  let nextDigits = 100_000_000;

  function meeting(extra: Partial<MeetingRow> = {}): MeetingRow {
    const digits = String(nextDigits++);
    const row = {
      id: randomUUID(),
      meetingId: `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`,
      title: 'Standup',
      hostId,
      meetingType: 'instant',
      status: 'live',
      isActive: true,
      isRecurring: false,
      maxParticipants: 100,
      waitingRoom: false,
      passwordHash: null,
      ...extra,
    } as MeetingRow;
    rows.set(row.meetingId, row);
    return row;
  }

  const callerFor = (userId: string | null): Caller => ({
    auth: userId ? ({ idHash: 'x', user: { id: userId }, idToken: null } as unknown as ActiveSession) : null,
    clientKey: `client-${randomUUID()}`,
  });

  function socketFor(publicId: string, userId: string | null = null) {
    const socket: ParticipantSocket & { bound: Actor | null } = {
      id: randomUUID(),
      meetingId: publicId,
      userId,
      isOpen: true,
      bound: null,
      // The fixture's transport records what is published; it delivers nothing to hold.
      hearRoom() {},
      bind(roomId, participantId) {
        socket.bound = { roomId, participantId };
      },
    };
    return socket;
  }

  interface Who {
    name?: string;
    /** The signed-in user; `hostId` makes the meeting's owner (joining as host). */
    userId?: string | null;
    sessionId?: string;
    isMuted?: boolean;
    /** The join token this browser had before (a reload). */
    resumeToken?: string;
  }

  /** POST /join as `who`. */
  function join(row: MeetingRow, who: Who = {}) {
    const userId = who.userId ?? null;
    const input: JoinInput = {
      name: who.name ?? 'Guest',
      isHost: userId === row.hostId,
      isMuted: who.isMuted ?? false,
      isVideoOn: true,
      sessionId: who.sessionId ?? randomUUID(),
      ...(who.resumeToken ? { resumeToken: who.resumeToken } : {}),
    };
    return rooms.join(row.meetingId, input, callerFor(userId));
  }

  /** POST /join, then join_meeting on a socket: the participant is in the room (or waiting). */
  async function enter(row: MeetingRow, who: Who = {}) {
    const joined = await join(row, who);
    const socket = socketFor(row.meetingId, who.userId ?? null);
    await rooms.resume(joined.joinToken, socket);
    const actor: Actor = { roomId: row.id, participantId: joined.id };
    return { ...joined, actor, socket };
  }

  /** What the room published since the last call (and forgets it). */
  function take() {
    return published.splice(0);
  }

  return {
    rooms,
    hostId,
    meeting,
    join,
    enter,
    take,
    published,
    closed,
    statuses,
    emitted,
    socketFor,
    proUsers,
  };
}
