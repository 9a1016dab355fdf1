import { useCallback } from 'react';
import { unreadCount, type PanelId, type RoomDialog } from '../layout';
import { useLayout, useRoomContext, useRoomState } from '../room-context';
import { useTranscriptionConsent, useTranscriptionToggle } from '../ai/hooks';
import { TRANSCRIPTION_TEXTS } from '@parley/protocol/texts';
import { controlButton } from './button-props';

const PANEL_BUTTONS = {
  participants: { label: 'People', shortcut: 'P' },
  chat: { label: 'Chat', shortcut: 'C' },
  tools: { label: 'AI Tools', shortcut: 'T' },
  collab: { label: 'Collaborate', shortcut: undefined },
} as const;

/** Opens and closes the side panel; the one in use has to be chosen again to close (spec §2). */
export function usePanels() {
  const { layout, session } = useRoomContext();
  const { panel } = useLayout();
  const set = useCallback(
    (next: PanelId) => layout.setPanel(next, session.getSnapshot().chat.length),
    [layout, session],
  );
  const toggle = useCallback(
    (id: PanelId) => layout.togglePanel(id, session.getSnapshot().chat.length),
    [layout, session],
  );
  return { panel, set, toggle };
}

/** A control-bar button for one panel; the chat's also counts unread messages. */
export function usePanelToggle(id: keyof typeof PANEL_BUTTONS) {
  const { toggle: togglePanel } = usePanels();
  const layout = useLayout();
  const { chat } = useRoomState();
  const open = layout.panel === id;
  const toggle = useCallback(() => togglePanel(id), [togglePanel, id]);
  const { label, shortcut } = PANEL_BUTTONS[id];
  return {
    open,
    unread: id === 'chat' ? unreadCount(layout, chat.length) : 0,
    toggle,
    buttonProps: controlButton(label, toggle, { shortcut, pressed: open }),
  };
}

/**
 * Start AI / Stop AI: the meeting's live transcription (room state). Without Pro it opens the
 * upgrade dialog (spec §2); starting also opens the tools, where the transcripts appear. While it
 * is on, only a host and whoever started it see Stop AI; everyone else's button is their own
 * answer: "Stop transcribing me", or "Allow transcription" once declined. The label says the
 * state, so the button does not also report pressed (a screen reader would say both).
 */
export function useAiToggle() {
  const { on, busy, canStop, toggle: toggleTranscription } = useTranscriptionToggle();
  const consent = useTranscriptionConsent();
  const { isPro } = useRoomContext();
  const { set: setPanel } = usePanels();
  const ownAnswer = on && !canStop;
  const toggle = useCallback(() => {
    if (ownAnswer) {
      if (consent.declined) consent.allow();
      else consent.decline();
      return;
    }
    if (!on && isPro) setPanel('tools');
    void toggleTranscription();
  }, [on, ownAnswer, consent, isPro, setPanel, toggleTranscription]);
  const label = !on
    ? 'Start AI'
    : canStop
      ? 'Stop AI'
      : consent.declined
        ? TRANSCRIPTION_TEXTS.allow
        : TRANSCRIPTION_TEXTS.declineLater;
  return {
    on,
    label,
    toggle,
    buttonProps: {
      type: 'button' as const,
      onClick: toggle,
      disabled: ownAnswer ? consent.answering : busy,
    },
  };
}

/** One of the room's dialogs: whether it is open, and the Radix-style onOpenChange. */
export function useRoomDialog(dialog: Exclude<RoomDialog, 'none'>) {
  const { layout } = useRoomContext();
  const open = useLayout().dialog === dialog;
  const onOpenChange = useCallback(
    (o: boolean) => {
      if (o) layout.setDialog(dialog);
      else if (layout.getSnapshot().dialog === dialog) layout.setDialog('none');
    },
    [layout, dialog],
  );
  return { open, onOpenChange, show: () => onOpenChange(true) };
}
