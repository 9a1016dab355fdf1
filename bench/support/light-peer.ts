import type { ServerMessage } from '@parley/protocol';
import { SFU_VIEW } from '@parley/protocol/constants';
import {
  MediaStreamTrack,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  useSdesMid,
  type RTCIceCandidate,
  type RTCRtpTransceiver,
  type RtpPacket,
} from 'werift';
import { Participant } from './bots.js';
import { isVp8KeyFrameStart, type LightMedia } from './light-media.js';

/**
 * A light participant: a pure-TypeScript WebRTC client (npm `werift`) that joins a meeting
 * through our server exactly as a browser does — POST /join, the room's socket (bots.ts), and on
 * the SFU the browser's own messages: `sfu_publish` (offer → `sfu_answer`), `sfu_subscribe`
 * (→ `sfu_offer`s answered with `sfu_answer`), `sfu_trickle` for its candidates, and `sfu_view`
 * as the browser's layout sends it. It decodes nothing and encodes nothing:
 * - as a publisher it sends Opus and VP8 from the one shared encoder (light-media.ts);
 * - as a subscriber it counts the RTP packets, bytes and VP8 key frames of every stream Janus
 *   sends it, per participant.
 * A light publisher sends ONE VP8 layer, not the browser's three simulcast layers: werift (0.25)
 * receives simulcast but does not send it (its README lists simulcast send as roadmap; not
 * tried here), so Janus forwards it whatever layer an `sfu_view` asks for.
 * On the mesh it only answers: a newcomer who moves the room to the SFU offers peer-to-peer to
 * those already there (`media_mode.bridge`), and a light publisher answers with its media, as a
 * browser would. It never offers on the mesh itself (two light peers alone exchange no media).
 */

export interface LightPeerOptions {
  /** The shared encoder: the peer publishes its audio and video (null: receive only). */
  media: LightMedia | null;
  /** Whether it subscribes to the others through the SFU (receive-only WebRTC). */
  subscribe: boolean;
  /** Requests the server has not answered in this long fail the peer (ms). */
  requestTimeoutMs?: number;
}

/** What came from one remote participant's audio or video through the SFU. */
export interface Received {
  packets: number;
  bytes: number;
  keyFrames: number;
  /** performance.now() of the first packet and the first key frame. */
  firstAt: number | null;
  firstKeyFrameAt: number | null;
}

const codecs = {
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
  video: [
    new RTCRtpCodecParameters({
      mimeType: 'video/VP8',
      clockRate: 90000,
      rtcpFeedback: [{ type: 'nack' }, { type: 'nack', parameter: 'pli' }, { type: 'goog-remb' }],
    }),
  ],
};
const headerExtensions = { audio: [useSdesMid()], video: [useSdesMid()] };

function newPc(): RTCPeerConnection {
  return new RTCPeerConnection({
    codecs,
    headerExtensions,
    bundlePolicy: 'max-bundle',
    iceUseIpv6: false,
    // Janus takes UDP only: a TCP candidate is one it fails to add.
    iceUseTcp: false,
    iceTcpPassive: false,
    // Inside the bench's namespace the only addresses are loopback (a browser's) and the veth's
    // 127.0.0.2 (Janus's); loopback is not gathered unless named.
    iceAdditionalHostAddresses: ['127.0.0.1'],
  });
}

type Kind = 'audio' | 'video';

