import { WS_CLOSE, type ServerMessage } from '@parley/protocol';
import type { RoomEventWire } from '../modules/rooms/events.js';
import type { Actor, RoomTransport } from '../modules/rooms/transport.js';
import type { Audience, BusEnvelope, RoomBus } from '../providers/bus/index.js';
import type { Conn } from './types.js';

/** Broadcasts kept at most for a socket entering a room (hearRoom). */
const MAX_HELD = 500;

/**
 * The sockets of this server instance, by participant, room and signed-in session, and the room
 * transport on top of them: room messages go out through the bus, and what the bus hands back is
 * delivered here to the sockets it concerns. A socket hears the room's broadcasts from its
 * `joined` on, and right after it those said while it was entering (`hold`); waiting guests and
 * sockets that have not joined hear only their own messages.
 */
export function createSockets(bus: RoomBus, instance: string) {
  const byParticipant = new Map<string, Conn>();
  /** Services that also hear every envelope (collaboration: other instances' updates). */
  const observers: Array<(envelope: BusEnvelope) => void> = [];
  /** The room's events as the bus delivers them here (modules/rooms/events.ts). */
  let hearEvent: ((event: RoomEventWire, local: boolean) => void) | null = null;
  const byRoom = new Map<string, Set<Conn>>();
  /** Sockets entering a room (hearRoom), by room: its broadcasts are kept for after `joined`. */
  const entering = new Map<string, Set<Conn>>();
  const bySession = new Map<string, Set<Conn>>();

  let sessionEndedElsewhere: ((idHash: string) => void) | null = null;

  function deliver(envelope: BusEnvelope): void {
    for (const observe of observers) observe(envelope);
    if (envelope.event) {
      // The bus carries what `emit` put there: a room event, for the services, not the sockets.
      const event = envelope.event as RoomEventWire;
      const local =
        event.kind === 'entered' && byParticipant.get(event.participant.id)?.id === event.socketId;
      hearEvent?.(event, local);
      return;
    }
    const { roomId, to, message, close, sessionEnded } = envelope;
    if (sessionEnded) {
      // Also heard by the instance that published it: its sockets of the session are gone by then.
      sessionEndedElsewhere?.(sessionEnded);
      return;
    }
    if (close) {
      // Another instance closes a socket this one may hold (the room does not name the room
      // when it closes a participant's socket, so the participant and socket id decide).
      if (to.kind !== 'one') return;
      const conn = byParticipant.get(to.participantId);
      if (!conn || (close.socketId !== undefined && conn.id !== close.socketId)) return;
      if (roomId && conn.roomId !== roomId) return;
      if (message) conn.send(message);
      unbind(conn);
      conn.close(close.code, close.reason);
      return;
    }
    if (!message) return;
    if (to.kind === 'one') {
      const conn = byParticipant.get(to.participantId);
      if (!conn || conn.roomId !== roomId) return;
      if (message.type === 'joined') {
        conn.inRoom = true;
        conn.isHost = message.self.isHost;
      }
      const held = message.type === 'joined' || message.type === 'waiting' ? release(conn) : [];
      conn.send(message);
      if (message.type === 'joined') for (const h of held) conn.sendText(h.text, h.type);
      return;
    }
    let text: string | null = null;
    if (to.kind === 'all') {
      for (const conn of entering.get(roomId) ?? []) {
        const held = conn.held;
        if (!held || held.participantId === to.except) continue;
        text ??= JSON.stringify(message);
        held.messages.push({ text, type: message.type });
        // Entering takes milliseconds; a socket that never gets its `joined` stops holding.
        if (held.messages.length > MAX_HELD) release(conn);
      }
    }
    for (const conn of byRoom.get(roomId) ?? []) {
      if (!conn.inRoom) continue;
      if (to.kind === 'all' && conn.participantId === to.except) continue;
      if (to.kind === 'hosts' && !conn.isHost) continue;
      text ??= JSON.stringify(message);
      conn.sendText(text, message.type);
    }
  }
  bus.subscribe(deliver);

  /** The socket stops holding the room's broadcasts; answers what it held. */
  function release(conn: Conn): Array<{ text: string; type: ServerMessage['type'] }> {
    const held = conn.held;
    if (!held) return [];
    conn.held = null;
    const set = entering.get(held.roomId);
    set?.delete(conn);
    if (set?.size === 0) entering.delete(held.roomId);
    return held.messages;
  }

  /** The socket no longer speaks for its participant; answers who that was, if it still did. */
  function unbind(conn: Conn): Actor | null {
    release(conn);
    const { roomId, participantId } = conn;
    conn.roomId = null;
    conn.participantId = null;
    conn.inRoom = false;
    if (!roomId || !participantId) return null;
    const set = byRoom.get(roomId);
    set?.delete(conn);
    if (set?.size === 0) byRoom.delete(roomId);
    if (byParticipant.get(participantId) !== conn) return null;
    byParticipant.delete(participantId);
    return { roomId, participantId };
  }

  const transport: RoomTransport = {
    publish(roomId: string, to: Audience, message: ServerMessage) {
      bus.publish({ roomId, to, message, origin: instance });
    },
    emit(event) {
      bus.publish({ roomId: event.roomId, to: { kind: 'all' }, event, origin: instance });
    },
    close(participantId, code, reason, last) {
      const conn = byParticipant.get(participantId);
      if (!conn) {
        // Several instances: the socket may be held by another one.
        if (bus.kind !== 'in-process') {
          bus.publish({
            roomId: '',
            to: { kind: 'one', participantId },
            message: last,
            close: { code, reason },
          });
        }
        return;
      }
      if (last) conn.send(last);
      unbind(conn);
      conn.close(code, reason);
    },
  };

  return {
    transport,
    unbind,

    /** Closes the participant's socket `socketId` on whichever instance holds it (4009). */
    closeStale(roomId: string, participantId: string, socketId: string): void {
      const local = byParticipant.get(participantId);
      if (local?.id === socketId) {
        unbind(local);
        local.close(WS_CLOSE.replaced, 'Replaced by a newer connection');
        return;
      }
      if (bus.kind === 'in-process') return;
      bus.publish({
        roomId,
        to: { kind: 'one', participantId },
        close: { code: WS_CLOSE.replaced, reason: 'Replaced by a newer connection', socketId },
      });
    },

    /** The rooms where a socket of this instance speaks for a participant. */
    rooms(): string[] {
      return [...byRoom.keys()];
    },

    /** This instance's name (envelopes it publishes carry it as `origin`). */
    instance,

    /**
     * `observer` hears every envelope the bus hands this instance, its own too, before the
     * sockets do (it must not throw).
     */
    observe(observer: (envelope: BusEnvelope) => void): void {
      observers.push(observer);
    },

    /**
     * The room's events (`transport.emit`, from any instance) go to `handler`; `local`: an
     * `entered` participant's socket is the one this instance holds.
     */
    onRoomEvent(handler: (event: RoomEventWire, local: boolean) => void): void {
      hearEvent = handler;
    },

    /** An envelope for the other instances' services, not for sockets (it carries no message). */
    tellInstances(roomId: string, collaboration: NonNullable<BusEnvelope['collaboration']>): void {
      if (bus.kind !== 'in-process')
        bus.publish({ roomId, to: { kind: 'all' }, origin: instance, collaboration });
    },

    /** Whether this instance holds the participant's socket `socketId`, open and bound. */
    holds(participantId: string, socketId: string): boolean {
      return byParticipant.get(participantId)?.id === socketId;
    },

    /** How many sockets of this instance speak for a participant. */
    get count(): number {
      return byParticipant.size;
    },

    /** `conn` is entering the room for the participant: the room's broadcasts wait for its `joined`. */
    hold(conn: Conn, roomId: string, participantId: string): void {
      release(conn);
      conn.held = { roomId, participantId, messages: [] };
      let set = entering.get(roomId);
      if (!set) entering.set(roomId, (set = new Set()));
      set.add(conn);
    },

    /** `conn` speaks for the participant; a previous socket of it is closed (4009). */
    bind(conn: Conn, roomId: string, participantId: string): void {
      const previous = byParticipant.get(participantId);
      if (previous && previous !== conn) {
        unbind(previous);
        previous.close(WS_CLOSE.replaced, 'Replaced by a newer connection');
      }
      conn.roomId = roomId;
      conn.participantId = participantId;
      byParticipant.set(participantId, conn);
      let set = byRoom.get(roomId);
      if (!set) byRoom.set(roomId, (set = new Set()));
      set.add(conn);
    },

    /** Remembers the socket's signed-in session (its end closes the socket). */
    track(conn: Conn): void {
      if (!conn.idHash) return;
      let set = bySession.get(conn.idHash);
      if (!set) bySession.set(conn.idHash, (set = new Set()));
      set.add(conn);
    },

    untrack(conn: Conn): void {
      if (!conn.idHash) return;
      const set = bySession.get(conn.idHash);
      set?.delete(conn);
      if (set?.size === 0) bySession.delete(conn.idHash);
    },

    /** Several instances: the other instances close their sockets of the session too. */
    announceSessionEnd(idHash: string): void {
      if (bus.kind !== 'in-process') bus.publish({ roomId: '', to: { kind: 'all' }, sessionEnded: idHash });
    },

    /** What to do when another instance says a signed-in session ended. */
    onSessionEndElsewhere(handler: (idHash: string) => void): void {
      sessionEndedElsewhere = handler;
    },

    /** The sockets of a signed-in session, forgotten here (the session ended). */
    takeSession(idHash: string): Conn[] {
      const set = bySession.get(idHash);
      bySession.delete(idHash);
      return set ? [...set] : [];
    },

    /** Closes every socket that speaks for a participant (server shutdown). */
    closeAll(code: number, reason: string): void {
      for (const conn of [...byParticipant.values()]) {
        unbind(conn);
        conn.close(code, reason);
      }
    },
  };
}
export type Sockets = ReturnType<typeof createSockets>;
