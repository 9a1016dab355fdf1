import { useCallback, useState } from 'react';
import { useIsHost, useRoomContext } from '../room-context';
import { controlButton } from './button-props';
import { useRoomDialog } from './panel-controls';

/**
 * Leave meeting. A participant leaves at once: the controller releases everything and shows 'You
 * left the meeting'. The host is asked first (the 'leave' dialog): leave, and the meeting goes on,
 * or end it for everyone (issue 37 item 8), as Zoom's and Meet's hosts are.
 */
export function useLeave() {
  const { controller } = useRoomContext();
  const isHost = useIsHost();
  const dialog = useRoomDialog('leave');
  const leave = useCallback(() => controller.leave(), [controller]);
  const click = isHost ? dialog.show : leave;
  return { leave, buttonProps: controlButton('Leave meeting', click) };
}

/**
 * The host's Leave dialog: End meeting for everyone sends `end_meeting`; the server then closes
 * every socket (this one too) and everyone sees 'This meeting has ended'. A refusal is a toast.
 */
export function useLeaveDialog() {
  const { controller, session } = useRoomContext();
  const dialog = useRoomDialog('leave');
  const [ending, setEnding] = useState(false);
  const leave = useCallback(() => controller.leave(), [controller]);
  const endForEveryone = useCallback(() => {
    setEnding(true);
    void session.endForEveryone().finally(() => setEnding(false));
  }, [session]);
  return { open: dialog.open, onOpenChange: dialog.onOpenChange, leave, endForEveryone, ending };
}
