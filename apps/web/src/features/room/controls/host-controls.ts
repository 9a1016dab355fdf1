import { useCallback, useState } from 'react';
import { useIsHost, useRoomContext, useRoomState } from '../room-context';

/**
 * The host's Mute All / Unmute All. The label follows the room's state from the server
 * (`allMuted`), so it reads Unmute All after a reload too; the button waits for the answer.
 */
export function useMuteAllToggle() {
  const { session } = useRoomContext();
  const { allMuted } = useRoomState();
  const isHost = useIsHost();
  const [pending, setPending] = useState(false);
  const toggle = useCallback(() => {
    setPending(true);
    void session.muteAll(!session.getSnapshot().allMuted).finally(() => setPending(false));
  }, [session]);
  return {
    /** Only the host has the control (spec §6). */
    visible: isHost,
    allMuted,
    pending,
    label: allMuted ? 'Unmute All' : 'Mute All',
    toggle,
    buttonProps: { type: 'button' as const, onClick: toggle, disabled: pending },
  };
}

/** The host's per-participant controls in the people list: mute (or ask to unmute) and remove. */
export function useModeration() {
  const { session } = useRoomContext();
  const isHost = useIsHost();
  return {
    canModerate: isHost,
    setMuted: (id: string, muted: boolean) => void session.muteParticipant(id, muted),
    /** After the host confirmed (the People tab's in-app dialog, never the browser's confirm). */
    remove: (id: string) => void session.removeParticipant(id),
    admit: (id: string) => void session.admit(id),
    deny: (id: string) => void session.deny(id),
    allowBack: (id: string) => void session.allowRejoin(id),
  };
}
