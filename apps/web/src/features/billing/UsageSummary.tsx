import { formatCents } from '@parley/protocol/texts';
import { FREE_TIER } from '@parley/protocol/constants';
import { CreditCard } from 'lucide-react';
import { useBillingUsage } from './api';

/**
 * Pay-as-you-go in the Settings subscription card: the saved card and the overage minutes the
 * usage ledger recorded, per meeting. Nothing is shown before a card was saved.
 */
export function UsageSummary() {
  const { data } = useBillingUsage();
  if (!data || (!data.hasPaymentMethod && data.totalMinutes === 0)) return null;
  return (
    <section
      aria-label="Pay as you go"
      className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800"
      data-testid="billing-usage"
    >
      <h4 className="flex items-center gap-2 text-sm font-semibold">
        <CreditCard className="size-4 text-brand-600" /> Pay as you go
      </h4>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        {data.card ? `${data.card.brand.toUpperCase()} •••• ${data.card.last4}` : 'Saved card'}
        {data.email ? ` · ${data.email}` : null} · {FREE_TIER.overageCentsPerMinute} cents per minute past the
        free {FREE_TIER.freeMinutesPerMeeting}
      </p>
      <p className="mt-2 text-sm" data-testid="billing-usage-total">
        {data.totalMinutes} {data.totalMinutes === 1 ? 'minute' : 'minutes'} charged ·{' '}
        {formatCents(data.totalCents)}
      </p>
      {data.meetings.length > 0 ? (
        <ul className="mt-2 grid gap-1 text-sm text-slate-600 dark:text-slate-400">
          {data.meetings.map((m) => (
            <li key={m.meetingId} className="flex justify-between gap-4">
              <span className="font-mono">{m.meetingId}</span>
              <span>
                {m.minutes} min · {formatCents(m.amountCents)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
