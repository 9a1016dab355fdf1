import { TRANSCRIPTION_TEXTS as T } from '@parley/protocol/texts';
import { Captions } from 'lucide-react';
import { Popover } from 'radix-ui';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { useTranscriptionConsent } from './hooks';

/**
 * The transcription notice (issue 34): while transcription is on and this participant has not
 * answered, a card above the controls says so, who turned it on and what is kept, with Continue
 * and Decline. It stays until answered (a reload shows it again: the answer is the server's), and
 * nothing of this microphone is sent before Continue. Not modal: the meeting goes on meanwhile.
 */
export function TranscriptionNotice({ className }: { className?: string }) {
  const { asking, startedBy, answering, allow, decline } = useTranscriptionConsent();
  const titleId = useId();
  const bodyId = useId();
  if (!asking) return null;
  return (
    <section
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="transcription-notice"
      className={cn(
        'pointer-events-auto rounded-xl bg-white p-3 text-slate-900 shadow-xl ring-1 ring-black/10',
        'dark:bg-slate-800 dark:text-slate-50 dark:ring-white/10',
        className,
      )}
    >
      <p id={titleId} role="alert" className="flex items-center gap-2 text-sm font-semibold">
        <Captions aria-hidden className="size-4 shrink-0 text-sky-500" />
        <span className="min-w-0 break-words">{T.noticeTitle}</span>
      </p>
      <p id={bodyId} className="mt-1 text-xs leading-snug text-slate-600 dark:text-slate-300">
        {T.noticeBody(startedBy?.name ?? null)}
      </p>
      <div className="mt-2 flex gap-2">
        <Button size="sm" className="h-9 flex-1 px-4 sm:flex-none" disabled={answering} onClick={allow}>
          {T.continue}
        </Button>
        <Button
          size="sm"
          variant="secondary"
          className="h-9 flex-1 px-4 sm:flex-none"
          disabled={answering}
          onClick={decline}
        >
          {T.decline}
        </Button>
      </div>
    </section>
  );
}

/** What this participant's answer means, in one sentence. */
export function consentSentence(consent: 'allowed' | 'declined' | null): string {
  if (consent === 'allowed') return 'Your microphone is being transcribed.';
  if (consent === 'declined') return T.declinedBody;
  return 'You have not answered yet: your microphone is not transcribed.';
}

/**
 * The persistent badge in the room's header while transcription is on, for everyone (as the
 * recording indicator). It is a button: its popover says what this participant's answer is and
 * lets them change their mind (decline later, or allow again).
 */
export function TranscriptionBadge() {
  const { on, consent, declined, startedBy, answering, allow, decline } = useTranscriptionConsent();
  if (!on) return null;
  const label = declined ? T.badgeDeclined : T.badge;
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <button
          type="button"
          data-testid="transcription-badge"
          aria-label={`${label}: details and your choice`}
          className={cn(
            'flex shrink-0 items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-semibold text-white',
            'focus-visible:outline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-sky-300',
            declined ? 'bg-slate-600 hover:bg-slate-500' : 'bg-sky-600 hover:bg-sky-500',
          )}
        >
          <Captions aria-hidden className="size-3.5" />
          <span className="whitespace-nowrap">{label}</span>
        </button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={8}
          collisionPadding={8}
          aria-label="Live transcription"
          className="z-50 w-[min(22rem,calc(100vw-1rem))] rounded-xl border border-slate-700 bg-slate-900 p-4 text-sm text-slate-100 shadow-xl"
        >
          <p className="font-semibold">{T.noticeTitle}</p>
          <p className="mt-1 text-xs text-slate-400">
            {startedBy ? `Turned on by ${startedBy.name}. ` : ''}Lines are kept for 30 days under each
            speaker’s name.
          </p>
          <p data-testid="transcription-consent-status" className="mt-2 text-xs text-slate-200">
            {consentSentence(consent)}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {consent !== 'allowed' ? (
              <Button size="sm" className="h-9" disabled={answering} onClick={allow}>
                {consent === null ? T.continue : T.allow}
              </Button>
            ) : null}
            {consent !== 'declined' ? (
              <Button size="sm" variant="secondary" className="h-9" disabled={answering} onClick={decline}>
                {consent === null ? T.decline : T.declineLater}
              </Button>
            ) : null}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
