import type { FastifyBaseLogger } from 'fastify';
import type {
  IceCandidateInit,
  Jsep,
  MediaProvider,
  SfuLayer,
  SfuTarget,
} from '../../providers/media/index.js';
import { RoomError } from '../rooms/errors.js';
import type { Actor } from '../rooms/transport.js';

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
  /** Tells a room's participants its media mode (`restart`: publish and subscribe again). */
  announce(roomId: string, message: { type: 'media_mode'; mode: 'p2p' | 'sfu'; restart?: boolean }): void;
  /** Whether the actor is an admitted participant of its room (throws a RoomError otherwise). */
  admitted(actor: Actor): Promise<unknown>;
  log: FastifyBaseLogger;
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
  /** Who is in each room, as the room's news told us (to release the SFU when it empties). */
  const present = new Map<string, Set<string>>();
  const roomOf = new Map<string, string>();

  const sfuReady = () => provider.kind === 'janus' && provider.available();

  /** Two (or one) left and nothing being recorded: the room goes back to peer-to-peer. */
  function backToMeshIfSmall(roomId: string): void {
    const count = present.get(roomId)?.size ?? 0;
    if (!sfuRooms.has(roomId) || count === 0 || count >= SFU_FROM_PARTICIPANTS) return;
    if (recordingRooms.has(roomId)) return;
    sfuRooms.delete(roomId);
    log.info({ roomId, count }, 'meeting goes back to peer-to-peer');
    deps.announce(roomId, { type: 'media_mode', mode: 'p2p' });
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

    /**
     * The mode a participant that has just joined over REST will most likely find when its socket
     * joins (JoinResponse.mediaMode): `sfu` if the room is on the SFU, or has enough people in it
     * that this arrival moves it there. A hint: `entering` decides.
     */
    expectedMode(roomId: string, participantId: string): 'p2p' | 'sfu' {
      if (sfuRooms.has(roomId)) return 'sfu';
      const others = [...(present.get(roomId) ?? [])].filter((id) => id !== participantId).length;
      return others + 1 >= SFU_FROM_PARTICIPANTS && sfuReady() ? 'sfu' : 'p2p';
    },

    /**
     * A participant is entering (its `joined` is about to go out) with `count` people in the room.
     * Answers the room's mode for it, and whether the room just moved to the SFU.
     */
    entering(
      roomId: string,
      participantId: string,
      count: number,
    ): { mode: 'p2p' | 'sfu'; changed: boolean } {
      let ids = present.get(roomId);
      if (!ids) present.set(roomId, (ids = new Set()));
      ids.add(participantId);
      roomOf.set(participantId, roomId);
      if (sfuRooms.has(roomId)) return { mode: 'sfu', changed: false };
      if (count >= SFU_FROM_PARTICIPANTS && sfuReady()) {
        sfuRooms.add(roomId);
        heldRooms.add(roomId);
        log.info({ roomId, count }, 'meeting moves to the SFU');
        return { mode: 'sfu', changed: true };
      }
      return { mode: 'p2p', changed: false };
    },

    /**
     * The participant's page resumed on a new socket (its `joined` just went out): a subscriber
     * offer still waiting for its answer is sent again now rather than after the answer timeout.
     */
    resumed(roomId: string, participantId: string): void {
      if (heldRooms.has(roomId) && provider.resendOffer(roomId, participantId))
        log.info({ roomId, participantId }, 'subscriber offer sent again after a resume');
    },

    /**
     * The participant left the room (or the room ended): its SFU connections go; when nobody is
     * left, the SFU room goes and the meeting starts peer-to-peer again next time.
     */
    left(participantId: string): void {
      const roomId = roomOf.get(participantId);
      if (!roomId) return;
      roomOf.delete(participantId);
      const ids = present.get(roomId);
      ids?.delete(participantId);
      const empty = !ids || ids.size === 0;
      if (empty) present.delete(roomId);
      if (!heldRooms.has(roomId)) return;
      if (empty) {
        sfuRooms.delete(roomId);
        heldRooms.delete(roomId);
        recordingRooms.delete(roomId);
      }
      const release = empty ? provider.closeRoom(roomId) : provider.leave(roomId, participantId);
      release.catch((err: unknown) => log.warn({ err, roomId }, 'could not release the sfu'));
      if (!empty) backToMeshIfSmall(roomId);
    },

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

    /** Janus is back: every room that was on it is told to publish and subscribe again. */
    recovered(): void {
      for (const id of lostRooms) {
        if (!present.has(id)) continue;
        sfuRooms.add(id);
        heldRooms.add(id);
        log.info({ roomId: id }, 'janus is back: the meeting publishes again');
        deps.announce(id, { type: 'media_mode', mode: 'sfu', restart: true });
      }
      lostRooms.clear();
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
    moveToSfu(roomId: string): boolean {
      if (sfuRooms.has(roomId)) return true;
      if (!sfuReady() || !present.has(roomId)) return false;
      sfuRooms.add(roomId);
      heldRooms.add(roomId);
      log.info({ roomId }, 'meeting moves to the SFU (recording)');
      deps.announce(roomId, { type: 'media_mode', mode: 'sfu' });
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
      backToMeshIfSmall(roomId);
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
