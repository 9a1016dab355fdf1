import { BILLING_MESSAGES, formatCents } from '@parley/protocol/billing';
import { FREE_TIER } from '@parley/protocol/constants';
import { Clock, Crown, CreditCard, TimerOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { useStore } from '@/lib/use-store';
import type { FreeTimeClient } from './free-time';
import { formatCountdown, freeTimeView } from './free-time';
import { PaymentSetupCard } from './PaymentSetupCard';

/** Whether this tab skipped the payment prompt in this meeting (a reload keeps it skipped). */
const skipKey = (meetingId: string) => `free-time-prompt-skipped-${meetingId}`;
function loadSkipped(meetingId: string): boolean {
  try {
    return sessionStorage.getItem(skipKey(meetingId)) === '1';
  } catch {
    return false;
  }
}
function saveSkipped(meetingId: string): void {
  try {
    sessionStorage.setItem(skipKey(meetingId), '1');
  } catch {
    // storage disabled: the prompt may come back after a reload
  }
}

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

/**
 * The billing overlay (spec §2, §4): the free time left as the server counts it, the upgrade hint
 * at 10 minutes left, the warning style at 5, the payment prompt at 40 minutes (skippable while
 * time remains), the grace countdown at 0 ('Free Time Expired'), and the running overage once a
 * card is saved. Nothing shows for Pro participants or when the host covers the meeting.
 */
export function FreeTimeOverlay({
  clock,
  meetingId,
  joinToken,
  billingEmail,
}: {
  clock: FreeTimeClient;
  meetingId: string;
  joinToken: string;
  billingEmail: string;
}) {
  const snap = useStore(clock);
  const running = !!snap.state && snap.state.mode !== 'unlimited' && snap.state.running;
  const now = useNow(running);
  const view = freeTimeView(snap, now);
  const [skipped, setSkipped] = useState(() => loadSkipped(meetingId));
  const [saved, setSaved] = useState(false);
  if (view.hidden) return null;

  const grace = view.mode === 'grace' && !saved;
  const promptOpen = view.mode === 'free' && view.prompt && !skipped && !saved;
  const skip = () => {
    saveSkipped(meetingId);
    setSkipped(true);
  };
  const card = (
    <PaymentSetupCard
      meetingId={meetingId}
      joinToken={joinToken}
      initialEmail={billingEmail}
      onStarted={() => setSaved(true)}
    />
  );

  return (
    <>
      <div
        className="pointer-events-none fixed inset-x-0 top-14 z-30 flex justify-center px-2"
        data-testid="free-time-overlay"
      >
        <div
          role="status"
          data-state={
            view.mode === 'overage'
              ? 'overage'
              : grace
                ? 'grace'
                : view.warning
                  ? 'warning'
                  : view.upgradeHint
                    ? 'hint'
                    : 'free'
          }
          className={cn(
            'pointer-events-auto flex max-w-full flex-wrap items-center justify-center gap-x-3 gap-y-1 rounded-full border px-4 py-1.5 text-sm shadow-lg backdrop-blur',
            view.mode === 'overage'
              ? 'border-emerald-700 bg-emerald-950/90 text-emerald-100'
              : grace || view.warning
                ? 'border-red-600 bg-red-950/90 text-red-100'
                : view.upgradeHint
                  ? 'border-amber-600 bg-amber-950/90 text-amber-100'
                  : 'border-slate-700 bg-slate-900/90 text-slate-200',
          )}
        >
          {view.mode === 'overage' ? (
            <span className="flex items-center gap-1.5" data-testid="free-time-overage">
              <CreditCard className="size-4" /> Pay as you go: {view.overageMinutes} min ·{' '}
              {formatCents(view.overageCents)}
            </span>
          ) : grace ? (
            <span className="flex items-center gap-1.5 font-semibold">
              <TimerOff className="size-4" /> {BILLING_MESSAGES.expiredTitle} ·{' '}
              <span data-testid="free-time-grace">{formatCountdown(view.graceRemainingMs)}</span>
            </span>
          ) : (
            <span className="flex items-center gap-1.5">
              <Clock className="size-4" /> Free time left{' '}
              <span className="font-mono font-semibold tabular-nums" data-testid="free-time-left">
                {formatCountdown(view.remainingMs)}
              </span>
            </span>
          )}
          {view.upgradeHint && view.mode !== 'overage' ? (
            <Link to="/subscribe" target="_blank" className="flex items-center gap-1 font-medium underline">
              <Crown className="size-3.5" /> Upgrade to Pro for unlimited time
            </Link>
          ) : null}
          {view.mode === 'free' && skipped && view.prompt ? (
            <button type="button" className="font-medium underline" onClick={() => setSkipped(false)}>
              Add a card
            </button>
          ) : null}
        </div>
      </div>

      <Dialog
        open={promptOpen}
        onOpenChange={(open) => {
          if (!open) skip();
        }}
        title="Your free time is almost up"
        description={`${formatCountdown(view.remainingMs)} of your ${FREE_TIER.freeMinutesPerMeeting} free minutes left. Save a card to keep talking at ${FREE_TIER.overageCentsPerMinute} cents per minute, or upgrade to Pro for unlimited time.`}
        data-testid="free-time-prompt"
      >
        <div className="grid gap-4">
          {card}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
            <Button variant="ghost" onClick={skip}>
              Skip for now
            </Button>
            <Button asChild variant="secondary">
              <Link to="/subscribe" target="_blank">
                <Crown /> Upgrade to Pro
              </Link>
            </Button>
          </div>
        </div>
      </Dialog>

      <Dialog
        open={grace}
        onOpenChange={() => undefined}
        hideClose
        onEscapeKeyDown={(e) => e.preventDefault()}
        onPointerDownOutside={(e) => e.preventDefault()}
        title={BILLING_MESSAGES.expiredTitle}
        description={BILLING_MESSAGES.expiredBody(view.graceSeconds)}
        data-testid="free-time-grace-dialog"
        className="border-red-500"
      >
        <div className="grid gap-4">
          <p className="text-center font-mono text-4xl font-bold tabular-nums text-red-600 dark:text-red-400">
            {formatCountdown(view.graceRemainingMs)}
          </p>
          {card}
        </div>
      </Dialog>
    </>
  );
}
