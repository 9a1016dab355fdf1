import { Store } from '@/lib/store';

/**
 * What the joined room shows around the video (LiveKit's layout context): the side panel, the open
 * dialog, the local AI toggle and how much of the chat has been read. One per RoomView; the control
 * hooks read and change it, so no component passes these down as props.
 */

/**
 * 'collab': the collaboration area (whiteboard and notes, issue 14), shown wider. 'tools': the AI
 * tab (Meeting Tools); the spec's separate AI tab only pointed to it, so it is one door (issue 37).
 */
export type PanelId = 'none' | 'participants' | 'chat' | 'tools' | 'collab';
/** 'leave': the host's Leave (leave, or end the meeting for everyone). */
export type RoomDialog = 'none' | 'settings' | 'shortcuts' | 'upgrade' | 'leave';

export interface LayoutState {
  panel: PanelId;
  dialog: RoomDialog;
  /** How many chat messages there were when the chat was last opened or closed. */
  chatRead: number;
}

/** One of none/participants/chat/tools/collab; choosing the active one closes the panel (spec §2). */
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

/**
 * The speaker layout of a room on the SFU: the active speaker on the stage (large), everyone
 * else as thumbnails, a page at a time. Only the stage and the page's thumbnails get video (the
 * page asks the SFU for those: `sfu_view`); participants on other pages are heard, not seen.
 */
export interface SpeakerLayout {
  /** The remote participant on the stage; null when there is nobody else. */
  stage: string | null;
  /** The remote participants on the current page of thumbnails (the stage's not among them). */
  thumbnails: string[];
  /** The remote participants on other pages: audio only. */
  offPage: string[];
  /** The current page (from 0, clamped) and how many there are (at least 1). */
  page: number;
  pages: number;
}

/**
 * `ids`: the remote participants in join order. The stage is the active speaker when it is one of
 * them; otherwise (no one yet, or this participant itself speaking) it stays on whoever it showed
 * before (`previousStage`), or the first participant.
 */
export function speakerLayout(
  ids: string[],
  activeSpeaker: string | null,
  previousStage: string | null,
  page: number,
  perPage: number,
): SpeakerLayout {
  const stage =
    activeSpeaker && ids.includes(activeSpeaker)
      ? activeSpeaker
      : previousStage && ids.includes(previousStage)
        ? previousStage
        : (ids[0] ?? null);
  const rest = ids.filter((id) => id !== stage);
  const pages = Math.max(1, Math.ceil(rest.length / perPage));
  const current = Math.min(Math.max(0, page), pages - 1);
  const thumbnails = rest.slice(current * perPage, (current + 1) * perPage);
  return {
    stage,
    thumbnails,
    offPage: rest.filter((id) => !thumbnails.includes(id)),
    page: current,
    pages,
  };
}
