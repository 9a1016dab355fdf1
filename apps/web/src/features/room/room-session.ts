import { EXISTING_CONNECTIONS_DELAY_MS } from '@parley/protocol/constants';
import type { ChatMessage, RecordingState } from '@parley/protocol';
import { BILLING_MESSAGES, RECORDING_TEXTS } from '@parley/protocol/texts';
import type { RoomParticipant, ServerMessageOf } from '@parley/protocol/ws';
import { TEST_ROOM_ID } from '@parley/protocol/constants';
import { Store } from '@/lib/store';
import { Captions } from './ai/captions';
import { SpeakingMeter } from '@/features/report/speaking';
import type { LocalMedia } from './media/local-media';
import type { PeerMeshOptions } from './media/peer-mesh';
import type { RemoteMedia } from './media/remote-media';
import type { VideoWant } from './media/sfu-session';
import { MediaRoute } from './media-route';
import { SignalClient, newRequestId, type SignalSnapshot, type WebSocketLike } from './signal-client';
import { FreeTimeClient } from '@/features/billing/free-time';

/**
 * One joined meeting: the SignalClient, the LocalMedia and the media route (mesh and SFU,
 * media-route.ts) wired together, plus the room's state (participants, chat, the host's waiting
 * list, Mute All). Each incoming message type has its own small handler below. React reads
 * `getSnapshot()` through useSyncExternalStore; media objects stay here. Whether this participant
 * is still waiting, in the room or reconnecting is the signal's state (`signal.state`); the
 * RoomController turns it into the page's phase.
 */

export interface Notice {
  title: string;
  description?: string;
  variant?: 'destructive' | 'success';
  duration?: number;
}

export interface RoomSnapshot {
  signal: SignalSnapshot;
  /** This participant as the server knows it; null until the first `joined`. */
  self: RoomParticipant | null;
  /** Everyone else, in join order. */
  participants: RoomParticipant[];
  chat: ChatMessage[];
  waitingList: { id: string; name: string }[];
  /** To hosts: the people they removed, who cannot join again until a host allows them back. */
  removedList: { id: string; name: string }[];
  meeting: { meetingId: string; title: string; startedAt: string } | null;
  /**
   * The host's Mute All is on: room state kept by the server, read from `joined.allMuted` and every
   * `mute_all` (the host's own change from the server's answer to it), never toggled locally.
   */
  allMuted: boolean;
  /** How the room's media flows, as the server last said (`media_mode`; p2p when it never does). */
  mediaMode: 'p2p' | 'sfu';
  /** The room's active speaker as the SFU hears it (`active_speaker`); null on the mesh or none yet. */
  activeSpeakerId: string | null;
  /** The meeting's recording (room state, `recording_state`); null until the server says. */
  recording: RecordingState | null;
  /** The room's first render waits (on the SFU, for our subscriber connection): see media-route.ts. */
  holdRoom: boolean;
}

export interface RoomSessionOptions {
  meetingId: string;
  participantId: string;
  joinToken: string;
  socketUrl: string;
  media: LocalMedia;
  notify: (n: Notice) => void;
  createSocket?: (url: string) => WebSocketLike;
  /** Where peer connections come from (the room page's PeerConnectionReserve). */
  createPeerConnection?: PeerMeshOptions['createPeerConnection'];
  log?: (msg: string, extra?: unknown) => void;
}

export class RoomSession {
  readonly signal: SignalClient;
  /** The mesh and the SFU, and the switch between them. */
  readonly route: MediaRoute;
  /** Each remote participant's media, by the mesh or the SFU: what the tiles show. */
  readonly remote: RemoteMedia;
  /** Live transcription and translation (room state, this listener's language, the microphone stream). */
  readonly captions: Captions;
  /** Tells the room when this participant speaks (talk time in the meeting report). */
  readonly speaking: SpeakingMeter | null;
  /** This participant's free-time clock, as the server reports it (`free_time`). */
  readonly freeTime: FreeTimeClient;
  readonly media: LocalMedia;
  readonly joinToken: string;
  readonly meetingId: string;
  private readonly store: Store<RoomSnapshot>;
  readonly getSnapshot: Store<RoomSnapshot>['getSnapshot'];
  readonly subscribe: Store<RoomSnapshot>['subscribe'];
  private disposed = false;
  private readonly cleanups: (() => void)[] = [];
  private existingTimer: ReturnType<typeof setTimeout> | null = null;
  private lastMediaState = '';

