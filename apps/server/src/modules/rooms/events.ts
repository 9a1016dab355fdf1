import type { ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';

/**
 * What happens in a room that other features follow (the free-time clock, attendance, the
 * media, recording), as typed events instead of wire messages to decode. The RoomService emits
 * them after each change; they travel on the bus as their own envelope kind, so every instance
 * hears every room's events in the order they were emitted (as Immich's typed EventMap,
 * `server/src/repositories/event.repository.ts`).
 */
export interface RoomEventMap {
  /**
   * An admitted participant's `joined` went out: it is in the room (again, when `resumed`).
   * `local`: its socket is on this instance (clocks that run per socket start here only).
   */
  entered: {
    roomId: string;
    participant: { id: string; name: string; isHost: boolean };
    resumed: boolean;
    local: boolean;
  };
  /** A participant's socket dropped: it stays for the resume grace, shown disconnected. */
  away: { roomId: string; participantId: string };
  /** A participant left the room for good; `inRoom`: how many participants are still in it. */
  left: { roomId: string; participantId: string; reason: 'left' | 'removed' | 'timeout'; inRoom: number };
  /** The room ended (its meeting was deleted): everyone in it is gone, with no `left` each. */
  ended: { roomId: string; participantIds: string[] };
  /** A participant in the room is shown muted (by itself, by the host, by Mute All). */
  muted: { roomId: string; participantId: string };
}
export type RoomEventKind = keyof RoomEventMap;
export type RoomEvent = { [K in RoomEventKind]: { kind: K } & RoomEventMap[K] }[RoomEventKind];

/**
 * A room event as it travels between instances: `entered` names the socket instead of saying
 * whether it is local, which each instance answers for itself.
 */
export type RoomEventWire =
  | (Omit<RoomEvent & { kind: 'entered' }, 'local'> & { socketId: string })
  | Exclude<RoomEvent, { kind: 'entered' }>;

/** A participant's `joined` is going out on this instance. */
export interface Joining {
  roomId: string;
  participantId: string;
  /** How many participants are in the room with it (it included). */
  inRoom: number;
  resumed: boolean;
}

/**
 * What a feature adds around a participant's `joined`, on the instance that sends it: messages
 * to the participant right before it (the media mode, so that it never starts a mesh the room no
 * longer uses), and what to do right after it, before the room hears of the participant (tell
 * it who speaks, what records).
 */
export type JoinedHook = (joining: Joining) => { before?: ServerMessage[]; after?: () => void } | void;

type Follower<K extends RoomEventKind> = (event: RoomEventMap[K]) => void | Promise<void>;

/**
 * The room's event port: features register followers (`on`) and hooks around `joined` from their
 * own plugins; the rooms plugin hands it every event the bus delivers (`dispatch`). A follower's
 * failure is logged and never reaches the room or the other followers.
 */
export function createRoomEvents(log: Pick<FastifyBaseLogger, 'error'>) {
  const followers: { [K in RoomEventKind]: Follower<K>[] } = {
    entered: [],
    away: [],
    left: [],
    ended: [],
    muted: [],
  };
  const hooks: JoinedHook[] = [];

  function run<K extends RoomEventKind>(kind: K, event: RoomEventMap[K]): void {
    for (const follow of followers[kind]) {
      try {
        const done = follow(event);
        if (done) done.catch((err: unknown) => log.error({ err, kind }, 'a room event follower failed'));
      } catch (err) {
        log.error({ err, kind }, 'a room event follower failed');
      }
    }
  }

  return {
    on<K extends RoomEventKind>(kind: K, follower: Follower<K>): void {
      followers[kind].push(follower);
    },

    aroundJoined(hook: JoinedHook): void {
      hooks.push(hook);
    },

    /** The hooks' parts for one `joined`, in the order they were registered. */
    joining(joining: Joining): { before: ServerMessage[]; after: Array<() => void> } {
      const before: ServerMessage[] = [];
      const after: Array<() => void> = [];
      for (const hook of hooks) {
        const parts = hook(joining);
        if (parts?.before) before.push(...parts.before);
        if (parts?.after) after.push(parts.after);
      }
      return { before, after };
    },

    /** An event as this instance hears it; `local`: an `entered` participant's socket is here. */
    dispatch(wire: RoomEventWire, local: boolean): void {
      if (wire.kind === 'entered') {
        const { kind: _kind, socketId: _socketId, ...rest } = wire;
        run('entered', { ...rest, local });
        return;
      }
      const { kind, ...rest } = wire;
      // Each kind's fields are its map entry's (RoomEventWire is built from RoomEventMap).
      run(kind, rest as never);
    },
  };
}
export type RoomEvents = ReturnType<typeof createRoomEvents>;
