import type { ServerMessage } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type {
  IceCandidateInit,
  Jsep,
  MediaProvider,
  SfuLayer,
  SfuTarget,
} from '../../providers/media/index.js';
import { RoomError } from '../rooms/errors.js';
import type { Joining } from '../rooms/events.js';
import type { Actor, Audience } from '../rooms/transport.js';
import { iceServersFor } from './ice.js';

/** From this many participants in a room its media goes through the SFU (Jitsi does the same). */
export const SFU_FROM_PARTICIPANTS = 3;
/**
 * Without an SFU a meeting is a full mesh: measured on 2 cores, 3 browsers saturate the CPU and 4
 * drop to 12-14 fps (TESTING-MEDIA.md), so a room holds at most 4 people then.
 */
export const MESH_MAX_PARTICIPANTS = 4;

/** The simulcast layer a tile's quality asks for (`sfu_view`). */
export const LAYER_OF_QUALITY: Readonly<Record<'high' | 'medium' | 'low', SfuLayer>> = {
  high: 2,
  medium: 1,
  low: 0,
};

export const MEDIA_MESSAGES = {
  noSfu: 'This meeting’s media is peer-to-peer now: there is no SFU connection to make',
  sfuFailed: 'The video server could not connect you; try again in a moment',
  onSfu: 'This meeting’s media goes through the SFU now: stay connected to it',
} as const;

export interface MediaServiceDeps {
  provider: MediaProvider;
  /** The most people a room holds while it has no SFU; null: no cap (MEDIA_PROVIDER=p2p chosen). */
  meshCap: number | null;
  /** STUN and TURN servers, as configured (a participant's `joined` carries them). */
  ice: Config['ice'];
  /** A message to a room's audience (the room's transport). */
  publish(roomId: string, to: Audience, message: ServerMessage): void;
  /** Whether the actor is an admitted participant of its room (throws a RoomError otherwise). */
  admitted(actor: Actor): Promise<unknown>;
  /**
   * How many participants are in the room now, leaving out `exceptId` (the room slice's count:
   * the media keeps none of its own).
   */
  inRoom(roomId: string, exceptId?: string): Promise<number>;
  log: FastifyBaseLogger;
}

/**
 * The one rule for a room's media mode: on the SFU once it is there, or when `inRoom` people
 * (the one arriving included) reach SFU_FROM_PARTICIPANTS on a server whose SFU is up.
 */
export function modeFor(onSfu: boolean, inRoom: number, sfuReady: boolean): 'p2p' | 'sfu' {
  return onSfu || (inRoom >= SFU_FROM_PARTICIPANTS && sfuReady) ? 'sfu' : 'p2p';
}

/**
 * How a meeting's media flows (issue 17). Two people talk peer-to-peer; when a third is in the
 * room, the room moves to the SFU (`media_mode sfu`, to everyone); when only two (or one) remain
 * and nothing is being recorded, it goes back to peer-to-peer (`media_mode p2p`): each page keeps
 * its SFU connections until its mesh links carry media, then leaves the SFU (`sfu_leave`).
 * Room rules stay in the room slice: every SFU action is an admitted participant's, checked here
 * against the RoomService before it reaches the provider, and the browser never talks to Janus.
 */