  constructor(private readonly opts: RoomSessionOptions) {
    this.media = opts.media;
    this.joinToken = opts.joinToken;
    this.meetingId = opts.meetingId;
    this.signal = new SignalClient({
      url: opts.socketUrl,
      joinToken: opts.joinToken,
      createSocket: opts.createSocket,
      log: opts.log,
    });
    this.captions = new Captions({ signal: this.signal, media: this.media, log: opts.log });
    this.freeTime = new FreeTimeClient(this.signal);
    // The test room (no meeting row) keeps no report.
    this.speaking =
      opts.meetingId === TEST_ROOM_ID
        ? null
        : new SpeakingMeter({ signal: this.signal, media: this.media, log: opts.log });
    this.store = new Store<RoomSnapshot>({
      signal: this.signal.getSnapshot(),
      self: null,
      participants: [],
      chat: [],
      waitingList: [],
      removedList: [],
      meeting: null,
      allMuted: false,
      mediaMode: 'p2p',
      activeSpeakerId: null,
      recording: null,
      holdRoom: false,
    });
    this.getSnapshot = this.store.getSnapshot;
    this.subscribe = this.store.subscribe;
    this.route = new MediaRoute({
      participantId: opts.participantId,
      signal: this.signal,
      media: this.media,
      room: this.store,
      notify: opts.notify,
      createPeerConnection: opts.createPeerConnection,
      log: opts.log,
    });
    this.remote = this.route.remote;
    this.wire();
  }

  private get snapshot(): RoomSnapshot {
    return this.store.getSnapshot();
  }

  private set(patch: Partial<RoomSnapshot>): void {
    this.store.patch(patch);
  }

  private wire(): void {
    const s = this.signal;
    this.cleanups.push(
      s.subscribe(() => this.set({ signal: s.getSnapshot() })),
      s.on('joined', (m) => this.onJoined(m)),
      s.on('existing_connections', (m) => this.onExisting(m.participants)),
      s.on('participant_joined', (m) => this.onParticipantJoined(m.participant)),
      s.on('participant_updated', (m) => this.upsert(m.participant)),
      s.on('participant_left', (m) => this.onParticipantLeft(m)),
      s.on('active_speaker', (m) => this.set({ activeSpeakerId: m.participantId })),
      s.on('recording_state', (m) => this.onRecordingState(m.recording)),
      s.on('chat_message', (m) => this.onChat(m)),
      s.on('mute_all', (m) => this.onMuteAll(m.muted)),
      s.on('mute_participant', (m) => this.onMuteParticipant(m)),
      s.on('waiting_room', (m) => this.set({ waitingList: m.waiting })),
      s.on('removed_list', (m) => this.set({ removedList: m.removed })),
      s.on('guest_free_time', (m) => this.onGuestFreeTime(m)),
      s.on('error', (m) => {
        if (!m.requestId) this.opts.log?.(`server error ${m.code}: ${m.message}`);
      }),
      this.media.subscribe(() => this.sendMediaState()),
    );
  }

  connect(): void {
    this.signal.connect();
  }

  // ------------------------------------------------------------------ handlers

  private onJoined(m: ServerMessageOf<'joined'>): void {
    const others = m.participants.filter((p) => p.id !== m.self.id);
    // The hold comes in the same change as `self`: the controller shows the room once `self` is
    // known and it is not held.
    const hold = this.route.beginJoin(m, others, this.snapshot.self === null);
    this.set({
      self: m.self,
      participants: others,
      chat: mergeChat(this.snapshot.chat, m.chatHistory),
      meeting: m.meeting,
      allMuted: m.allMuted,
      ...(hold ? { holdRoom: true } : {}),
    });
    this.route.finishJoin(m, others);
    this.lastMediaState = '';
    // Joined (or came back) while Mute All is on: the server counts us muted, so the microphone
    // is, too. Someone who unmuted after Mute All is not muted again (their isMuted is false).
    if (m.allMuted && m.self.isMuted && !m.self.isHost && !this.media.getSnapshot().isMuted) {
      this.media.setMuted(true);
      this.opts.notify({ title: 'The host muted everyone', description: 'Your microphone is off.' });
    }
    this.sendMediaState();
    if (this.existingTimer) clearTimeout(this.existingTimer);
    this.existingTimer = setTimeout(() => {
      this.signal.send({ type: 'request_existing_connections', requestId: newRequestId() });
    }, EXISTING_CONNECTIONS_DELAY_MS);
  }