export class LightPeer {
  readonly signal = new Participant();
  publisher: RTCPeerConnection | null = null;
  subscriber: RTCPeerConnection | null = null;
  private readonly mesh = new Map<string, RTCPeerConnection>();
  private mode: 'p2p' | 'sfu' = 'p2p';
  private joined = false;
  private started = false;
  /** The others in join order (as the browser's roster), and the active speaker. */
  private roster: string[] = [];
  private speaker: string | null = null;
  private lastStage: string | null = null;
  /** The last `sfu_view` sent (JSON of its videos). */
  viewSent = '';
  private subscribed = false;
  /** mid of the subscriber connection → whose stream it carries (the last `sfu_offer`). */
  private mids = new Map<string, { participantId: string; kind: Kind }>();
  private offers: Promise<void> = Promise.resolve();
  private readonly pending = new Map<string, (m: ServerMessage) => void>();
  private nextId = 0;
  private readonly detach: (() => void)[] = [];
  /** Per `participantId/kind`: what arrived through the SFU. */
  readonly received = new Map<string, Received>();
  /** Moments of this peer's life (performance.now()). */
  readonly marks: Record<string, number> = {};
  readonly errors: string[] = [];
  /** Key frame requests (PLI/FIR) Janus sent this publisher: they cannot be answered. */
  keyFrameRequests = 0;

  constructor(private readonly opts: LightPeerOptions) {}

  get id(): string {
    return this.signal.id;
  }

  private mark(name: string): void {
    this.marks[name] ??= performance.now();
  }

  private fail(what: string, err: unknown): void {
    const text = `${what}: ${err instanceof Error ? err.message : String(err)}`;
    if (this.errors.length < 20) this.errors.push(text);
  }

  async join(
    base: string,
    meetingId: string,
    index: number,
    as: { name?: string; isHost?: boolean; cookie?: string } = {},
  ): Promise<void> {
    this.signal.onMessage = (m) => this.onMessage(m);
    this.mark('join');
    await this.signal.join(base, meetingId, index, { ...as, media: this.opts.media !== null });
  }

  private send(msg: Record<string, unknown>): void {
    if (this.signal.ws.readyState === this.signal.ws.OPEN) this.signal.ws.send(JSON.stringify(msg));
  }

