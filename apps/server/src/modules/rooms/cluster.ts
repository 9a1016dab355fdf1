import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { SharedState } from '../../providers/bus/index.js';
import type { RoomService } from './service.js';
import type { RoomStateStore } from './store.js';

export const PRESENCE_KEYS = {
  /** Present while the instance beats (its value: the time of its last beat). */
  instance: (id: string) => `parley:instance:${id}`,
  /** Since when (ms) an instance's beat has been seen missing: the first strike. */
  suspect: (id: string) => `parley:instance-suspect:${id}`,
  /** Held by the one instance that sweeps during a beat. */
  sweep: 'parley:presence-sweep',
  /**
   * A random value set once by whichever instance finds it missing: when it is gone or changed,
   * Redis lost what it held (restarted without its data), rooms included.
   */
  epoch: 'parley:epoch',
};

/** The epoch's expiry, refreshed on every beat (so it is only ever missing after a loss). */
const EPOCH_TTL_MS = 7 * 24 * 3600_000;

/** The instance a socket id (`<instance>:<n>`, realtime/connection.ts) belongs to. */
export const instanceOfSocket = (socketId: string): string => socketId.slice(0, socketId.lastIndexOf(':'));

/**
 * Presence across server instances (REDIS_URL). Each instance beats every `ttlMs / 3`: its key
 * lives `ttlMs`, and the rooms where it holds sockets have their expiry refreshed. On each beat
 * one instance (whoever takes the sweep key) walks the rooms: a participant whose socket belongs
 * to an instance that stopped beating (crashed, killed) is gone from the room, and the room hears
 * participant_left (RoomService.sweep); so is one without a socket past its grace, whose timer
 * was on such an instance. An instance counts as stopped once its key has been seen missing on
 * two sweeps a beat apart, so a crashed instance's participants are gone within
 * `ttlMs + 2 × ttlMs / 3` plus a sweep (20 s with the default 12 s; measured under heavy load
 * with 1 s: about 2 s); their clients reconnect
 * through another instance, as the same participant.
 */
export function startClusterPresence(deps: {
  shared: SharedState;
  store: RoomStateStore;
  rooms: Pick<RoomService, 'sweep'>;
  instance: string;
  ttlMs: number;
  /** Rooms where this instance holds a socket. */
  localRooms(): string[];
  /** Whether this instance holds the participant's socket `socketId`. */
  holds(participantId: string, socketId: string): boolean;
  log: FastifyBaseLogger;
}) {
  const { shared, store, instance, ttlMs, log } = deps;
  const everyMs = Math.max(100, Math.floor(ttlMs / 3));
  let stopped = false;
  /** The epoch this instance last saw (null before the first beat). */
  let epoch: string | null = null;

  /** Whether Redis lost its data since the last look (the epoch is gone or another). */
  async function stateLost(): Promise<boolean> {
    let seen = await shared.get(PRESENCE_KEYS.epoch);
    if (seen === null) {
      await shared.setIfAbsent(PRESENCE_KEYS.epoch, randomUUID(), EPOCH_TTL_MS);
      seen = await shared.get(PRESENCE_KEYS.epoch);
    } else {
      await shared.expire(PRESENCE_KEYS.epoch, EPOCH_TTL_MS);
    }
    const lost = epoch !== null && seen !== epoch;
    epoch = seen;
    return lost;
  }

  /**
   * Redis came back empty: each instance puts back the participants whose sockets it holds, from
   * its last copy of their rooms, so the meetings go on as they were (nobody is told anyone left,
   * join tokens work again). What changed in the seconds before the loss may be missing.
   */
  async function restore(): Promise<void> {
    const ours = (m: { id: string; socketId: string | null }) =>
      m.socketId !== null && deps.holds(m.id, m.socketId);
    let members = 0;
    const rooms = deps.localRooms();
    for (const roomId of rooms) {
      if (!store.restore) break;
      members += await store.restore(roomId, ours).catch((err: unknown) => {
        log.error({ err, roomId }, 'could not restore a room after Redis lost it');
        return 0;
      });
    }
    log.warn(
      { rooms: rooms.length, members },
      'Redis lost the rooms: this instance’s participants were put back',
    );
  }

  async function beat(): Promise<void> {
    if (await stateLost()) await restore();
    await shared.setTtl(PRESENCE_KEYS.instance(instance), String(Date.now()), ttlMs);
    const rooms = deps.localRooms();
    await Promise.all(rooms.map((roomId) => store.touch?.(roomId)));
    store.retain?.(rooms);
  }

  /** One pass over every room; answers how many participants went. */
  async function sweep(): Promise<number> {
    const roomIds = (await store.roomIds?.()) ?? [];
    const rooms = await Promise.all(roomIds.map(async (id) => ({ id, room: await store.get(id) })));
    const owners = new Set<string>();
    for (const { room } of rooms) {
      for (const m of room?.members.values() ?? []) if (m.socketId) owners.add(instanceOfSocket(m.socketId));
    }
    const ownerList = [...owners].filter((o) => o !== instance);
    const beats = await shared.getMany(ownerList.map((o) => PRESENCE_KEYS.instance(o)));
    const dead = new Set<string>();
    const now = Date.now();
    for (const owner of ownerList.filter((_, i) => beats[i] === null)) {
      // Two strikes, a beat apart: a process that stalled (GC, a starved CPU) past its TTL beats
      // again on waking, before the second look, and keeps its participants.
      const key = PRESENCE_KEYS.suspect(owner);
      if (await shared.setIfAbsent(key, String(now), ttlMs * 3)) continue;
      if (now - Number(await shared.get(key)) >= everyMs / 2) dead.add(owner);
    }
    const isDead = (socketId: string) => dead.has(instanceOfSocket(socketId));
    let gone = 0;
    for (const { id, room } of rooms) {
      if (!room) {
        await store.forgetRoom?.(id);
        continue;
      }
      const suspects = [...room.members.values()].some(
        (m) => (m.socketId !== null && isDead(m.socketId)) || m.socketId === null,
      );
      if (!suspects) continue;
      gone += await deps.rooms.sweep(id, isDead, ttlMs).catch((err: unknown) => {
        log.error({ err, roomId: id }, 'presence sweep of a room failed');
        return 0;
      });
    }
    if (dead.size > 0 || gone > 0) log.info({ dead: [...dead], gone }, 'presence sweep');
    return gone;
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    await beat();
    // Held a little less than a beat, so that the next beat (whoever's) can take it.
    if (await shared.setIfAbsent(PRESENCE_KEYS.sweep, instance, Math.max(50, everyMs - 50))) await sweep();
  }

  const timer = setInterval(() => {
    tick().catch((err: unknown) => log.warn({ err }, 'presence beat failed'));
  }, everyMs);
  timer.unref();
  // Back from a lost connection: look at once whether Redis lost the rooms, not a beat later.
  shared.onReconnect(() => {
    if (!stopped) beat().catch((err: unknown) => log.warn({ err }, 'presence beat after a reconnect failed'));
  });

  return {
    /** The first beat, before this instance takes sockets. */
    start: beat,
    sweep,
    /**
     * Draining: the beats stop. The key is left to expire, so that the clients this instance
     * told to reconnect have `ttlMs` to resume elsewhere before the sweep takes their places.
     */
    stop(): void {
      stopped = true;
      clearInterval(timer);
    },
  };
}
