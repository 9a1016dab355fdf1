import { randomBytes } from 'node:crypto';
import type { SubscriberStream, VideoRoomHandle } from 'janode/plugins/videoroom';
import { timed } from './janus-client.js';
import { RoomSpeakers } from './janus-speakers.js';
import type { StreamKey } from './subscription-plan.js';
import type { IceCandidateInit, Jsep, SfuLayer, SfuStream, SfuTarget } from './types.js';

/** What this server keeps of a meeting's Janus room and of each participant in it. */

export interface Member {
  id: string;
  publisher: VideoRoomHandle | null;
  subscriber: VideoRoomHandle | null;
  /** The publishers' streams the subscriber receives (as last negotiated). */
  subscribed: Set<StreamKey>;
  /** The subscription's streams as Janus last listed them. */
  streams: SubscriberStream[];
  /** The remote videos the browser shows (participant → layer); null until it says (all, high). */
  view: Map<string, SfuLayer> | null;
  /** The simulcast layer asked of Janus for each subscription video stream (`mid feed`). */
  layers: Map<string, SfuLayer>;
  wantsSubscription: boolean;
  /** Subscription updates that failed in a row (each is tried again, SYNC_RETRIES at most). */
  failedSyncs: number;
  /** Subscriber negotiations run one at a time. */
  queue: Promise<void>;
  /**
   * The subscriber offer the browser has not answered yet (sent again when its page resumes), and
   * what settles the wait for its answer.
   */
  pendingOffer: {
    id: number;
    offer: Jsep;
    streams: SfuStream[];
    resolve(a: Jsep): void;
    reject(e: Error): void;
  } | null;
  /** Candidates that came before their handle. */
  early: Record<SfuTarget, (IceCandidateInit | null)[]>;
  /** When this participant last had a publisher asked for a key frame (publisher → ms). */
  keyframeAsked: Map<string, number>;
}

export interface Room {
  id: string;
  /** The Janus room id: ours plus a random part (a room left over in an external Janus never clashes). */
  janusId: string;
  secret: string;
  pin: string;
  ready: Promise<void>;
  /** Participants whose publisher is up (their feed exists: subscribing to it cannot 428). */
  feeds: Set<string>;
  /** Each publisher's audio and video mid (from its offer): a subscription names streams by them. */
  mids: Map<string, { audio?: string; video?: string }>;
  /** Who talks (Janus's talking events): the active speaker, and the order last-N audio uses. */
  speakers: RoomSpeakers;
  members: Map<string, Member>;
  /** Publishers to be asked for a key frame after subscribers changed their layer (see LAYER_KEYFRAME_MS). */
  layerKeyframes: Map<string, NodeJS.Timeout>;
}

const token = () => randomBytes(18).toString('hex');

/** A room not created in Janus yet (`ready` is its creation), with a secret and a pin of its own. */
export function newRoom(roomId: string): Room {
  return {
    id: roomId,
    janusId: `${roomId}-${token().slice(0, 8)}`,
    secret: token(),
    pin: token(),
    ready: Promise.resolve(),
    feeds: new Set(),
    mids: new Map(),
    speakers: new RoomSpeakers(),
    members: new Map(),
    layerKeyframes: new Map(),
  };
}

export function newMember(id: string): Member {
  return {
    id,
    publisher: null,
    subscriber: null,
    subscribed: new Set(),
    streams: [],
    view: null,
    layers: new Map(),
    wantsSubscription: false,
    failedSyncs: 0,
    queue: Promise.resolve(),
    pendingOffer: null,
    early: { publisher: [], subscriber: [] },
    keyframeAsked: new Map(),
  };
}

export function detach(handle: VideoRoomHandle): Promise<void> {
  return timed(handle.detach(), 'detach', 3000).catch(() => undefined);
}

/** The candidates that came before the handle go to it now. */
export async function flushEarly(me: Member, target: SfuTarget): Promise<void> {
  const handle = me[target];
  if (!handle) return;
  for (const c of me.early[target].splice(0)) {
    await timed(c ? handle.trickle(c) : handle.trickleComplete(), 'trickle').catch(() => undefined);
  }
}