export function createMediaService(deps: MediaServiceDeps) {
  const { provider, log } = deps;
  /** Rooms on the SFU (this instance's rooms: the SFU state is in this process). */
  const sfuRooms = new Set<string>();
  /** Rooms that were on the SFU when Janus was lost. */
  const lostRooms = new Set<string>();
  /** Rooms the SFU may hold state for (on it now, or back on the mesh with pages still leaving it). */
  const heldRooms = new Set<string>();
  /** Rooms being recorded: they stay on the SFU whatever their size (Janus records them). */
  const recordingRooms = new Set<string>();
  /** Who follows the rooms' active speaker changes (recording's speaker timeline). */
  const speakerListeners = new Set<(roomId: string, participantId: string | null) => void>();

  const sfuReady = () => provider.kind === 'janus' && provider.available();
  const announce = (roomId: string, message: ServerMessage & { type: 'media_mode' }) =>
    deps.publish(roomId, { kind: 'all' }, message);

  /** Two (or one) left and nothing being recorded: the room goes back to peer-to-peer. */
  function backToMeshIfSmall(roomId: string, count: number): void {
    if (!sfuRooms.has(roomId) || count === 0 || count >= SFU_FROM_PARTICIPANTS) return;
    if (recordingRooms.has(roomId)) return;
    sfuRooms.delete(roomId);
    log.info({ roomId, count }, 'meeting goes back to peer-to-peer');
    announce(roomId, { type: 'media_mode', mode: 'p2p' });
  }

  /**
   * The participant's page resumed on a new socket (its `joined` just went out): a subscriber
   * offer still waiting for its answer is sent again now rather than after the answer timeout.
   */
  function resumed(roomId: string, participantId: string): void {
    if (heldRooms.has(roomId) && provider.resendOffer(roomId, participantId))
      log.info({ roomId, participantId }, 'subscriber offer sent again after a resume');
  }

  /** The room ended, or its last participant left: the SFU room goes. */
  function release(roomId: string): void {
    if (!heldRooms.has(roomId)) return;
    sfuRooms.delete(roomId);
    heldRooms.delete(roomId);
    recordingRooms.delete(roomId);
    provider
      .closeRoom(roomId)
      .catch((err: unknown) => log.warn({ err, roomId }, 'could not release the sfu'));
  }

  /**
   * A participant is entering (its `joined` is about to go out) with `count` people in the room.
   * Answers the room's mode for it, and whether the room just moved to the SFU.
   */
  function entering(roomId: string, count: number): { mode: 'p2p' | 'sfu'; changed: boolean } {
    const onSfu = sfuRooms.has(roomId);
    const mode = modeFor(onSfu, count, sfuReady());
    if (mode === 'sfu' && !onSfu) {
      sfuRooms.add(roomId);
      heldRooms.add(roomId);
      log.info({ roomId, count }, 'meeting moves to the SFU');
    }
    return { mode, changed: mode === 'sfu' && !onSfu };
  }

  async function sfuActor(actor: Actor): Promise<void> {
    await deps.admitted(actor);
    if (!sfuRooms.has(actor.roomId)) throw new RoomError('forbidden', 409, MEDIA_MESSAGES.noSfu);
  }

  const failed = (err: unknown, what: string, actor: Actor): never => {
    if (err instanceof RoomError) throw err;
    log.warn({ err, roomId: actor.roomId }, `sfu ${what} failed`);
    throw new RoomError('internal', 503, MEDIA_MESSAGES.sfuFailed);
  };

  return {
    provider,
    /** Whether this server has an SFU at all (Janus configured, connected or reconnecting). */
    hasSfu: provider.kind === 'janus',
    /** The rooms' peer-to-peer cap (RoomMeeting.meshCap) when there is no SFU; else null. */
    meshCap: provider.kind === 'janus' ? null : deps.meshCap,

    modeOf: (roomId: string): 'p2p' | 'sfu' => (sfuRooms.has(roomId) ? 'sfu' : 'p2p'),

    /** STUN and TURN servers for one participant (its `joined` carries them). */
    iceServers: (participantId: string) => iceServersFor(deps.ice, participantId),

    /**
     * The mode a participant that has just joined over REST will most likely find when its socket
     * joins (JoinResponse.mediaMode), by the same rule as its `joined` (modeFor), counting it
     * among those in the room. A hint: its `joined` decides.
     */
    async expectedMode(roomId: string, participantId: string): Promise<'p2p' | 'sfu'> {
      if (sfuRooms.has(roomId)) return 'sfu';
      const others = await deps.inRoom(roomId, participantId);
      return modeFor(false, others + 1, sfuReady());
    },

    /**
     * Around a participant's `joined` (the rooms' `aroundJoined` hook): before it, the room's
     * mode, addressed to it (so it never starts a mesh the room no longer uses; the newcomer of
     * the switch also meshes with the others until the SFU carries them, `bridge`). After it, a
     * newcomer to a room on the SFU learns who is speaking (the others heard it already), and,
     * when its arrival moved the room to the SFU, everyone else hears it; a page that resumes
     * keeps its SFU session, so an offer lost with its old socket comes again. Without an SFU,
     * nothing (no media_mode at all).
     */
    aroundJoined(j: Joining): { before: ServerMessage[]; after: () => void } | undefined {
      if (provider.kind !== 'janus') return undefined;
      const { mode, changed } = entering(j.roomId, j.inRoom);
      const self = { kind: 'one' as const, participantId: j.participantId };
      return {
        before: [{ type: 'media_mode', mode, ...(changed ? { bridge: true } : {}) }],
        after: () => {
          const speaker = mode === 'sfu' ? provider.activeSpeaker(j.roomId) : null;
          if (speaker && speaker !== j.participantId)
            deps.publish(j.roomId, self, { type: 'active_speaker', participantId: speaker });
          if (changed)
            deps.publish(j.roomId, { kind: 'all', except: j.participantId }, { type: 'media_mode', mode });
          if (j.resumed && mode === 'sfu') resumed(j.roomId, j.participantId);
        },
      };
    },

    resumed,

    /**
     * The participant left the room, `inRoom` still in it: its SFU connections go; when nobody is
     * left, the SFU room goes and the meeting starts peer-to-peer again next time.
     */
    left(roomId: string, participantId: string, inRoom: number): void {
      if (!heldRooms.has(roomId)) return;
      if (inRoom === 0) {
        release(roomId);
        return;
      }
      provider
        .leave(roomId, participantId)
        .catch((err: unknown) => log.warn({ err, roomId }, 'could not release the sfu'));
      backToMeshIfSmall(roomId, inRoom);
    },

    /** The room ended (its meeting was deleted): the SFU room goes. */
    ended: release,

    /**
     * The participant's page left the SFU (back on the mesh, its links carrying media): its
     * publisher and subscriber go, and the SFU room once nobody is in it.
     */
    async leaveSfu(actor: Actor): Promise<void> {
      await deps.admitted(actor);
      if (sfuRooms.has(actor.roomId)) throw new RoomError('forbidden', 409, MEDIA_MESSAGES.onSfu);
      if (!heldRooms.has(actor.roomId)) return;
      await provider.leave(actor.roomId, actor.participantId).catch((e) => failed(e, 'leave', actor));
    },

    /**
     * Janus was lost: its rooms are gone. They stay on the SFU (a room does not fall back to a
     * mesh of many); their sfu_* requests wait for `recovered`.
     */
    lost(): void {
      for (const id of sfuRooms) lostRooms.add(id);
      sfuRooms.clear();
      heldRooms.clear();
    },

    /** Janus is back: every room that was on it (and still has people) publishes and subscribes again. */
    async recovered(): Promise<void> {
      const rooms = [...lostRooms];
      lostRooms.clear();
      for (const id of rooms) {
        if ((await deps.inRoom(id)) === 0) continue;
        sfuRooms.add(id);
        heldRooms.add(id);
        log.info({ roomId: id }, 'janus is back: the meeting publishes again');
        announce(id, { type: 'media_mode', mode: 'sfu', restart: true });
      }
    },

    async publish(actor: Actor, offer: Jsep): Promise<Jsep> {
      await sfuActor(actor);
      return provider
        .publish(actor.roomId, actor.participantId, offer)
        .catch((e) => failed(e, 'publish', actor));
    },

    async subscribe(actor: Actor): Promise<void> {
      await sfuActor(actor);
      await provider.subscribe(actor.roomId, actor.participantId).catch((e) => failed(e, 'subscribe', actor));
    },

    async answer(actor: Actor, offerId: number, answer: Jsep): Promise<void> {
      await sfuActor(actor);
      await provider
        .answer(actor.roomId, actor.participantId, offerId, answer)
        .catch((e) => failed(e, 'answer', actor));
    },

    /**
     * The remote videos the participant's page shows, with each tile's quality: it receives
     * those participants' video only, each at the simulcast layer that fits the tile.
     */
    async view(
      actor: Actor,
      videos: { participantId: string; quality: 'high' | 'medium' | 'low' }[],
    ): Promise<void> {
      await sfuActor(actor);
      await provider
        .view(
          actor.roomId,
          actor.participantId,
          videos.map((v) => ({ participantId: v.participantId, layer: LAYER_OF_QUALITY[v.quality] })),
        )
        .catch((e) => failed(e, 'view', actor));
    },

    /**
     * A video the participant's page shows decodes nothing: its publisher is asked for a key
     * frame (the provider rate-limits, and asks only for a video the participant receives).
     */
    async keyframe(actor: Actor, publisherId: string): Promise<void> {
      await sfuActor(actor);
      // A hint: a request Janus did not take is only logged (the page asks again if it must).
      await provider
        .keyframe(actor.roomId, actor.participantId, publisherId)
        .catch((err: unknown) => log.warn({ err, roomId: actor.roomId }, 'sfu keyframe failed'));
    },

    /**
     * The room moves to the SFU now, whatever its size (recording needs it): everyone hears
     * `media_mode sfu` and switches as when a third person comes in. Answers false when there is
     * no SFU up to move to.
     */
    async moveToSfu(roomId: string): Promise<boolean> {
      if (sfuRooms.has(roomId)) return true;
      if (!sfuReady() || (await deps.inRoom(roomId)) === 0) return false;
      if (sfuRooms.has(roomId)) return true;
      sfuRooms.add(roomId);
      heldRooms.add(roomId);
      log.info({ roomId }, 'meeting moves to the SFU (recording)');
      announce(roomId, { type: 'media_mode', mode: 'sfu' });
      return true;
    },

    /** Whether this server can record meetings (an SFU with a recordings folder). */
    canRecord: (): boolean => provider.kind === 'janus' && provider.recordingDir !== null,
    recordingDir: provider.recordingDir,
    async startRecording(roomId: string, name: string): Promise<void> {
      // Marked first: someone leaving while Janus starts the recording keeps the room on the SFU.
      recordingRooms.add(roomId);
      await provider.startRecording(roomId, name).catch((err: unknown) => {
        recordingRooms.delete(roomId);
        throw err;
      });
    },
    async stopRecording(roomId: string): Promise<void> {
      recordingRooms.delete(roomId);
      await provider.stopRecording(roomId);
      backToMeshIfSmall(roomId, await deps.inRoom(roomId));
    },

    /**
     * The provider heard a room's active speaker change (the media plugin, beside publishing
     * `active_speaker`): those following the changes hear it.
     */
    speakerChanged(roomId: string, participantId: string | null): void {
      for (const listener of speakerListeners) {
        try {
          listener(roomId, participantId);
        } catch (err) {
          log.warn({ err, roomId }, 'an active speaker listener failed');
        }
      }
    },

    /** Follows every room's active speaker changes (recording keeps them); answers how to stop. */
    onSpeakerChanged(listener: (roomId: string, participantId: string | null) => void): () => void {
      speakerListeners.add(listener);
      return () => speakerListeners.delete(listener);
    },

    /** The room's active speaker (rooms on the SFU), for a newcomer. */
    activeSpeaker(roomId: string): string | null {
      return sfuRooms.has(roomId) ? provider.activeSpeaker(roomId) : null;
    },

    /**
     * Passes a candidate on without waiting for the SFU's acknowledgement: the socket's messages
     * are handled one at a time, and an `sfu_answer` behind a candidate would otherwise wait for
     * Janus to acknowledge it (over 100 ms seen while Janus set up a publisher), holding up the
     * subscriber's connection. The SFU client sends requests in the order they are made, so
     * candidates still reach Janus in order. Nothing is answered to a candidate: a failure is logged.
     */
    async trickle(actor: Actor, target: SfuTarget, candidate: IceCandidateInit | null): Promise<void> {
      await sfuActor(actor);
      provider
        .trickle(actor.roomId, actor.participantId, target, candidate)
        .catch((err: unknown) => log.warn({ err, roomId: actor.roomId }, 'sfu trickle failed'));
    },
  };
}
export type MediaService = ReturnType<typeof createMediaService>;
