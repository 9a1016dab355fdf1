import { BILLING_MESSAGES } from '@parley/protocol/texts';
import { FREE_TIER } from '@parley/protocol/constants';
import { Crown } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import type { FreeTimeClient } from './free-time';
import { formatCountdown } from './free-time';
import { FreeTimeStatusText, freeTimeTone, useFreeTimeView } from './FreeTimeStatus';
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
  panelOpen = false,
}: {
  clock: FreeTimeClient;
  meetingId: string;
  joinToken: string;
  billingEmail: string;
  /** A side panel is open (on a phone it covers the screen and shows its own strip). */
  panelOpen?: boolean;
}) {
  const view = useFreeTimeView(clock);
  const [skipped, setSkipped] = useState(() => loadSkipped(meetingId));
  const [saved, setSaved] = useState(false);
  if (view.hidden) return null;

  const grace = view.mode === 'grace' && !saved;
  const promptOpen = view.mode === 'free' && view.prompt && !skipped && !saved;
  const tone = freeTimeTone(view, grace);
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
      {/* A row of its own under the room's header, not a layer over it: floating, the pill sat on
          the side panel's tabs (issue 37 item 8). */}
      <div
        className={cn(
          'flex shrink-0 justify-center px-2 pb-2',
          // On a phone an open panel covers the screen and shows the clock under its tabs.
          panelOpen && 'max-md:hidden',
        )}
        data-testid="free-time-overlay"
      >
        <div
          role="status"
          data-state={tone.state}
          className={cn(
            'flex max-w-full flex-wrap items-center justify-center gap-x-3 gap-y-1 rounded-full border px-4 py-1 text-sm',
            tone.className,
          )}
        >
          <FreeTimeStatusText view={view} grace={grace} />
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
