import { AI_FEATURES, PRO_PLAN } from '@parley/protocol/constants';
import { Crown, CreditCard } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ComingSoonBadge } from '@/components/ui/coming-soon';
import { Skeleton } from '@/components/ui/spinner';
import { UsageSummary } from '@/features/billing/UsageSummary';
import { useSubscriptionStatus } from '@/features/subscription/api';

function formatDate(iso: string | null | undefined): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d.toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Subscription card (spec §2, §4): Active/Pending with Manage Subscription, or Upgrade to Pro. */
export function SubscriptionCard({ email }: { email: string }) {
  const { data: status, isLoading } = useSubscriptionStatus(email);
  const sub = status?.subscription ?? null;
  const until = formatDate(sub?.currentPeriodEnd);

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <CreditCard className="size-5 text-brand-600" /> Subscription
        </CardTitle>
        <CardDescription>Your plan and billing.</CardDescription>
      </CardHeader>
      <CardContent>
        {isLoading ? (
          <Skeleton className="h-16 w-full" />
        ) : status?.hasSubscription ? (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <div className="flex items-center gap-2">
                <span className="font-semibold">{PRO_PLAN.name}</span>
                <Badge variant={status.isActive ? 'success' : 'warning'} data-testid="subscription-badge">
                  {status.isActive ? 'Active' : 'Pending'}
                </Badge>
              </div>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                ${sub?.amount ?? PRO_PLAN.priceLabel}/{PRO_PLAN.interval}
                {until ? (sub?.cancelAtPeriodEnd ? ` · ends ${until}` : ` · renews ${until}`) : null}
              </p>
            </div>
            <Button asChild variant="secondary">
              <Link to="/subscribe">Manage Subscription</Link>
            </Button>
          </div>
        ) : (
          <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
            <div>
              <p className="font-semibold">No Active Subscription</p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                Pro lets you start and schedule meetings for ${PRO_PLAN.priceLabel}/{PRO_PLAN.interval}.
              </p>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                Also in Pro: live transcription, translation and AI summaries{' '}
                <ComingSoonBadge feature={AI_FEATURES} />
              </p>
            </div>
            <Button asChild variant="gradient">
              <Link to="/subscribe">
                <Crown /> Upgrade to Pro
              </Link>
            </Button>
          </div>
        )}
        <UsageSummary />
      </CardContent>
    </Card>
  );
}
