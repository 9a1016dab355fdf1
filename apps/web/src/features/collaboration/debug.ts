import type { CollabClient } from './collab-client';
import type { SharedElement } from './whiteboard-sync';

/**
 * A read-only handle on the meeting's collaboration document for browser tests and people
 * diagnosing from the devtools console: `window.__parleyCollab`.
 *
 *   window.__parleyCollab.elements()  → the whiteboard's live elements: [{id, type, version}]
 *   window.__parleyCollab.notes()     → the notes as plain text
 *   window.__parleyCollab.status()    → 'connecting' | 'synced' | 'offline'
 */
export interface CollabDebugHandle {
  elements(): { id: string; type: string; version: number }[];
  notes(): string;
  status(): string;
}

declare global {
  interface Window {
    __parleyCollab?: CollabDebugHandle;
  }
}

export function installCollabDebug(client: CollabClient): () => void {
  const handle: CollabDebugHandle = {
    elements: () =>
      [...client.doc.getMap<SharedElement>('whiteboard').values()]
        .filter((e) => !e.isDeleted)
        .map((e) => ({ id: e.id, type: String(e.type), version: e.version }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    notes: () => client.doc.getXmlFragment('notes').toDOM().textContent ?? '',
    status: () => client.getSnapshot().status,
  };
  window.__parleyCollab = handle;
  return () => {
    if (window.__parleyCollab === handle) delete window.__parleyCollab;
  };
}
