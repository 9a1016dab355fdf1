import {
  WS_CLOSE,
  type ChatMessage,
  type IceServer,
  type JoinResponse,
  type LiveTranscript,
  type RoomParticipant,
  type ServerMessage,
} from '@parley/protocol';
import type { RoomEvents } from './events.js';
import type { FastifyBaseLogger } from 'fastify';
import { forbidden, unauthorized } from '../../http/errors.js';
import type { Caller, JoinGate } from './gate.js';
import { actorIn, drop, enter, issue, mute, targetIn, type Gone } from './members.js';
import { createRoomNews, type History } from './news.js';
import { createPresence } from './presence.js';
import type { RoomsRepository } from './repository.js';
import {
  hashJoinToken,
  removedList,
  roster,
  overMeshCap,
  seatsTaken,
  toRoomParticipant,
  transcriptionState,
  waitingList,
  type MemberState,
  type RoomState,
} from './state.js';
import type { RoomStateStore } from './store.js';
import { answer, started, stopped, type ConsentNotice } from './consent.js';
import { ROOM_MESSAGES, roomErrors } from './errors.js';
import type { Actor, ParticipantSocket, RoomTransport } from './transport.js';

export interface JoinInput {
  name: string;
  email?: string;
  isHost: boolean;
  isMuted: boolean;
  isVideoOn: boolean;
  sessionId?: string;
  password?: string;
  /** The join token this browser was given last time: the proof that a reload is the same guest. */
  resumeToken?: string;
  /** The browser's own id (localStorage), for the free-time clock of a guest. */
  browserId?: string;
}

export type JoinResult = JoinResponse & { name: string; roomId: string };

export interface MediaState {
  isMuted: boolean;
  isVideoOn: boolean;
  isScreenSharing?: boolean;
}

/** How a participant's socket is closed when the participant leaves. */
export interface Farewell {
  code: number;
  reason: string;
}
export const LEFT: Farewell = { code: WS_CLOSE.normal, reason: 'Left the meeting' };

export interface RoomServiceDeps {
  store: RoomStateStore;
  transport: RoomTransport;
  /** The features that follow the room register here (events.ts); the room runs their hooks. */
  events: RoomEvents;
  gate: JoinGate;
  /** Meeting status follows the room (live, then ended or scheduled again). */
  repo: Pick<RoomsRepository, 'markLive' | 'markFinished'>;
  /** This server instance's id (recorded on the meetings its rooms hold). */
  instance: string;
  chatHistory(room: RoomState): Promise<ChatMessage[]>;
  iceServers(participantId: string): IceServer[];
  log: FastifyBaseLogger;
  /** Whether a signed-in user has Pro now (the one Pro service: app.subscriptions.isPro). */
  isPro(userId: string): Promise<boolean>;
  /** Whether this server can transcribe at all (a speech-to-text engine is configured). */
  canTranscribe(): boolean;
  /** WS_LIMITS.resumeGraceMs and joinTimeoutMs, and KNOCK_TIMEOUT_MS; tests shorten them. */
  timings: { resumeGraceMs: number; closedGraceMs: number; joinTimeoutMs: number; knockTimeoutMs: number };
  /**
   * Several instances (Redis): closes a participant's socket that another instance may hold
   * (the one `socketId` names), when a newer socket took over the participant (4009).
   */
  closeStaleSocket?(roomId: string, participantId: string, socketId: string): void;
}

/**
 * The meeting room (spec §2, §4, §7): every action on it checks who acts and on whom, changes the
 * room's state in one store step, then tells the sockets, in that order. REST routes and
 * WebSocket handlers only adapt to these methods. Refusals are RoomErrors (an HttpError with a
 * WebSocket error code); the join's door (limits, lookup, password) is the JoinGate.
 */
const NO_HISTORY: History = { chat: [], transcripts: [] };

