import type { SharedState, SharedWrite } from '../../providers/bus/index.js';
import {
  memberByToken,
  newRoom,
  type MemberState,
  type RemovedEntry,
  type RoomMeeting,
  type RoomState,
  type Transcription,
} from './state.js';
import type { Departed, RoomStateStore } from './store.js';

/** Redis keys of the shared room store. */
export const ROOM_KEYS = {
  room: (roomId: string) => `parley:roomstate:${roomId}`,
  lock: (roomId: string) => `parley:roomlock:${roomId}`,
  token: (tokenHash: string) => `parley:roomtoken:${tokenHash}`,
  ghost: (tokenHash: string) => `parley:roomghost:${tokenHash}`,
  /** Every room that has state (the presence sweeper walks it). */
  rooms: 'parley:rooms',
};

/**
 * How long a room's state outlives its last write: a backstop for rooms left behind when every
 * instance died at once. Writes and the presence heartbeat of any instance with a socket in the
 * room refresh it.
 */
export const ROOM_TTL_MS = 24 * 3600_000;
/** How long a participant swept with its crashed instance can come back as itself. */
export const GHOST_TTL_MS = 10 * 60_000;
/** At most this many waiting changes of a room run under one take of its lock. */
const MAX_BATCH = 100;

/** A change of a room: the room after it (undefined: gone) and what it answers. */
type Change<T> = (room: RoomState | undefined) => { room: RoomState | undefined; result: T };
interface Pending<T> {
  change: Change<T>;
  resolve(result: T): void;
  reject(err: unknown): void;
}

interface StoredRoom {
  id: string;
  meeting: RoomMeeting;
  startedAt: string;
  members: MemberState[];
  bySession: Array<[string, string]>;
  wentLive: boolean;
  ended: boolean;
  allMuted: boolean;
  denied: Array<[string, RemovedEntry]>;
  transcription: Transcription | null;
}

export function serializeRoom(room: RoomState): string {
  const stored: StoredRoom = {
    id: room.id,
    meeting: room.meeting,
    startedAt: room.startedAt.toISOString(),
    members: [...room.members.values()],
    bySession: [...room.bySession],
    wentLive: room.wentLive,
    ended: room.ended,
    allMuted: room.allMuted,
    denied: [...room.denied],
    transcription: room.transcription,
  };
  return JSON.stringify(stored);
}

export function parseRoom(text: string): RoomState {
  const s = JSON.parse(text) as StoredRoom;
  return {
    id: s.id,
    meeting: s.meeting,
    startedAt: new Date(s.startedAt),
    members: new Map(s.members.map((m) => [m.id, m])),
    bySession: new Map(s.bySession),
    wentLive: s.wentLive,
    ended: s.ended,
    allMuted: s.allMuted,
    denied: new Map(s.denied),
    transcription: s.transcription,
  };
}

const tokensOf = (room: RoomState | undefined): Set<string> =>
  new Set(room ? [...room.members.values()].map((m) => m.tokenHash) : []);

/**
 * The room store of several server instances: each room is one JSON value in Redis, changed
 * only under the room's lock (take the lock, read, run the change, write only if the lock is
 * still ours, release), so two instances changing one room one after the other never lose a
 * change. Join tokens are indexed by their hash; a room without members is deleted, as in
 * memory. What `get` answers is a copy: changing it changes nothing (use `update`).
 */