  private request(msg: Record<string, unknown>): Promise<ServerMessage> {
    const requestId = `lp${++this.nextId}`;
    const timeout = this.opts.requestTimeoutMs ?? 15_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(requestId);
        reject(new Error(`${String(msg.type)}: no reply in ${timeout} ms`));
      }, timeout);
      this.pending.set(requestId, (m) => {
        clearTimeout(timer);
        if (m.type === 'error') reject(new Error(`${String(msg.type)}: ${m.code} ${m.message}`));
        else resolve(m);
      });
      this.send({ ...msg, requestId });
    });
  }

  private onMessage(m: ServerMessage): void {
    if ('requestId' in m && typeof m.requestId === 'string' && this.pending.has(m.requestId)) {
      const done = this.pending.get(m.requestId)!;
      this.pending.delete(m.requestId);
      done(m);
      if (m.type !== 'joined') return;
    }
    switch (m.type) {
      case 'joined':
        this.joined = true;
        this.mark('joined');
        this.roster = m.participants.map((p) => p.id).filter((id) => id !== m.self.id);
        if (this.mode === 'sfu') this.startSfu();
        break;
      case 'media_mode':
        this.mode = m.mode;
        if (m.mode === 'sfu' && m.restart) this.started = false;
        if (m.mode === 'sfu' && this.joined) this.startSfu();
        break;
      case 'participant_joined':
        if (m.participant.id !== this.id && !this.roster.includes(m.participant.id))
          this.roster.push(m.participant.id);
        this.sendView();
        break;
      case 'participant_left':
        this.roster = this.roster.filter((id) => id !== m.participantId);
        this.mesh
          .get(m.participantId)
          ?.close()
          .catch(() => undefined);
        this.mesh.delete(m.participantId);
        this.sendView();
        break;
      case 'active_speaker':
        this.speaker = m.participantId;
        this.sendView();
        break;
      case 'sfu_offer':
        this.offers = this.offers
          .then(() => this.takeSfuOffer(m))
          .catch((err: unknown) => this.fail('subscriber offer', err));
        break;
      case 'offer':
        void this.answerMesh(m.fromParticipant, m.offer.sdp).catch((err: unknown) =>
          this.fail('mesh answer', err),
        );
        break;
      case 'ice-candidate': {
        const pc = this.mesh.get(m.fromParticipant);
        if (pc && m.candidate) void pc.addIceCandidate(m.candidate).catch(() => undefined);
        break;
      }
      case 'error':
        this.fail('server', `${m.code} ${m.message}`);
        break;
      default:
        break;
    }
  }

  private startSfu(): void {
    if (this.started) return;
    this.started = true;
    this.mark('sfu');
    if (this.opts.media) void this.publish().catch((err: unknown) => this.fail('publish', err));
    if (this.opts.subscribe)
      void this.request({ type: 'sfu_subscribe' })
        .then(() => {
          this.subscribed = true;
          this.sendView();
        })
        .catch((err: unknown) => this.fail('subscribe', err));
  }

  /** Adds the shared encoder's audio and video to `pc` (one track each, fed from the encoder). */
  private addMedia(pc: RTCPeerConnection, { answer }: { answer: boolean }): void {
    const media = this.opts.media!;
    for (const kind of ['audio', 'video'] as const) {
      const track = new MediaStreamTrack({ kind });
      if (answer) pc.addTrack(track);
      else pc.addTransceiver(track, { direction: 'sendonly' });
      this.detach.push(media.attach(kind, (p: RtpPacket) => track.writeRtp(p)));
    }
    for (const t of pc.getTransceivers())
      t.sender.onRtcp.subscribe((rtcp) => {
        // PSFB (206) FMT 1 (PLI) or 4 (FIR): a key frame request.
        if (rtcp.type === 206 && 'feedback' in rtcp && [1, 4].includes(rtcp.feedback.count))
          this.keyFrameRequests += 1;
      });
  }

  private async publish(): Promise<void> {
    const pc = newPc();
    this.publisher = pc;
    this.addMedia(pc, { answer: false });
    pc.onIceCandidate.subscribe((c) => this.trickle('publisher', c));
    pc.connectionStateChange.subscribe((s) => this.mark(`publisher:${s}`));
    const offer = await pc.createOffer();
    await pc.setLocalDescription(offer);
    const reply = await this.request({ type: 'sfu_publish', offer: { type: 'offer', sdp: offer.sdp } });
    if (reply.type !== 'sfu_answer') throw new Error(`sfu_publish answered with ${reply.type}`);
    this.mark('publishAnswer');
    await pc.setRemoteDescription({ type: 'answer', sdp: reply.answer.sdp });
  }

  private trickle(target: 'publisher' | 'subscriber', c: RTCIceCandidate | undefined): void {
    const candidate = c?.candidate
      ? { candidate: c.candidate, sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null }
      : null;
    this.send({ type: 'sfu_trickle', target, candidate });
  }

  private async takeSfuOffer(m: Extract<ServerMessage, { type: 'sfu_offer' }>): Promise<void> {
    let pc = this.subscriber;
    if (!pc) {
      pc = newPc();
      this.subscriber = pc;
      pc.onIceCandidate.subscribe((c) => this.trickle('subscriber', c));
      pc.connectionStateChange.subscribe((s) => this.mark(`subscriber:${s}`));
      pc.onRemoteTransceiverAdded.subscribe((t) => this.watch(t));
    }
    this.mids = new Map(
      m.streams
        .filter((s) => s.active && s.participantId && s.kind !== 'data')
        .map((s) => [s.mid, { participantId: s.participantId!, kind: s.kind as Kind }]),
    );
    await pc.setRemoteDescription({ type: 'offer', sdp: m.offer.sdp });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    this.send({ type: 'sfu_answer', offerId: m.offerId, answer: { type: 'answer', sdp: answer.sdp } });
    this.mark('subscriberAnswer');
  }

  /** Counts what arrives on a transceiver of the subscriber connection, by whose stream it is. */
  private watch(t: RTCRtpTransceiver): void {
    t.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((packet) => {
        const info = t.mid ? this.mids.get(t.mid) : undefined;
        if (!info) return;
        const key = `${info.participantId}/${info.kind}`;
        let r = this.received.get(key);
        if (!r) {
          r = { packets: 0, bytes: 0, keyFrames: 0, firstAt: null, firstKeyFrameAt: null };
          this.received.set(key, r);
        }
        const now = performance.now();
        r.packets += 1;
        r.bytes += packet.payload.length;
        r.firstAt ??= now;
        this.mark('firstMedia');
        if (info.kind === 'video' && isVp8KeyFrameStart(packet.payload)) {
          r.keyFrames += 1;
          r.firstKeyFrameAt ??= now;
        }
      });
    });
  }

  /**
   * The videos the browser's layout would ask for: every other participant at the top layer
   * while nobody has spoken and all fit (the grid), else the speaker layout's first page — the
   * active speaker (or whom the stage showed, or the first) high, the next six low.
   */
  private view(): { participantId: string; quality: 'high' | 'low' }[] {
    const ids = this.roster;
    if (this.speaker === null && ids.length <= SFU_VIEW.maxVideos)
      return ids.map((participantId) => ({ participantId, quality: 'high' }));
    const stage =
      this.speaker && ids.includes(this.speaker)
        ? this.speaker
        : this.lastStage && ids.includes(this.lastStage)
          ? this.lastStage
          : (ids[0] ?? null);
    this.lastStage = stage;
    const thumbnails = ids.filter((id) => id !== stage).slice(0, SFU_VIEW.thumbnailsPerPage);
    return [
      ...(stage ? [{ participantId: stage, quality: 'high' as const }] : []),
      ...thumbnails.map((participantId) => ({ participantId, quality: 'low' as const })),
    ];
  }

  private sendView(): void {
    if (!this.subscribed) return;
    const videos = this.view();
    const key = JSON.stringify(videos);
    if (key === this.viewSent) return;
    this.viewSent = key;
    this.send({ type: 'sfu_view', videos });
  }

  /** A mesh offer (the bridge of a newcomer who moved the room to the SFU): answer with media. */
  private async answerMesh(from: string, sdp: string): Promise<void> {
    if (!this.opts.media) return;
    this.mesh
      .get(from)
      ?.close()
      .catch(() => undefined);
    const pc = newPc();
    this.mesh.set(from, pc);
    pc.onIceCandidate.subscribe((c) => {
      if (c?.candidate)
        this.send({
          type: 'ice-candidate',
          targetParticipant: from,
          candidate: {
            candidate: c.candidate,
            sdpMid: c.sdpMid ?? null,
            sdpMLineIndex: c.sdpMLineIndex ?? null,
          },
        });
    });
    pc.connectionStateChange.subscribe((s) => {
      this.mark(`mesh:${s}`);
      if (s === 'failed' || s === 'disconnected') {
        pc.close().catch(() => undefined);
        if (this.mesh.get(from) === pc) this.mesh.delete(from);
      }
    });
    await pc.setRemoteDescription({ type: 'offer', sdp });
    this.addMedia(pc, { answer: true });
    const answer = await pc.createAnswer();
    await pc.setLocalDescription(answer);
    this.send({ type: 'answer', targetParticipant: from, answer: { type: 'answer', sdp: answer.sdp } });
  }

  /** Participants this peer received both audio and video packets from, and the video ones. */
  receivedFrom(): { media: Set<string>; video: Set<string>; keyFrames: Set<string> } {
    const media = new Set<string>();
    const video = new Set<string>();
    const keyFrames = new Set<string>();
    for (const [key, r] of this.received) {
      const [id, kind] = key.split('/') as [string, Kind];
      if (r.packets > 0) media.add(id);
      if (kind === 'video' && r.packets > 0) video.add(id);
      if (kind === 'video' && r.keyFrames > 0) keyFrames.add(id);
    }
    return { media, video, keyFrames };
  }

  async close(leave = true): Promise<void> {
    if (leave) this.send({ type: 'leave_meeting' });
    for (const d of this.detach.splice(0)) d();
    for (const pc of [this.publisher, this.subscriber, ...this.mesh.values()])
      await pc?.close().catch(() => undefined);
    this.mesh.clear();
    this.signal.ws?.terminate();
  }
}
