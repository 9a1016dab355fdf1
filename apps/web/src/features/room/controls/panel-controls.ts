import { AI_FEATURES } from '@parley/protocol/constants';
import { isAvailable } from '@/components/ui/coming-soon';
import { useCallback } from 'react';
import { unreadCount, type PanelId, type RoomDialog } from '../layout';
import { useLayout, useRoomContext, useRoomState } from '../room-context';
import { controlButton } from './button-props';

const PANEL_BUTTONS = {
  participants: { label: 'People', shortcut: 'P' },
  chat: { label: 'Chat', shortcut: 'C' },
  tools: { label: 'AI Tools', shortcut: 'T' },
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
  // The AI tab points to the tools, so the AI Tools button lights for both.
  const open = layout.panel === id || (id === 'tools' && layout.panel === 'ai');
  const toggle = useCallback(() => togglePanel(id), [togglePanel, id]);
  const { label, shortcut } = PANEL_BUTTONS[id];
  return {
    open,
    unread: id === 'chat' ? unreadCount(layout, chat.length) : 0,
    toggle,
    buttonProps: controlButton(label, toggle, { shortcut, pressed: layout.panel === id }),
  };
}

/**
 * Start AI / Stop AI: without Pro it opens the upgrade dialog (spec §2), with Pro the tools. While
 * the AI features are not built (FEATURE_AVAILABILITY) it only opens the tools, which say so: the
 * button never claims that AI is running.
 */
export function useAiToggle() {
  const { layout, isPro } = useRoomContext();
  const { aiOn } = useLayout();
  const { set: setPanel } = usePanels();
  const toggle = useCallback(() => {
    if (!isPro) {
      layout.setDialog('upgrade');
      return;
    }
    if (!isAvailable(...AI_FEATURES)) {
      setPanel('tools');
      return;
    }
    const on = !layout.getSnapshot().aiOn;
    layout.setAi(on);
    if (on) setPanel('tools');
  }, [isPro, layout, setPanel]);
  return {
    on: aiOn,
    label: aiOn ? 'Stop AI' : 'Start AI',
    toggle,
    buttonProps: { type: 'button' as const, onClick: toggle, 'aria-pressed': aiOn },
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
