/** A session description as the browser and Janus exchange it. */
export interface Jsep {
  type: 'offer' | 'answer';
  sdp: string;
}

/** One m-line of a participant's subscriber connection: whose media it carries. */
export interface SfuStream {
  mid: string;
  /** The publishing participant (its Janus feed id); null for a stream no longer in use. */
  participantId: string | null;
  kind: 'audio' | 'video' | 'data';
  active: boolean;
}

export interface IceCandidateInit {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
}

export type SfuTarget = 'publisher' | 'subscriber';

/** A simulcast layer a subscriber receives: 0 the lowest (quarter size), 2 the full picture. */
export type SfuLayer = 0 | 1 | 2;

/** One remote video a participant shows, and the layer its tile needs. */
export interface SfuVideoWant {
  participantId: string;
  layer: SfuLayer;
}

/**
 * How meeting media flows. `p2p`: the browsers' full mesh (the server only relays their
 * signaling); `janus`: through the Janus VideoRoom SFU, with the server as the only Janus client
 * (browsers never reach Janus: nobody publishes or subscribes without having joined through us).
 */
export interface MediaProvider {
  readonly kind: 'p2p' | 'janus';
  /**
   * Why this server has no SFU, in a few words (GET /api/health and /api/features say it); null
   * when it has one (connected or reconnecting).
   */
  readonly sfuOff: string | null;
  /** Whether an SFU is up now (Janus connected). */
  available(): boolean;
  /** The participant's publisher: our offer in, Janus's answer out. */
  publish(roomId: string, participantId: string, offer: Jsep): Promise<Jsep>;
  /**
   * The participant receives every other publisher of the room, now and as they come and go:
   * each (re)negotiation reaches it as `onOffer` and is finished by `answer` with the same offer id.
   */
  subscribe(roomId: string, participantId: string): Promise<void>;
  /** The browser's answer to the offer `offerId`; one to an offer no longer waited on is ignored. */
  answer(roomId: string, participantId: string, offerId: number, answer: Jsep): Promise<void>;
  /**
   * The participant's page resumed on a new socket: the subscriber offer it has not answered (it
   * may have gone out on the socket that died) is sent again at once. Answers whether one was.
   */
  resendOffer(roomId: string, participantId: string): boolean;
  trickle(
    roomId: string,
    participantId: string,
    target: SfuTarget,
    candidate: IceCandidateInit | null,
  ): Promise<void>;
  /**
   * The remote videos the participant shows (and at which layer): only these publishers' video
   * reaches it; the rest of its subscription's video goes. Audio is not affected.
   */
  view(roomId: string, participantId: string, videos: SfuVideoWant[]): Promise<void>;
  /**
   * The participant's page shows `publisherId`'s video but decodes nothing: that publisher is
   * asked for a key frame, at most once per SFU_VIEW.keyframeEveryMs for the pair, and only when
   * the participant receives that video. Answers whether a request went out.
   */
  keyframe(roomId: string, participantId: string, publisherId: string): Promise<boolean>;
  /** The room's active speaker now (the last one heard starting to talk), or null. */
  activeSpeaker(roomId: string): string | null;
  /** The participant left the room: its publisher and subscriber go. */
  leave(roomId: string, participantId: string): Promise<void>;
  /**
   * Where this SFU writes recordings (Janus's rec_dir, as this server sees it); null when it
   * cannot record (peer-to-peer, or an external Janus without a shared folder).
   */
  readonly recordingDir: string | null;
  /**
   * Records every publisher of the room, now and as they (re)publish, until stopRecording: each
   * stream goes to `<recordingDir>/<name>-<n>-p<participant>-{audio,video}-<mindex>.mjr` (n: one per
   * publisher connection). Survives a Janus restart: publishers that publish again are recorded again.
   */
  startRecording(roomId: string, name: string): Promise<void>;
  /** Stops the room's recording; Janus closes the files. */
  stopRecording(roomId: string): Promise<void>;
  /** The room is over (empty or ended): the Janus room goes. */
  closeRoom(roomId: string): Promise<void>;
  close(): Promise<void>;
}

export interface MediaEvents {
  /**
   * A subscriber offer for the participant's browser, with the stream map. `offerId` names the
   * negotiation (the same when the offer is sent again); its answer must name it.
   */
  onOffer(roomId: string, participantId: string, offerId: number, offer: Jsep, streams: SfuStream[]): void;
  /** The room's active speaker changed (null: none, e.g. the last one left). */
  onActiveSpeaker(roomId: string, participantId: string | null): void;
  /** Janus was lost (restarting): every SFU connection is gone. */
  onLost(): void;
  /** Janus is back after a loss (a new session): the browsers must publish and subscribe again. */
  onRecovered(): void;
}
