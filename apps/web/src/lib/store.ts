/**
 * The one small observable value of the web app: `getSnapshot` and `subscribe` are the shape
 * React's useSyncExternalStore reads (see `useStore`), `set` / `patch` replace the value and tell
 * every listener. Classes that own connections or media (the room controller and session, the
 * signal client, local media) keep one of these privately and hand out `getSnapshot` and
 * `subscribe`, so their objects never enter React state and only they can change what they show.
 */

export interface Readable<T> {
  /** The current value; the same object until it changes (React compares it with Object.is). */
  readonly getSnapshot: () => T;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  readonly subscribe: (listener: () => void) => () => void;
}

export class Store<T> implements Readable<T> {
  private value: T;
  private readonly listeners = new Set<() => void>();

  constructor(initial: T) {
    this.value = initial;
  }

  readonly getSnapshot = (): T => this.value;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Replaces the value; nothing happens when it is the same object. */
  set(next: T): void {
    if (Object.is(next, this.value)) return;
    this.value = next;
    // A copy: a listener may unsubscribe (or subscribe another) while we call them.
    for (const l of [...this.listeners]) l();
  }

  /** Merges fields into an object value (a new object, so React sees the change). */
  patch(fields: Partial<T>): void {
    this.set({ ...this.value, ...fields });
  }
}
