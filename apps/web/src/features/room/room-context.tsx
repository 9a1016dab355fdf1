import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { useStore } from '@/lib/use-store';
import type { LocalMediaSnapshot } from './media/local-media';
import { RoomLayout, type LayoutState } from './layout';
import type { RoomController } from './room-controller';
import type { RoomSession, RoomSnapshot } from './room-session';
import type { RoomPhase } from './room-state';

/**
 * The joined room's context (LiveKit's RoomContext): the controller, the session and the layout,
 * so controls find them through hooks instead of props. Connection and media objects are passed
 * by reference and read through useSyncExternalStore; none of them is copied into React state.
 */
export interface RoomContextValue {
  controller: RoomController;
  session: RoomSession;
  layout: RoomLayout;
  /** The person has an active Pro subscription (AI features without the upgrade dialog). */
  isPro: boolean;
}

const RoomContext = createContext<RoomContextValue | null>(null);

export function RoomProvider({
  controller,
  session,
  isPro,
  children,
}: {
  controller: RoomController;
  session: RoomSession;
  isPro: boolean;
  children: ReactNode;
}) {
  const [layout] = useState(() => new RoomLayout());
  const value = useMemo(() => ({ controller, session, layout, isPro }), [controller, session, layout, isPro]);
  return <RoomContext.Provider value={value}>{children}</RoomContext.Provider>;
}

export function useRoomContext(): RoomContextValue {
  const value = useContext(RoomContext);
  if (!value) throw new Error('Room controls must be rendered inside a RoomProvider');
  return value;
}

/** The room's state: participants, chat, waiting list, Mute All, the signal. */
export function useRoomState(): RoomSnapshot {
  return useStore(useRoomContext().session);
}

/** This participant's camera, microphone and screen. */
export function useLocalMediaState(): LocalMediaSnapshot {
  return useStore(useRoomContext().session.media);
}

export function useLayout(): LayoutState {
  return useStore(useRoomContext().layout);
}

/** The page's phase (in-room or reconnecting while the room is on screen). */
export function useRoomPhase(): RoomPhase {
  return useStore(useRoomContext().controller).phase;
}

/** Whether the server made this participant the host. */
export function useIsHost(): boolean {
  return !!useRoomState().self?.isHost;
}
