import { useEffect, useRef } from 'react';
import type { VideoWant } from './media/sfu-session';
import { useRoomContext, useRoomState } from './room-context';
import type { RoomSession } from './room-session';
import { sameView, videoView, type VideoLayout } from './video-view';

/**
 * Hands the session the videos `layout` shows (`videoView`) when they change, compared by value: a
 * render with the same view hands nothing over. On the mesh, or with no layout (null: the layout
 * on screen is another component's, which tells its own), nothing is handed over.
 */
export function useVideoView(layout: VideoLayout | null): void {
  const { session } = useRoomContext();
  const room = useRoomState();
  const view =
    layout && room.mediaMode === 'sfu' ? videoView(layout, room.participants, room.self?.id ?? null) : null;
  const handed = useRef<{ session: RoomSession; view: VideoWant[] } | null>(null);
  useEffect(() => {
    // After a null the same view is handed over again: another layout may have told its own since.
    if (!view) {
      handed.current = null;
      return;
    }
    const last = handed.current;
    if (last && last.session === session && sameView(last.view, view)) return;
    handed.current = { session, view };
    session.setVideoView(view);
  });
}
