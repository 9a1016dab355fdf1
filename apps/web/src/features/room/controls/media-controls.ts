import { useCallback } from 'react';
import { toast } from '@/components/ui/toast-store';
import { useLocalMediaState, useRoomContext } from '../room-context';
import { controlButton } from './button-props';

/**
 * The microphone: muted or not (M). Its label says the state (Mute / Unmute), so it does not also
 * report pressed: a screen reader would say both ("Unmute, pressed"), as in useAiToggle.
 */
export function useMicToggle() {
  const { media } = useRoomContext().session;
  const { isMuted } = useLocalMediaState();
  const toggle = useCallback(() => media.setMuted(!media.getSnapshot().isMuted), [media]);
  return {
    muted: isMuted,
    toggle,
    buttonProps: controlButton(isMuted ? 'Unmute' : 'Mute', toggle, { shortcut: 'M' }),
  };
}

/** The camera: on or off (V); the label says which, so no pressed state (see useMicToggle). */
export function useCameraToggle() {
  const { media } = useRoomContext().session;
  const { isVideoOn } = useLocalMediaState();
  const toggle = useCallback(() => media.setVideoOn(!media.getSnapshot().isVideoOn), [media]);
  return {
    videoOn: isVideoOn,
    toggle,
    buttonProps: controlButton(isVideoOn ? 'Turn off camera' : 'Turn on camera', toggle, {
      shortcut: 'V',
    }),
  };
}

function browserCanShareScreen(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    !!navigator.mediaDevices &&
    'getDisplayMedia' in navigator.mediaDevices
  );
}

/**
 * Screen share (S): absent where the browser cannot share; a refused picker is not an error. Share
 * screen / Stop sharing says the state: no pressed state (see useMicToggle).
 */
export function useScreenShareToggle() {
  const { media } = useRoomContext().session;
  const { isScreenSharing } = useLocalMediaState();
  const canShare = browserCanShareScreen();
  const toggle = useCallback(() => {
    if (!browserCanShareScreen()) return;
    if (media.getSnapshot().isScreenSharing) {
      media.stopScreenShare();
      return;
    }
    media.startScreenShare().catch((err: unknown) => {
      if ((err as Error).name !== 'NotAllowedError') {
        toast({
          title: 'Could not share your screen',
          description: (err as Error).message,
          variant: 'destructive',
        });
      }
    });
  }, [media]);
  return {
    canShare,
    sharing: isScreenSharing,
    toggle,
    buttonProps: controlButton(isScreenSharing ? 'Stop sharing' : 'Share screen', toggle, {
      shortcut: 'S',
    }),
  };
}