export function createRedisRoomStore(shared: SharedState): RoomStateStore {
  /**
   * What this instance last read or wrote of each room it uses: what it puts back if Redis loses
   * the rooms (`restore`). The room's latest text, and every member seen in it by its latest
   * state: a read that lacks a member (Redis lost the room; another instance put back only its
   * own) never forgets it, and `restore` takes only members whose socket this instance holds.
   * A room this instance deleted drops its copy; `retain` lets go of rooms where this instance
   * no longer holds sockets.
   */
  const copies = new Map<string, { text: string; members: Map<string, MemberState> }>();
  function copy(roomId: string, text: string, room: RoomState): void {
    let entry = copies.get(roomId);
    if (!entry) copies.set(roomId, (entry = { text, members: new Map() }));
    entry.text = text;
    for (const m of room.members.values()) entry.members.set(m.id, m);
  }

  async function read(roomId: string): Promise<RoomState | undefined> {
    const text = await shared.get(ROOM_KEYS.room(roomId));
    if (!text) return undefined;
    const room = parseRoom(text);
    copy(roomId, text, room);
    return room;
  }

  /**
   * This instance's changes of a room wait in arrival order, and whatever waits when the room's
   * lock is free runs under one take of it: one read, each change in turn on the same state, one
   * write. So the lock is contended by instances, not by every request, and a burst (50 clients
   * of a killed instance resuming at once; 100 people joining one meeting) costs a few round
   * trips instead of three each with back-off between (bench/cluster-failover.ts: the killed
   * instance's clients back in p50 15 s, max 17.5 s, with each change taking the lock alone).
   */
  const waiting = new Map<string, Array<Pending<unknown>>>();
  const draining = new Set<string>();

  /** Runs `change` on the room under its lock and writes what it did (also when it threw). */
  function locked<T>(roomId: string, change: Change<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let list = waiting.get(roomId);
      if (!list) waiting.set(roomId, (list = []));
      list.push({ change, resolve, reject } as Pending<unknown>);
      if (!draining.has(roomId)) void drain(roomId);
    });
  }

  async function drain(roomId: string): Promise<void> {
    draining.add(roomId);
    try {
      for (;;) {
        const list = waiting.get(roomId);
        if (!list?.length) {
          waiting.delete(roomId);
          return;
        }
        const batch = list.splice(0, MAX_BATCH);
        await runBatch(roomId, batch);
      }
    } finally {
      draining.delete(roomId);
    }
  }

  /** One take of the lock for `batch`; settles each of its changes, never throws. */
  async function runBatch(roomId: string, batch: Array<Pending<unknown>>): Promise<void> {
    const lockKey = ROOM_KEYS.lock(roomId);
    let token: string;
    try {
      token = await shared.lock(lockKey);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    let committed = false;
    try {
      const text = await shared.get(ROOM_KEYS.room(roomId));
      // The changes mutate `working`; the tokens before are taken first, to compare.
      let working = text ? parseRoom(text) : undefined;
      const tokensBefore = tokensOf(working);
      const outcomes = batch.map((p) => {
        try {
          const outcome = p.change(working);
          working = outcome.room;
          return { ok: true as const, result: outcome.result };
        } catch (err) {
          // What a refused change did before it threw is kept, as for a change alone.
          return { ok: false as const, err };
        }
      });
      const writes = writesFor(roomId, text, working, tokensBefore);
      committed = await shared.commit(lockKey, token, writes, true);
      if (!committed) throw new Error(`room ${roomId}: the lock expired before the change was written`);
      if (working && working.members.size > 0) copy(roomId, serializeRoom(working), working);
      else copies.delete(roomId);
      outcomes.forEach((o, i) => (o.ok ? batch[i]!.resolve(o.result) : batch[i]!.reject(o.err)));
    } catch (err) {
      for (const p of batch) p.reject(err);
    } finally {
      if (!committed) await shared.unlock(lockKey, token).catch(() => undefined);
    }
  }

  function writesFor(
    roomId: string,
    before: string | null,
    room: RoomState | undefined,
    tokensBefore: Set<string>,
  ): SharedWrite[] {
    const writes: SharedWrite[] = [];
    const alive = room && room.members.size > 0;
    const tokensNow = alive ? tokensOf(room) : new Set<string>();
    for (const hash of tokensBefore) {
      if (!tokensNow.has(hash)) writes.push({ op: 'del', key: ROOM_KEYS.token(hash) });
    }
    if (!alive) {
      if (before !== null) {
        writes.push({ op: 'del', key: ROOM_KEYS.room(roomId) });
        writes.push({ op: 'srem', key: ROOM_KEYS.rooms, member: roomId });
      }
      return writes;
    }
    const text = serializeRoom(room);
    if (text === before && tokensNow.size === tokensBefore.size) return writes;
    writes.push({ op: 'set', key: ROOM_KEYS.room(roomId), value: text, ttlMs: ROOM_TTL_MS });
    if (before === null) writes.push({ op: 'sadd', key: ROOM_KEYS.rooms, member: roomId });
    for (const hash of tokensNow) {
      if (!tokensBefore.has(hash)) {
        writes.push({ op: 'set', key: ROOM_KEYS.token(hash), value: roomId, ttlMs: ROOM_TTL_MS });
      }
    }
    return writes;
  }

  return {
    get: read,
    async byToken(tokenHash) {
      const roomId = await shared.get(ROOM_KEYS.token(tokenHash));
      const room = roomId ? await read(roomId) : undefined;
      const member = room ? memberByToken(room, tokenHash) : undefined;
      return room && member ? { room, member } : undefined;
    },
    update(roomId, change) {
      return locked(roomId, (room) => ({ room, result: change(room) }));
    },
    open(meeting, change) {
      return locked(meeting.id, (found) => {
        const room = found ?? newRoom(meeting);
        if (found) Object.assign(room.meeting, meeting);
        return { room, result: change(room) };
      });
    },
    delete(roomId) {
      return locked(roomId, (room) => ({ room: undefined, result: room }));
    },
    /** The rooms are shared: an instance going away leaves them to the others. */
    async clear() {},

    async remember(room, member) {
      const departed: Departed = { roomId: room.id, meetingId: room.meeting.meetingId, member };
      await shared.setTtl(ROOM_KEYS.ghost(member.tokenHash), JSON.stringify(departed), GHOST_TTL_MS);
    },
    async departed(tokenHash) {
      const text = await shared.get(ROOM_KEYS.ghost(tokenHash));
      return text ? (JSON.parse(text) as Departed) : undefined;
    },
    roomIds: () => shared.members(ROOM_KEYS.rooms),
    async forgetRoom(roomId) {
      if (!(await shared.get(ROOM_KEYS.room(roomId)))) await shared.removeMember(ROOM_KEYS.rooms, roomId);
    },
    async touch(roomId) {
      await shared.expire(ROOM_KEYS.room(roomId), ROOM_TTL_MS);
      await read(roomId);
    },
    async restore(roomId, ours) {
      const entry = copies.get(roomId);
      if (!entry) return 0;
      // Parsed again: what goes back into the room must not be the copy's own objects.
      const last = parseRoom(entry.text);
      const mine = [...entry.members.values()].filter(ours).map((m) => structuredClone(m));
      return locked(roomId, (found) => {
        const room = found ?? { ...last, members: new Map(), bySession: new Map() };
        let restored = 0;
        for (const m of mine) {
          if (room.members.has(m.id)) continue;
          room.members.set(m.id, m);
          restored++;
        }
        for (const [session, id] of last.bySession) {
          if (room.members.has(id) && !room.bySession.has(session)) room.bySession.set(session, id);
        }
        // Nobody the host removed comes back: the removal lists are merged.
        for (const [key, removed] of last.denied) if (!room.denied.has(key)) room.denied.set(key, removed);
        return { room, result: restored };
      });
    },
    retain(roomIds) {
      const keep = new Set(roomIds);
      for (const id of copies.keys()) if (!keep.has(id)) copies.delete(id);
    },
  };
}