export function createRoomService(deps: RoomServiceDeps) {
  const { store, transport, log } = deps;
  const presence = createPresence(
    deps.timings,
    (roomId, id) => expire(roomId, id),
    (roomId, id) => expireKnock(roomId, id),
  );

  const news = createRoomNews(deps);
  /** The meeting's last transcript lines (spec §9: 20), oldest first (provideTranscripts). */
  let transcriptHistory = async (_room: RoomState): Promise<LiveTranscript[]> => [];
  const gone = (room: RoomState, g: Gone, reason: 'left' | 'removed' | 'timeout') => {
    presence.forget(g.participantId);
    news.gone(room, g, reason);
  };

  /** How long a member without a socket is kept: the resume or closed grace, or the join timeout. */
  const awayLimitMs = (m: MemberState) =>
    !m.everConnected
      ? deps.timings.joinTimeoutMs
      : m.awayClosed
        ? deps.timings.closedGraceMs
        : deps.timings.resumeGraceMs;
  /** Timers may fire a little early; another instance's clock may have started later. */
  const overdue = (m: MemberState, now: number, slackMs = -25) =>
    m.socketId === null && (m.awaySince === null || now - m.awaySince >= awayLimitMs(m) + slackMs);

  /** A participant without a socket leaves after the resume grace (or the join timeout). */
  async function expire(roomId: string, participantId: string): Promise<void> {
    try {
      const left = await store.update(roomId, (room) => {
        const member = room?.members.get(participantId);
        return room && member && overdue(member, Date.now()) ? { room, gone: drop(room, member) } : null;
      });
      if (left) gone(left.room, left.gone, 'timeout');
    } catch (err) {
      log.error({ err, roomId }, 'could not expire a participant');
    }
  }

  /** A connected guest's knock expired: it is sent away like a denied one (`denied`, 4011). */
  async function expireKnock(roomId: string, participantId: string): Promise<void> {
    try {
      const left = await store.update(roomId, (room) => {
        const member = room?.members.get(participantId);
        return room && member && member.admission === 'waiting' ? { room, gone: drop(room, member) } : null;
      });
      if (!left) return;
      transport.close(participantId, WS_CLOSE.deniedEntry, 'Nobody let you in', {
        type: 'denied',
        message: ROOM_MESSAGES.knockExpired,
      });
      gone(left.room, left.gone, 'timeout');
    } catch (err) {
      log.error({ err, roomId }, 'could not expire a knock');
    }
  }

  /** What an entering participant is shown of the meeting so far: its chat and last captions. */
  async function histories(room: RoomState): Promise<History> {
    const [chat, transcripts] = await Promise.all([
      deps.chatHistory(room),
      transcriptHistory(room).catch((err: unknown) => {
        // Captions are a convenience on entering: a failed read must not keep anyone out.
        log.error({ err, roomId: room.id }, 'could not read the recent transcript');
        return [];
      }),
    ]);
    return { chat, transcripts };
  }

  /** The waiting guest's knock runs from when it knocked, however often its socket reconnects. */
  const knockLeftMs = (waitingSince: number | null) =>
    (waitingSince ?? Date.now()) + deps.timings.knockTimeoutMs - Date.now();

  async function participantOf(publicId: string, joinToken: string | null, what: string) {
    const found = joinToken ? await store.byToken(hashJoinToken(joinToken)) : undefined;
    if (!found) throw unauthorized(`Join the meeting to ${what}`);
    if (found.room.meeting.meetingId !== publicId || found.member.admission !== 'admitted') {
      throw forbidden(`Only participants of this meeting can ${what}`);
    }
    return found;
  }

  /**
   * The room ends: it is forgotten with its tokens, every socket closes with 4005, the features
   * hear `ended`; with `meetingType` (the meeting still exists) its status is written too.
   */
  async function sendAway(roomId: string, reason: string, meetingType?: string): Promise<number> {
    const room = await store.delete(roomId);
    if (!room) return 0;
    room.ended = true;
    for (const id of room.members.keys()) {
      presence.forget(id);
      transport.close(id, WS_CLOSE.meetingEnded, reason);
    }
    news.ended(roomId, [...room.members.keys()], meetingType);
    return room.members.size;
  }

  return {
    /** Timings in force; tests shorten them. */
    timings: deps.timings,

    /** Where the features that follow the room register (events.ts): `on`, `aroundJoined`. */
    events: { on: deps.events.on, aroundJoined: deps.events.aroundJoined } as Pick<
      RoomEvents,
      'on' | 'aroundJoined'
    >,

    /**
     * The meeting's last transcript lines a `joined` carries (spec §9: 20, oldest first), from
     * the AI module, which registers after the rooms; none until it does.
     */
    provideTranscripts(read: (room: RoomState) => Promise<LiveTranscript[]>): void {
      transcriptHistory = read;
    },

    /**
     * POST /join and /participants: through the gate, then into the room (admitted), or into
     * its waiting room (a knock) when the meeting has one and the caller is not its host. A
     * browser that presents its previous join token (`resumeToken`), or a signed-in user's same
     * tab, gets the same participant and a new token; a session id alone gets a new participant.
     * Refused: a participant the host removed (403), no seat left (409; hosts take none), a full
     * waiting room (429), past the join budgets (429).
     */
    async join(publicId: string, input: JoinInput, caller: Caller): Promise<JoinResult> {
      const resumeTokenHash = input.resumeToken ? hashJoinToken(input.resumeToken) : null;
      const back = resumeTokenHash ? await store.byToken(resumeTokenHash) : undefined;
      const callerId = caller.auth?.user.id ?? null;
      // Swept with its crashed instance (several instances): the token still proves who it was.
      const ghost =
        !back && resumeTokenHash && store.departed ? await store.departed(resumeTokenHash) : undefined;
      const reuseId =
        ghost && ghost.meetingId === publicId && ghost.member.userId === callerId
          ? ghost.member.id
          : undefined;
      const returning =
        (!!back && back.room.meeting.meetingId === publicId && back.member.userId === callerId) ||
        reuseId !== undefined;
      const entry = await deps.gate.pass(publicId, input, caller, returning);
      const admission = entry.isHost || !entry.meeting.waitingRoom ? 'admitted' : 'waiting';
      const { member, token } = await store.open(entry.meeting, (room) =>
        issue(room, {
          name: input.name,
          email: input.email ?? null,
          isHost: entry.isHost,
          isMuted: input.isMuted,
          isVideoOn: input.isVideoOn,
          userId: entry.userId,
          sessionId: input.sessionId,
          resumeTokenHash,
          browserId: input.browserId ?? null,
          browserKey: caller.browserKey ?? null,
          clientAddress: caller.clientKey,
          admission,
          spendNew: () => deps.gate.spendNew(publicId, caller, entry.isHost),
          now: Date.now(),
          reuseId,
        }),
      );
      // A knock is heard by the hosts when the guest's socket arrives (resume).
      if (member.socketId === null) presence.await(entry.meeting.id, member.id, member.everConnected);
      return {
        id: member.id,
        name: member.name,
        roomId: entry.meeting.id,
        joinToken: token,
        isHost: member.isHost,
        admission: member.admission,
      };
    },

    /**
     * join_meeting: the socket speaks for the participant its join token names (the token must be
     * of the socket's meeting; a host's token needs the host's session on the socket). A dropped
     * socket resumes the same participant; a newer socket replaces an older one (4009). An
     * admitted participant gets `joined` and the room hears of it; a waiting one gets `waiting`
     * and the hosts the waiting room.
     */
    async resume(joinToken: string, socket: ParticipantSocket, requestId?: string): Promise<void> {
      const tokenHash = hashJoinToken(joinToken);
      const found = await store.byToken(tokenHash);
      if (!found || found.room.meeting.meetingId !== socket.meetingId) throw roomErrors.invalidToken();
      const { room, member } = found;
      if (member.isHost && member.userId && member.userId !== socket.userId) {
        // A host's powers come from the host's signed-in session: the socket must carry it too.
        throw roomErrors.invalidToken(ROOM_MESSAGES.hostSessionRequired);
      }
      // Read before taking over, so that `joined` is this socket's first room message; what the
      // room says from here on reaches the socket right after it (hearRoom).
      socket.hearRoom(room.id, member.id);
      const history = member.admission === 'admitted' ? await histories(room) : NO_HISTORY;
      if (!socket.isOpen) return;
      const changed = await store.update(room.id, (now) => {
        const current = now?.members.get(member.id);
        if (!now || !current || current.tokenHash !== tokenHash) {
          throw roomErrors.invalidToken(ROOM_MESSAGES.replacedToken);
        }
        const previous = current.socketId;
        current.socketId = socket.id;
        current.awaySince = null;
        current.awayClosed = false;
        current.everConnected = true;
        if (current.admission === 'waiting') {
          return {
            kind: 'waiting' as const,
            waiting: waitingList(now),
            since: current.waitingSince,
            previous,
          };
        }
        return { kind: 'entered' as const, entered: enter(now, current), previous };
      });
      socket.bind(room.id, member.id);
      if (changed.previous && changed.previous !== socket.id) {
        deps.closeStaleSocket?.(room.id, member.id, changed.previous);
      }
      presence.arrived(member.id);
      if (changed.kind === 'waiting') {
        presence.knocking(room.id, member.id, knockLeftMs(changed.since));
        news.publish(
          room.id,
          { kind: 'one', participantId: member.id },
          { type: 'waiting', message: ROOM_MESSAGES.waiting },
        );
        news.waitingRoom(room.id, changed.waiting);
        return;
      }
      news.entered(room.id, changed.entered, history, requestId);
    },

    /**
     * The socket of a participant closed. Dropped (`closed` false): it stays for the resume grace,
     * shown disconnected. Closed by its page (a tab closed or reloaded): it stays only for the
     * closed grace, so that a reload comes back as itself, and nobody sees it reconnecting. A
     * knocker leaves the waiting list at once either way.
     */
    async disconnected(actor: Actor, socketId: string, closed = false): Promise<void> {
      if (presence.closing) return;
      const changed = await store.update(actor.roomId, (room) => {
        const member = room?.members.get(actor.participantId);
        if (!member || member.socketId !== socketId) return null;
        member.socketId = null;
        member.awaySince = Date.now();
        member.awayClosed = closed;
        return {
          participant: toRoomParticipant(member),
          announced: member.announced,
          waiting: member.admission === 'waiting' ? waitingList(room!) : null,
        };
      });
      if (!changed) return;
      if (changed.waiting) news.waitingRoom(actor.roomId, changed.waiting);
      else if (changed.announced && !closed) news.away(actor.roomId, changed.participant);
      presence.await(actor.roomId, actor.participantId, true, closed);
    },

    /**
     * admit_participant (host): a waiting participant enters. Its socket, if connected, gets
     * `admitted` then `joined`; otherwise `joined` comes when it connects. Hosts get the new
     * waiting room. Under Mute All it comes in muted.
     */
    async admit(actor: Actor, targetId: string): Promise<void> {
      const before = actorIn(await store.get(actor.roomId), actor, 'host');
      const waiting = targetIn(before, targetId, 'waiting');
      const history = waiting.socketId ? await histories(before.room) : NO_HISTORY;
      const changed = await store.update(actor.roomId, (now) => {
        const at = actorIn(now, actor, 'host');
        const target = targetIn(at, targetId, 'waiting');
        // Hosts take no seat; everyone else needs one (a waiting guest has none yet).
        if (!target.isHost && seatsTaken(at.room) >= at.room.meeting.maxParticipants) throw roomErrors.full();
        if (!target.isHost && overMeshCap(at.room)) throw roomErrors.fullWithoutSfu(at.room.meeting.meshCap!);
        target.admission = 'admitted';
        target.waitingSince = null;
        if (at.room.allMuted && !target.isHost) target.isMuted = true;
        const entered = target.socketId ? enter(at.room, target) : null;
        return { waiting: waitingList(at.room), entered, room: at.room };
      });
      news.waitingRoom(actor.roomId, changed.waiting);
      if (!changed.entered) return;
      presence.arrived(targetId); // its knock no longer runs
      news.publish(actor.roomId, { kind: 'one', participantId: targetId }, { type: 'admitted' });
      news.entered(actor.roomId, changed.entered, history);
    },

    /** deny_participant (host): a waiting participant is sent away (`denied`, 4011). */
    async deny(actor: Actor, targetId: string): Promise<void> {
      const { room, gone: g } = await store.update(actor.roomId, (now) => {
        const at = actorIn(now, actor, 'host');
        return { room: at.room, gone: drop(at.room, targetIn(at, targetId, 'waiting')) };
      });
      transport.close(targetId, WS_CLOSE.deniedEntry, 'Denied entry by the host', {
        type: 'denied',
        message: ROOM_MESSAGES.denied,
      });
      gone(room, g, 'removed');
    },

    /**
     * mute_all (host): Mute All is room state. On: every non-host is recorded muted (the room hears
     * participant_updated for each one that changed) and later joiners come in muted; off: the
     * state clears and unmuting stays each participant's own choice. The others get mute_all.
     */
    async muteAll(actor: Actor, muted: boolean): Promise<void> {
      const changed = await store.update(actor.roomId, (now) => {
        const { room } = actorIn(now, actor, 'host');
        room.allMuted = muted;
        if (!muted) return [];
        return shown(mute([...room.members.values()].filter((m) => !m.isHost)));
      });
      news.publish(actor.roomId, { kind: 'all', except: actor.participantId }, { type: 'mute_all', muted });
      news.updated(actor.roomId, changed);
    },

    /** mute_participant (host): only the target's client is told; muting is recorded and shown. */
    async muteOne(actor: Actor, targetId: string, muted: boolean): Promise<void> {
      const changed = await store.update(actor.roomId, (now) => {
        const target = targetIn(actorIn(now, actor, 'host'), targetId);
        return muted ? shown(mute([target])) : [];
      });
      news.publish(
        actor.roomId,
        { kind: 'one', participantId: targetId },
        { type: 'mute_participant', targetParticipantId: targetId, muted },
      );
      news.updated(actor.roomId, changed);
    },

    /**
     * remove_participant (host): any other participant (in the room or waiting) gets `removed`
     * and 4006; its token stops working, the room hears participant_left 'removed', and it is on
     * the room's deny list: it cannot join this meeting again while the room lasts.
     */
    async remove(actor: Actor, targetId: string): Promise<void> {
      const {
        room,
        gone: g,
        removed,
      } = await store.update(actor.roomId, (now) => {
        const { room } = actorIn(now, actor, 'host');
        const target = room.members.get(targetId);
        if (!target || target.id === actor.participantId) throw roomErrors.noParticipant();
        // The meeting's owner is never kept out of its own meeting.
        if (target.userId === null || target.userId !== room.meeting.hostId) {
          room.denied.set(target.denyKey, { id: target.id, name: target.name });
        }
        return { room, gone: drop(room, target), removed: removedList(room) };
      });
      transport.close(targetId, WS_CLOSE.removedByHost, 'Removed by the host', {
        type: 'removed',
        message: ROOM_MESSAGES.removed,
      });
      gone(room, g, 'removed');
      news.removedList(actor.roomId, removed);
    },

    /**
     * allow_rejoin (host): lifts the deny list for one removed participant (by the id it had);
     * it may join again (through the waiting room, the password, like anyone). The hosts get the
     * new list.
     */
    async allowRejoin(actor: Actor, removedId: string): Promise<void> {
      const removed = await store.update(actor.roomId, (now) => {
        const { room } = actorIn(now, actor, 'host');
        const entry = [...room.denied].find(([, e]) => e.id === removedId);
        if (!entry) throw roomErrors.noRemovedParticipant();
        room.denied.delete(entry[0]);
        return removedList(room);
      });
      news.removedList(actor.roomId, removed);
    },

    /** leave_meeting, or the end of the socket's signed-in session: gone at once, no grace. */
    async leave(actor: Actor, farewell: Farewell = LEFT): Promise<void> {
      const { room, gone: g } = await store.update(actor.roomId, (now) => {
        const { room, member } = actorIn(now, actor, 'member');
        return { room, gone: drop(room, member) };
      });
      transport.close(actor.participantId, farewell.code, farewell.reason);
      gone(room, g, 'left');
    },

    /**
     * The meeting was deleted: its room ends at once. Every participant's socket is closed with
     * 4005, every token stops working; no meeting status is written (there is no row any more).
     * Answers how many participants were sent away.
     */
    async end(roomId: string, reason: string = ROOM_MESSAGES.ended): Promise<number> {
      return sendAway(roomId, reason);
    },

    /**
     * end_meeting (host): "End meeting for everyone". Like a deleted meeting's room, every
     * participant's socket closes with 4005 and every token stops working; the meeting's status
     * is then written as when the last one leaves (an instant meeting ends, a scheduled one may
     * start again). `acknowledge` runs once the host is checked, before the host's own socket
     * closes (the ack has to go out on it). Answers how many participants were sent away.
     */
    async endForEveryone(actor: Actor, acknowledge: () => void = () => undefined): Promise<number> {
      const { room } = actorIn(await store.get(actor.roomId), actor, 'host');
      acknowledge();
      return sendAway(room.id, ROOM_MESSAGES.ended, room.meeting.meetingType);
    },

    /** media_state: the sender's own state, told to the others. */
    async setMediaState(actor: Actor, state: MediaState): Promise<void> {
      const participant = await store.update(actor.roomId, (room) => {
        const { member } = actorIn(room, actor, 'admitted');
        member.isMuted = state.isMuted;
        member.isVideoOn = state.isVideoOn;
        if (state.isScreenSharing !== undefined) member.isScreenSharing = state.isScreenSharing;
        return toRoomParticipant(member);
      });
      news.updated(actor.roomId, [participant], actor.participantId);
    },

    /**
     * set_transcription: live transcription is room state. Starting needs a Pro participant (its
     * signed-in user's subscription, checked now); stopping needs the one who started it, a host
     * or a Pro participant. Everyone hears transcription_state; answers whether it changed.
     */
    async setTranscription(actor: Actor, on: boolean): Promise<boolean> {
      const { member } = actorIn(await store.get(actor.roomId), actor, 'admitted');
      const pro = on && member.userId ? await deps.isPro(member.userId) : false;
      if (on && !deps.canTranscribe()) throw roomErrors.transcriptionOff();
      const changed = await store.update(actor.roomId, (now) => {
        const { room, member: me } = actorIn(now, actor, 'admitted');
        let answers: MemberState[];
        if (on) {
          if (!pro) throw roomErrors.proRequired();
          if (room.transcription) return null;
          room.transcription = { startedBy: { id: me.id, name: me.name }, startedAt: Date.now() };
          answers = started(me);
        } else {
          if (!room.transcription) return null;
          // Stopping is for everyone: a host, or whoever started it (others decline for themselves).
          if (!me.isHost && room.transcription.startedBy.id !== me.id) {
            throw roomErrors.stopTranscriptionNotAllowed();
          }
          room.transcription = null;
          answers = stopped(room);
        }
        return { state: transcriptionState(room), answers: shown(answers) };
      });
      if (!changed) return false;
      news.publish(
        actor.roomId,
        { kind: 'all' },
        { type: 'transcription_state', transcription: changed.state },
      );
      for (const participant of changed.answers) {
        news.publish(actor.roomId, { kind: 'all' }, { type: 'participant_updated', participant });
      }
      return true;
    },

    /**
     * set_transcription_consent: the participant's own answer to the transcription notice
     * (consent.ts). Everyone, the participant too, hears `participant_updated` when it changed;
     * answers what the transcript should say about it (a decline, allowing again) and who.
     */
    async setTranscriptionConsent(
      actor: Actor,
      consent: 'allowed' | 'declined',
    ): Promise<{ notice: ConsentNotice; name: string }> {
      const changed = await store.update(actor.roomId, (now) => {
        const { room, member } = actorIn(now, actor, 'admitted');
        const result = answer(room, member, consent);
        return { ...result, name: member.name, shown: shown(result.changed ? [member] : []) };
      });
      for (const participant of changed.shown) {
        news.publish(actor.roomId, { kind: 'all' }, { type: 'participant_updated', participant });
      }
      return { notice: changed.notice, name: changed.name };
    },

    /** set_caption_language: the listener's own translation language (null: none). */
    async setCaptionLanguage(actor: Actor, language: string | null): Promise<void> {
      await store.update(actor.roomId, (now) => {
        actorIn(now, actor, 'admitted').member.captionLanguage = language;
      });
    },

    /** offer / answer / ice-candidate: only to another admitted participant of the same room. */
    async signal(actor: Actor, targetId: string, message: ServerMessage): Promise<void> {
      targetIn(actorIn(await store.get(actor.roomId), actor, 'admitted'), targetId);
      news.publish(actor.roomId, { kind: 'one', participantId: targetId }, message);
    },

    /** The others in the room (request_existing_connections). */
    async participants(actor: Actor): Promise<RoomParticipant[]> {
      const { room } = actorIn(await store.get(actor.roomId), actor, 'admitted');
      return roster(room, actor.participantId);
    },

    /** The acting participant, admitted, and its room (chat, collaboration). */
    async admitted(actor: Actor): Promise<{ room: RoomState; member: MemberState }> {
      return actorIn(await store.get(actor.roomId), actor, 'admitted');
    },

    /**
     * The admitted participant of `publicId` that a join token names: 401 without a known token,
     * 403 for a participant of another meeting or one still waiting.
     */
    participantOf,

    /**
     * GET /participants: the admitted participants, for the meeting's signed-in owner or an
     * admitted participant of that meeting (404 unknown meeting, 401, 403).
     */
    async list(publicId: string, caller: Caller, joinToken: string | null): Promise<RoomParticipant[]> {
      const { roomId, hostId } = await deps.gate.lookup(publicId, caller);
      const isOwner = hostId !== null && caller.auth?.user.id === hostId;
      if (!isOwner) await participantOf(publicId, joinToken, 'see its participants');
      const room = await store.get(roomId);
      return room ? roster(room) : [];
    },

    /** The room of a meeting (meetings.id or the test room's id), to read. */
    room: (roomId: string) => store.get(roomId),

    /** How many participants are in the room (admitted and entered: what everyone sees), but `exceptId`. */
    async inRoom(roomId: string, exceptId?: string): Promise<number> {
      const room = await store.get(roomId);
      return room ? roster(room, exceptId).length : 0;
    },

    /**
     * Several instances: the presence sweeper (cluster.ts) on one room. Participants whose socket
     * was held by an instance that stopped beating (`isDead`) are gone at once, each kept for a
     * while so that its join token brings it back as itself through another instance; those
     * without a socket past their grace (their instance's timer died with it) are gone too.
     * The room hears participant_left for each. Answers how many went.
     */
    async sweep(roomId: string, isDead: (socketId: string) => boolean, slackMs: number): Promise<number> {
      const now = Date.now();
      const swept = await store.update(roomId, (room) => {
        if (!room) return null;
        const crashed: MemberState[] = [];
        const gones: Gone[] = [];
        for (const m of [...room.members.values()]) {
          const dead = m.socketId !== null && isDead(m.socketId);
          if (!dead && !overdue(m, now, slackMs)) continue;
          if (dead) crashed.push({ ...m });
          gones.push(drop(room, m));
        }
        return gones.length ? { room, crashed, gones } : null;
      });
      if (!swept) return 0;
      for (const m of swept.crashed) await store.remember?.(swept.room, m);
      for (const g of swept.gones) gone(swept.room, g, 'timeout');
      return swept.gones.length;
    },

    /** Server shutdown: no grace timers, no disconnect news; the rooms go. */
    async shutdown(): Promise<void> {
      presence.close();
      await store.clear();
    },
  };
}
export type RoomService = ReturnType<typeof createRoomService>;

/** Announced members' new state (the others only know announced ones). */
function shown(changed: MemberState[]): RoomParticipant[] {
  return changed.filter((m) => m.announced && m.admission === 'admitted').map(toRoomParticipant);
}
