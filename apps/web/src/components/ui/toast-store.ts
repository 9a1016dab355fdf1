import { TOAST_DEFAULTS } from '@parley/protocol/constants';
import { Store } from '@/lib/store';
import { useStore } from '@/lib/use-store';

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastItem {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
  open: boolean;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
  duration?: number;
}

const store = new Store<ToastItem[]>([]);
let nextId = 1;

/**
 * The one toast helper (spec §9: 5000 ms, one visible at a time). A new toast replaces the one on
 * screen, as the spec's toast queue with a limit of 1 does.
 */
export function toast(input: ToastInput): number {
  const id = nextId++;
  const item: ToastItem = {
    id,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    duration: input.duration ?? TOAST_DEFAULTS.durationMs,
    open: true,
  };
  store.set([item, ...store.getSnapshot()].slice(0, TOAST_DEFAULTS.limit));
  return id;
}

export function dismissToast(id: number): void {
  store.set(store.getSnapshot().map((t) => (t.id === id ? { ...t, open: false } : t)));
  setTimeout(() => store.set(store.getSnapshot().filter((t) => t.id !== id)), 200);
}

export function useToasts(): ToastItem[] {
  return useStore(store);
}
