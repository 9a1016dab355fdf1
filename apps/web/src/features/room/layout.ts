import { Store } from '@/lib/store';

/**
 * What the joined room shows around the video (LiveKit's layout context): the side panel, the open
 * dialog, the local AI toggle and how much of the chat has been read. One per RoomView; the control
 * hooks read and change it, so no component passes these down as props.
 */

/** 'collab': the collaboration area (whiteboard and notes, issue 14), shown wider. */
export type PanelId = 'none' | 'participants' | 'chat' | 'ai' | 'tools' | 'collab';
export type RoomDialog = 'none' | 'settings' | 'shortcuts' | 'upgrade';

export interface LayoutState {
  panel: PanelId;
  dialog: RoomDialog;
  /** How many chat messages there were when the chat was last opened or closed. */
  chatRead: number;
}

/** One of none/participants/chat/ai/tools/collab; choosing the active one closes the panel (spec §2). */
export function togglePanel(current: PanelId, clicked: PanelId): PanelId {
  return current === clicked ? 'none' : clicked;
}

export class RoomLayout {
  private readonly store = new Store<LayoutState>({
    panel: 'none',
    dialog: 'none',
    chatRead: 0,
  });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;

  /** Every panel change goes through here, so the chat counts as read when it opens or closes. */
  setPanel(next: PanelId, chatCount: number): void {
    const { panel, chatRead } = this.store.getSnapshot();
    this.store.patch({ panel: next, chatRead: panel === 'chat' || next === 'chat' ? chatCount : chatRead });
  }

  togglePanel(clicked: PanelId, chatCount: number): void {
    this.setPanel(togglePanel(this.store.getSnapshot().panel, clicked), chatCount);
  }

  setDialog(dialog: RoomDialog): void {
    this.store.patch({ dialog });
  }
}

/** Chat messages that arrived since the chat was last open (none while it is open). */
export function unreadCount(layout: LayoutState, chatCount: number): number {
  return layout.panel === 'chat' ? 0 : Math.max(0, chatCount - layout.chatRead);
}
