import { PRO_PLAN } from '@parley/protocol/constants';
import type { SubscriptionStatus } from '@parley/protocol';
import { CalendarClock, Crown, Video } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { useCancelSubscription, useReactivateSubscription } from './api';

export function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString(undefined, { dateStyle: 'long' });
}

/**
 * The badge of a running subscription. 'Active' needs the server's isActive: a past_due
 * subscription still runs (it can be cancelled) but gives no Pro until it is paid.
 */
export function subscriptionBadge(status: SubscriptionStatus): {
  label: string;
  variant: 'success' | 'warning' | 'danger';
} {
  if (!status.isActive)
    return status.subscription?.status === 'past_due'
      ? { label: 'Payment overdue', variant: 'danger' }
      : { label: 'Pending', variant: 'warning' };
  if (status.subscription?.cancelAtPeriodEnd) return { label: 'Ends at period end', variant: 'warning' };
  return { label: 'Active', variant: 'success' };
}

/** The active-subscription view (spec §2): Start a Meeting, and Cancel or Reactivate. */
export function ActiveSubscription({ email, status }: { email: string; status: SubscriptionStatus }) {
  const cancel = useCancelSubscription();
  const reactivate = useReactivateSubscription();
  const sub = status.subscription;
  const endsAtPeriodEnd = !!sub?.cancelAtPeriodEnd;
  const periodEnd = formatDate(sub?.currentPeriodEnd);
  const badge = subscriptionBadge(status);

  const onCancel = () =>
    cancel.mutate(email, {
      onSuccess: () =>
        toast({
          title: 'Subscription Cancelled',
          description: 'Your subscription will end at the current billing period.',
          variant: 'success',
        }),
      onError: () =>
        toast({
          title: 'Error',
          description: 'Failed to cancel subscription. Please try again.',
          variant: 'destructive',
        }),
    });
  const onReactivate = () =>
    reactivate.mutate(email, {
      onSuccess: () => toast({ title: 'Subscription Reactivated', variant: 'success' }),
      onError: () =>
        toast({
          title: 'Error',
          description: 'Failed to reactivate subscription. Please try again.',
          variant: 'destructive',
        }),
    });

  return (
    <Card className="mx-auto w-full max-w-2xl" data-testid="active-subscription">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle className="flex items-center gap-2">
            <Crown className="size-5 text-amber-500" /> You&apos;re on the {PRO_PLAN.name}
          </CardTitle>
          <Badge variant={badge.variant} data-testid="subscription-state">
            {badge.label}
          </Badge>
        </div>
        <CardDescription>
          ${sub?.amount ?? PRO_PLAN.priceLabel}/{PRO_PLAN.interval}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6">
        <p className="flex items-start gap-2 text-sm text-slate-700 dark:text-slate-300">
          <CalendarClock className="mt-0.5 size-4 shrink-0 text-brand-600" />
          {!status.isActive
            ? sub?.status === 'past_due'
              ? 'The last payment for your subscription did not go through. Pro is paused until it is paid.'
              : 'Your payment is being processed. Pro turns on as soon as it completes.'
            : endsAtPeriodEnd
              ? `Your subscription is cancelled and ends on ${periodEnd ?? 'the end of the billing period'}. Pro stays on until then.`
              : `Your subscription renews on ${periodEnd ?? 'the end of the billing period'} (${status.daysUntilExpiry} days left in this period).`}
        </p>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button asChild size="lg" variant="gradient">
            <Link to="/">
              <Video /> Start a Meeting
            </Link>
          </Button>
          {endsAtPeriodEnd ? (
            <Button size="lg" variant="secondary" onClick={onReactivate} disabled={reactivate.isPending}>
              {reactivate.isPending ? <Spinner label="Reactivating" /> : null}
              Reactivate Subscription
            </Button>
          ) : (
            <Button size="lg" variant="secondary" onClick={onCancel} disabled={cancel.isPending}>
              {cancel.isPending ? <Spinner label="Cancelling" /> : null}
              Cancel Subscription
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}
