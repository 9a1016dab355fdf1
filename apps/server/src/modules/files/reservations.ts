/**
 * Quota reserved by uploads in progress, so that bytes are counted before they are written.
 *
 * The quotas used to be checked from the stored rows only: once before the first byte (the
 * meeting had room for one more) and again at the end with the real size. Forty uploads started
 * at once all passed the first check, and each wrote its 23 MB before any row existed: the
 * security review saw 929 MB on disk at once against a 500 MB meeting cap. Now every chunk is
 * reserved before it goes to storage, against what is stored plus what every upload in progress
 * holds, so the bytes on disk never pass a quota, however many uploads run side by side.
 *
 * What is stored comes from the database when an upload opens (`stored`); uploads that finish
 * while it runs are added as `committed`, so a snapshot never misses them. Opening and
 * committing must not interleave (the files service runs both in one queue). Per process: with
 * several instances each keeps its own (docs/security.md).
 */
export interface QuotaScope<E> {
  /** e.g. `meeting:<id>`: uploads to the same scope share its quota. */
  key: string;
  /** What the scope stores now (bytes, or files), from the database. */
  stored: number;
  limit: number;
  /** The refusal when it is full. */
  error: () => E;
}

interface Entry {
  held: number;
  committed: number;
  open: number;
}

export interface Reservation<E> {
  /** Holds `amount` more in every scope, or answers the refusal of the first one it would overfill. */
  take(amount: number): E | null;
  /** The upload is stored (its row exists) with `stored` of what it held (default: all of it). */
  commit(stored?: number): void;
  /** The upload was refused or failed: what it holds is given back. */
  release(): void;
}

export function createReservations() {
  const entries = new Map<string, Entry>();

  return {
    /**
     * Opens a reservation over `scopes`, or answers the refusal of the first scope that has no
     * room for `atLeast` more (nothing is held then).
     */
    open<E>(scopes: QuotaScope<E>[], atLeast: number): { reservation: Reservation<E> } | { refused: E } {
      const opened = scopes.map((scope) => {
        const entry = entries.get(scope.key) ?? { held: 0, committed: 0, open: 0 };
        entries.set(scope.key, entry);
        entry.open += 1;
        // The rows counted in `stored` include every upload committed so far.
        return { scope, entry, base: scope.stored - entry.committed, mine: 0 };
      });
      let closed = false;
      const close = (kept: number | null) => {
        if (closed) return;
        closed = true;
        for (const o of opened) {
          o.entry.held -= o.mine;
          if (kept !== null) o.entry.committed += Math.min(kept, o.mine);
          o.entry.open -= 1;
          if (o.entry.open === 0) entries.delete(o.scope.key);
        }
      };
      const full = (amount: number) =>
        opened.find((o) => o.base + o.entry.committed + o.entry.held + amount > o.scope.limit);
      const reservation: Reservation<E> = {
        take(amount) {
          if (closed) throw new Error('reservation already closed');
          const over = full(amount);
          if (over) return over.scope.error();
          for (const o of opened) {
            o.entry.held += amount;
            o.mine += amount;
          }
          return null;
        },
        commit: (stored) => close(stored ?? Number.POSITIVE_INFINITY),
        release: () => close(null),
      };
      const over = full(atLeast);
      if (over) {
        close(null);
        return { refused: over.scope.error() };
      }
      return { reservation };
    },

    /** What uploads in progress hold in a scope (tests and metrics). */
    held(key: string): number {
      return entries.get(key)?.held ?? 0;
    },
  };
}
export type Reservations = ReturnType<typeof createReservations>;
