import type { OrderedExcalidrawElement } from '@excalidraw/excalidraw/element/types';
import type * as Y from 'yjs';

/** An element as the shared map keeps it (a plain JSON copy of Excalidraw's element). */
export type SharedElement = Pick<OrderedExcalidrawElement, 'id' | 'version' | 'versionNonce'> &
  Record<string, unknown>;

/**
 * Whether this side's element should replace what the shared map holds: a newer version, or the
 * same version with the lower versionNonce (Excalidraw's own tie-break in reconcileElements, so
 * the map and every scene settle on the same element after concurrent edits).
 */
export function wins(local: SharedElement, shared: SharedElement | undefined): boolean {
  if (!shared) return true;
  if (local.version !== shared.version) return local.version > shared.version;
  return local.versionNonce !== shared.versionNonce && local.versionNonce < shared.versionNonce;
}

/**
 * Writes the scene's changed elements into the shared map (deleted ones stay, flagged
 * `isDeleted`, as Excalidraw keeps them, so a deletion reaches the others). Answers how many
 * changed.
 */
export function writeScene(
  map: Y.Map<SharedElement>,
  elements: readonly SharedElement[],
  transact: (fn: () => void) => void,
): number {
  const changed = elements.filter((el) => wins(el, map.get(el.id)));
  if (changed.length) {
    transact(() => {
      for (const el of changed) map.set(el.id, { ...el });
    });
  }
  return changed.length;
}

/** A stable colour for a participant's cursor. */
export function colorFor(id: string): string {
  const palette = ['#e03131', '#2f9e44', '#1971c2', '#f08c00', '#9c36b5', '#0c8599', '#e8590c', '#5c940d'];
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  return palette[h % palette.length]!;
}
