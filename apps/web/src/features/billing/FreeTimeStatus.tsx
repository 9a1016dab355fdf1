import { BILLING_MESSAGES, formatCents } from '@parley/protocol/texts';
import { Clock, CreditCard, TimerOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import { useStore } from '@/lib/use-store';
import { formatCountdown, freeTimeView, type FreeTimeClient, type FreeTimeView } from './free-time';

/** Re-renders every quarter second while `on` (the countdown). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setNow(performance.now()), 250);
    return () => clearInterval(id);
  }, [on]);
  return now;
}

/** What the server last said of this participant's clock, counted down between its ticks. */
export function useFreeTimeView(clock: FreeTimeClient): FreeTimeView {
  const snap = useStore(clock);
  const running = !!snap.state && snap.state.mode !== 'unlimited' && snap.state.running;
  return freeTimeView(snap, useNow(running));
}

/** The clock's style: paying (green), grace or ≤ 5 minutes (red), ≤ 10 (amber), else quiet. */
export function freeTimeTone(view: FreeTimeView, grace: boolean) {
  if (view.mode === 'overage') {
    return { state: 'overage', className: 'border-emerald-700 bg-emerald-950/90 text-emerald-100' };
  }
  if (grace || view.warning) {
    return { state: grace ? 'grace' : 'warning', className: 'border-red-600 bg-red-950/90 text-red-100' };
  }
  if (view.upgradeHint) {
    return { state: 'hint', className: 'border-amber-600 bg-amber-950/90 text-amber-100' };
  }
  return { state: 'free', className: 'border-slate-700 bg-slate-900/90 text-slate-200' };
}

/** The clock in words: pay-as-you-go minutes, the grace countdown, or the free time left. */
export function FreeTimeStatusText({
  view,
  grace,
  testIds = true,
}: {
  view: FreeTimeView;
  grace: boolean;
  /** The floating pill carries the test ids; a second copy on screen must not. */
  testIds?: boolean;
}) {
  const id = (name: string) => (testIds ? name : undefined);
  if (view.mode === 'overage') {
    return (
      <span className="flex items-center gap-1.5" data-testid={id('free-time-overage')}>
        <CreditCard className="size-4" /> Pay as you go: {view.overageMinutes} min ·{' '}
        {formatCents(view.overageCents)}
      </span>
    );
  }
  if (grace) {
    return (
      <span className="flex items-center gap-1.5 font-semibold">
        <TimerOff className="size-4" /> {BILLING_MESSAGES.expiredTitle} ·{' '}
        <span data-testid={id('free-time-grace')}>{formatCountdown(view.graceRemainingMs)}</span>
      </span>
    );
  }
  return (
    <span className="flex items-center gap-1.5">
      <Clock className="size-4" /> Free time left{' '}
      <span className="font-mono font-semibold tabular-nums" data-testid={id('free-time-left')}>
        {formatCountdown(view.remainingMs)}
      </span>
    </span>
  );
}

/**
 * The clock as a strip under the side panel's tabs, on phones only: there the panel covers the
 * whole screen, the pill's row under the room's header with it.
 */
export function FreeTimeStrip({ clock }: { clock: FreeTimeClient }) {
  const view = useFreeTimeView(clock);
  if (view.hidden) return null;
  const tone = freeTimeTone(view, view.mode === 'grace');
  return (
    <div
      role="status"
      data-state={tone.state}
      className={cn('flex justify-center border-b px-3 py-1 text-xs md:hidden', tone.className)}
    >
      <FreeTimeStatusText view={view} grace={view.mode === 'grace'} testIds={false} />
    </div>
  );
}
