import type { FreeTimeState } from '@parley/protocol/billing';
import type { ServerMessageOf } from '@parley/protocol/ws';
import { Store } from '@/lib/store';

/**
 * This participant's free-time clock as the server last told it (`free_time`), and when that
 * arrived: the overlay counts down from it between the server's messages, and changes phase
 * (prompt, warning, grace, removal) only when the server says so. The server is the authority.
 */
export interface FreeTimeSnapshot {
  state: FreeTimeState | null;
  /** performance.now() when `state` arrived. */
  receivedAt: number;
}

export interface FreeTimeSource {
  on(type: 'free_time', handler: (m: ServerMessageOf<'free_time'>) => void): () => void;
}

export class FreeTimeClient {
  private readonly store = new Store<FreeTimeSnapshot>({ state: null, receivedAt: 0 });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;
  private readonly off: () => void;

  constructor(signal: FreeTimeSource, now: () => number = () => performance.now()) {
    this.off = signal.on('free_time', (m) => this.store.set({ state: m.freeTime, receivedAt: now() }));
  }

  dispose(): void {
    this.off();
  }
}

/** What the overlay shows at a moment: pure, from the server's state and the time since it came. */
export interface FreeTimeView {
  /** Nothing is shown (Pro, a covered meeting, or no state yet). */
  hidden: boolean;
  mode: FreeTimeState['mode'] | null;
  /** Free time left, counted down locally from the server's figure (ms). */
  remainingMs: number;
  /** Grace left (ms), while in grace. */
  graceRemainingMs: number;
  prompt: boolean;
  warning: boolean;
  upgradeHint: boolean;
  overageMinutes: number;
  overageCents: number;
  graceSeconds: number;
}

export function freeTimeView(snap: FreeTimeSnapshot, now: number): FreeTimeView {
  const s = snap.state;
  if (!s || s.mode === 'unlimited') {
    return {
      hidden: true,
      mode: s?.mode ?? null,
      remainingMs: 0,
      graceRemainingMs: 0,
      prompt: false,
      warning: false,
      upgradeHint: false,
      overageMinutes: 0,
      overageCents: 0,
      graceSeconds: 30,
    };
  }
  const since = s.running ? Math.max(0, now - snap.receivedAt) : 0;
  return {
    hidden: false,
    mode: s.mode,
    remainingMs: Math.max(0, s.remainingMs - since),
    graceRemainingMs: Math.max(0, (s.graceRemainingMs ?? 0) - since),
    prompt: s.prompt,
    warning: s.warning,
    upgradeHint: s.upgradeHint,
    overageMinutes: s.overageMinutes,
    overageCents: s.overageCents,
    graceSeconds: Math.round(s.graceMs / 1000),
  };
}

/** mm:ss of a duration, rounded up to the second (a countdown never shows 0:00 early). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}