  private onExisting(list: RoomParticipant[]): void {
    const selfId = this.snapshot.self?.id;
    for (const p of list) {
      if (p.id === selfId) continue;
      this.upsert(p);
      this.route.reconcile(p);
    }
  }

  private onParticipantJoined(p: RoomParticipant): void {
    if (p.id === this.snapshot.self?.id) return;
    // Someone we know joining again (a reload) offers from a fresh connection; the mesh notices
    // the new SDP session and rebuilds the link, so nothing is torn down here.
    const known = this.snapshot.participants.some((x) => x.id === p.id);
    this.upsert(p);
    if (!known) this.opts.notify({ title: `${p.name} joined the meeting` });
  }

  private upsert(p: RoomParticipant): void {
    if (p.id === this.snapshot.self?.id) {
      this.set({ self: p });
      return;
    }
    const list = this.snapshot.participants;
    const i = list.findIndex((x) => x.id === p.id);
    this.set({ participants: i < 0 ? [...list, p] : list.map((x) => (x.id === p.id ? p : x)) });
  }

  private onParticipantLeft(m: ServerMessageOf<'participant_left'>): void {
    const gone = this.snapshot.participants.find((p) => p.id === m.participantId);
    this.route.forget(m.participantId);
    this.set({ participants: this.snapshot.participants.filter((p) => p.id !== m.participantId) });
    if (gone) {
      const how = m.reason === 'removed' ? 'was removed' : 'left the meeting';
      this.opts.notify({ title: `${gone.name} ${how}` });
    }
  }

  private onChat(m: ServerMessageOf<'chat_message'>): void {
    const { type: _t, requestId: _r, ...msg } = m;
    this.set({ chat: mergeChat(this.snapshot.chat, [msg]) });
  }

  private onMuteAll(muted: boolean): void {
    this.set({ allMuted: muted });
    if (this.snapshot.self?.isHost) return;
    if (muted) {
      this.media.setMuted(true);
      this.opts.notify({ title: 'The host muted everyone', description: 'Your microphone is off.' });
    } else {
      this.opts.notify({
        title: 'The host lifted Mute All',
        description: 'You can unmute yourself (press M).',
      });
    }
  }

  /**
   * Everyone is told when the recording starts or stops (not on the first state after joining),
   * when one of its limits is near, and which limit stopped it.
   */
  private onRecordingState(recording: RecordingState): void {
    const before = this.snapshot.recording;
    this.set({ recording });
    if (!before) return;
    if (before.active !== recording.active) {
      this.opts.notify({
        title: recording.active ? RECORDING_TEXTS.startedNotice : RECORDING_TEXTS.stoppedNotice,
        ...(!recording.active && recording.limitNotice ? { description: recording.limitNotice } : {}),
      });
    } else if (recording.active && recording.limitNotice && recording.limitNotice !== before.limitNotice) {
      this.opts.notify({ title: RECORDING_TEXTS.indicator, description: recording.limitNotice });
    }
  }

  /**
   * The host hears when a guest's counted free time is about to end and when it ran out (the
   * meeting does not cover it: the host turned the cover off, or their Pro lapsed).
   */
  private onGuestFreeTime(m: ServerMessageOf<'guest_free_time'>): void {
    if (!this.snapshot.self?.isHost) return;
    if (m.stage === 'ending') {
      this.opts.notify({
        title: BILLING_MESSAGES.guestEndingTitle(m.name, m.minutesLeft),
        description: BILLING_MESSAGES.guestCoverHint,
        duration: 10_000,
      });
    } else {
      this.opts.notify({
        title: BILLING_MESSAGES.guestEndedTitle(m.name),
        description: BILLING_MESSAGES.guestEndedBody(Math.round(m.graceMs / 1000)),
        variant: 'destructive',
        duration: 10_000,
      });
    }
  }

  private onMuteParticipant(m: ServerMessageOf<'mute_participant'>): void {
    const selfId = this.snapshot.self?.id;
    if (m.targetParticipantId !== selfId) return;
    if (m.muted) {
      this.media.setMuted(true);
      this.opts.notify({
        title: 'The host muted you',
        description: 'Press M or the microphone button to unmute.',
      });
    } else {
      this.opts.notify({ title: 'The host asked you to unmute', description: 'Press M to unmute.' });
    }
  }

