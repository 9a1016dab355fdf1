import { SFU_VIEW } from '@parley/protocol/constants';
import type { RoomParticipant } from '@parley/protocol/ws';
import type { SpeakerLayout } from './layout';
import type { VideoWant } from './media/sfu-session';
import type { RoomSnapshot } from './room-session';

/**
 * What the room's main area shows, and so which remote videos the page receives: on the SFU the
 * page asks for those (`sfu_view`), each at the quality its tile needs, and the server has the SFU
 * send only them; the others' video stops. Decided here alone, with no I/O; `useVideoView` hands
 * the view to the session.
 */

/** The room's main area (RoomView). */
export type MainLayout =
  /** Someone presents: their screen on the stage, everyone's camera beside it. */
  | { kind: 'share'; sharer: RoomParticipant }
  /** The active speaker on the stage, the others as thumbnails a page at a time (SpeakerView). */
  | { kind: 'speaker' }
  /** Everyone's video in a grid. */
  | { kind: 'grid' };

/** A layout with what decides its videos; the speaker layout's are its stage and page (`speakerLayout`). */
export type VideoLayout =
  | { kind: 'share'; sharer: Pick<RoomParticipant, 'id'> }
  | ({ kind: 'speaker' } & Pick<SpeakerLayout, 'stage' | 'thumbnails'>)
  | { kind: 'grid' };

/** `sharingScreen`: this participant's own screen share is on (local media). */
export function mainLayout(
  room: Pick<RoomSnapshot, 'self' | 'participants' | 'mediaMode' | 'activeSpeakerId'>,
  sharingScreen: boolean,
): MainLayout {
  const { self, participants } = room;
  const sharer =
    self?.isScreenSharing || sharingScreen
      ? self
        ? { ...self, isScreenSharing: true }
        : null
      : (participants.find((p) => p.isScreenSharing) ?? null);
  if (sharer) return { kind: 'share', sharer };
  // The speaker layout once someone has spoken (or when the grid could not show everyone's
  // video); until then the grid, every video at the top layer, so the move from the mesh to the
  // SFU changes neither the tiles nor the layers they receive.
  const speaker =
    room.mediaMode === 'sfu' &&
    participants.length > 0 &&
    (room.activeSpeakerId !== null || participants.length > SFU_VIEW.maxVideos);
  return speaker ? { kind: 'speaker' } : { kind: 'grid' };
}

/**
 * The remote videos a layout shows, as `sfu_view` asks for them. `participants`: the remote
 * participants in join order; `selfId`: this participant (its own screen is not asked for).
 */
export function videoView(
  layout: VideoLayout,
  participants: readonly Pick<RoomParticipant, 'id'>[],
  selfId: string | null,
): VideoWant[] {
  switch (layout.kind) {
    case 'share': {
      // While someone presents: their screen high, the first others' cameras low.
      const { id } = layout.sharer;
      return [
        ...(id !== selfId ? [want(id, 'high')] : []),
        ...participants
          .filter((p) => p.id !== id)
          .slice(0, SFU_VIEW.maxVideos - 1)
          .map((p) => want(p.id, 'low')),
      ];
    }
    case 'speaker':
      // The stage high, the thumbnails low; participants on other pages are heard, not seen.
      return [
        ...(layout.stage ? [want(layout.stage, 'high')] : []),
        ...layout.thumbnails.map((id) => want(id, 'low')),
      ];
    case 'grid':
      return participants.map((p) => want(p.id, 'high'));
  }
}

/** Whether two views ask for the same videos at the same qualities, in the same order. */
export function sameView(a: readonly VideoWant[], b: readonly VideoWant[]): boolean {
  return (
    a.length === b.length &&
    a.every((w, i) => w.participantId === b[i]!.participantId && w.quality === b[i]!.quality)
  );
}

const want = (participantId: string, quality: VideoWant['quality']): VideoWant => ({
  participantId,
  quality,
});
