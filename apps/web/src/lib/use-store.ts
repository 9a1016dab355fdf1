import { useSyncExternalStore } from 'react';
import type { Readable } from './store';

/** Reads a store (or any object with getSnapshot/subscribe) and re-renders when it changes. */
export function useStore<T>(store: Readable<T>): T {
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