  private sendMediaState(): void {
    const m = this.media.getSnapshot();
    const state = {
      type: 'media_state' as const,
      isMuted: m.isMuted,
      isVideoOn: m.isVideoOn,
      isScreenSharing: m.isScreenSharing,
    };
    const key = JSON.stringify(state);
    if (key === this.lastMediaState || this.signal.state !== 'joined') return;
    this.lastMediaState = key;
    this.signal.send(state);
    if (this.snapshot.self) {
      this.set({
        self: {
          ...this.snapshot.self,
          isMuted: m.isMuted,
          isVideoOn: m.isVideoOn,
          isScreenSharing: m.isScreenSharing,
        },
      });
    }
  }

  // ------------------------------------------------------------------ actions

  /** The layout shows these remote videos now (each tile's quality); the SFU sends only those. */
  setVideoView(videos: VideoWant[]): void {
    this.route.setVideoView(videos);
  }

  sendChat(content: string, fileId?: string): void {
    if (!content.trim() && !fileId) return;
    this.signal.send({
      type: 'chat_message',
      requestId: newRequestId(),
      content: content.trim(),
      ...(fileId ? { fileId } : {}),
    });
  }

  private async hostAction(msg: Parameters<SignalClient['request']>[0], failTitle: string): Promise<boolean> {
    try {
      await this.signal.request(msg);
      return true;
    } catch (err) {
      this.opts.notify({ title: failTitle, description: (err as Error).message, variant: 'destructive' });
      return false;
    }
  }

  /** Turns the room's Mute All on or off (host only); the state follows the server's answer. */
  async muteAll(muted: boolean): Promise<void> {
    const ok = await this.hostAction(
      { type: 'mute_all', muted },
      muted ? 'Could not mute everyone' : 'Could not unmute everyone',
    );
    // The server tells everyone else with `mute_all`; its ack is the sender's copy of that news.
    if (ok && !this.disposed) this.set({ allMuted: muted });
  }

  async muteParticipant(targetParticipantId: string, muted: boolean): Promise<void> {
    await this.hostAction(
      { type: 'mute_participant', targetParticipantId, muted },
      'Could not change their microphone',
    );
  }

  async removeParticipant(targetParticipantId: string): Promise<void> {
    await this.hostAction(
      { type: 'remove_participant', targetParticipantId },
      'Could not remove the participant',
    );
  }

  async admit(targetParticipantId: string): Promise<void> {
    await this.hostAction({ type: 'admit_participant', targetParticipantId }, 'Could not admit the guest');
  }

  async deny(targetParticipantId: string): Promise<void> {
    await this.hostAction({ type: 'deny_participant', targetParticipantId }, 'Could not deny the guest');
  }

  /** Starts or stops the meeting's recording (host); the state follows `recording_state`. */
  async setRecording(on: boolean): Promise<void> {
    await this.hostAction(
      { type: 'set_recording', on },
      on ? 'Could not start recording' : 'Could not stop recording',
    );
  }

  /** Takes a removed person off the deny list (host): they may join again. */
  async allowRejoin(removedId: string): Promise<void> {
    await this.hostAction({ type: 'allow_rejoin', removedId }, 'Could not allow them back');
  }

  /**
   * End meeting for everyone (host): the server acknowledges, then closes every socket with 4005,
   * this one too, and the room shows the meeting-ended screen.
   */
  async endForEveryone(): Promise<void> {
    await this.hostAction({ type: 'end_meeting' }, 'Could not end the meeting');
  }

  /** Leaves for good: the server hears `leave_meeting`, then everything is released. */
  leave(): void {
    this.dispose();
  }

  /**
   * Releases the socket and the peer connections; idempotent. A socket still open leaves politely
   * (the server drops us at once instead of keeping a ghost for the grace period).
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.existingTimer) clearTimeout(this.existingTimer);
    for (const c of this.cleanups.splice(0)) c();
    this.captions.dispose();
    this.speaking?.dispose();
    this.freeTime.dispose();
    this.route.dispose();
    if (this.signal.state !== 'closed') this.signal.leave();
  }
}

/** Adds messages by id, keeping time order (history and live messages may overlap). */
export function mergeChat(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (incoming.length === 0) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
}
