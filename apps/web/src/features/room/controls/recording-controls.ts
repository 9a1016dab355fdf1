import { RECORDING_TEXTS } from '@parley/protocol/texts';
import { useCallback, useState } from 'react';
import { toast } from '@/components/ui/toast-store';
import { useIsHost, useRoomContext, useRoomState } from '../room-context';
import { controlButton } from './button-props';

/**
 * The host's Record / Stop recording. Recording is room state from the server
 * (`recording_state`), so the label is right after a reload. When the meeting cannot be recorded
 * here the button stays focusable but `aria-disabled`, and pressing it (mouse, keyboard or touch)
 * says why instead of a tooltip a phone or keyboard could not reach.
 */
export function useRecordingToggle() {
  const { session } = useRoomContext();
  const { recording } = useRoomState();
  const isHost = useIsHost();
  const [pending, setPending] = useState(false);
  const active = recording?.active === true;
  const available = recording?.available === true;
  const label = active ? RECORDING_TEXTS.stop : RECORDING_TEXTS.start;
  const reason = !active && !available ? (recording?.unavailableReason ?? null) : null;
  const toggle = useCallback(() => {
    if (reason) {
      toast({ title: 'Recording is not available', description: reason });
      return;
    }
    setPending(true);
    void session.setRecording(!active).finally(() => setPending(false));
  }, [session, active, reason]);
  return {
    /** Only the host has the control, once the server has said how the room records. */
    visible: isHost && recording !== null,
    active,
    pending,
    label,
    reason,
    buttonProps: {
      // Record / Stop recording says the state: no pressed state too (see useMicToggle).
      ...controlButton(label, toggle, { disabled: pending }),
      title: reason ?? label,
      'aria-disabled': reason ? true : undefined,
      'aria-description': reason ?? undefined,
    },
  };
}

/** Whether the meeting is being recorded, for everyone's indicator. */
export function useRecordingIndicator() {
  const { recording } = useRoomState();
  return {
    active: recording?.active === true,
    startedAt: recording?.startedAt ?? null,
    /** A limit that is near (the indicator's tooltip; a toast said it when it came). */
    limitNotice: recording?.active ? (recording.limitNotice ?? null) : null,
  };
}
