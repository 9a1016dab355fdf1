import { AI_FEATURES, FREE_TIER, PRO_PLAN } from '@parley/protocol/constants';
import { ArrowLeft, Info, LogIn } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useIsAvailable } from '@/components/ui/coming-soon';
import { Input, Label } from '@/components/ui/input';
import { Page } from '@/components/ui/page';
import { Skeleton, Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { useUser } from '@/features/auth/api';
import { ApiError } from '@/lib/api';
import { ActiveSubscription } from './ActiveSubscription';
import { useCreateSubscription, usePaymentsConfig, useSubscriptionStatusByEmail } from './api';
import { PlanCard } from './PlanCard';
import { SandboxCardForm } from './SandboxCardForm';
import { usePaymentOutcome } from './usePaymentOutcome';

const StripePaymentForm = lazy(() => import('./StripePaymentForm'));

/** Subscribe (spec §2): plan card + email form, then the payment form, or the active-subscription view. */
export function SubscribePage() {
  const isAvailable = useIsAvailable();
  const { user, isLoading: userLoading } = useUser();
  const { data: status, isLoading: statusLoading } = useSubscriptionStatusByEmail(user?.email ?? null);
  const [email, setEmail] = useState<string | null>(null);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const shownEmail = email ?? user?.email ?? '';
  const [query] = useSearchParams();
  const toHost = query.get('reason') === 'host';

  if (userLoading || (user && statusLoading)) {
    return (
      <Page title="Upgrade to Pro">
        <Skeleton className="h-96 w-full" />
      </Page>
    );
  }

  if (user && status?.hasSubscription) {
    return (
      <Page title="Your Pro Subscription">
        <ActiveSubscription email={user.email} status={status} />
      </Page>
    );
  }

  return (
    <Page
      title="Upgrade to Pro"
      description={
        isAvailable(...AI_FEATURES)
          ? 'AI transcription, translation and summaries in every meeting, with no time limits.'
          : 'Start and schedule meetings with no time limits. AI transcription, translation and summaries are coming to every meeting.'
      }
    >
      {toHost ? <HostingNeedsPro /> : null}
      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <div className={clientSecret ? 'order-last lg:order-none' : undefined}>
          <PlanCard />
        </div>
        {clientSecret ? (
          <PaymentStep clientSecret={clientSecret} email={shownEmail} onBack={() => setClientSecret(null)} />
        ) : (
          <EmailStep
            signedIn={!!user}
            email={shownEmail}
            onEmailChange={setEmail}
            onClientSecret={setClientSecret}
          />
        )}
      </div>
    </Page>
  );
}

/**
 * Why someone sent here from Start Instant Meeting (or the landing's Pro card) is here (issue 37
 * item 4): hosting is part of Pro, and what stays free, said plainly instead of an error toast.
 */
function HostingNeedsPro() {
  return (
    <div
      role="note"
      data-testid="hosting-needs-pro"
      className="mb-6 flex items-start gap-3 rounded-xl border border-brand-200 bg-brand-50 p-4 text-sm text-slate-800 dark:border-brand-900 dark:bg-brand-950 dark:text-slate-100"
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600" />
      <div className="grid gap-1">
        <p className="font-semibold">Starting and scheduling meetings is part of Pro.</p>
        <p>
          Joining stays free: anyone can join a meeting from its link with just a name, for{' '}
          {FREE_TIER.freeMinutesPerMeeting} minutes per meeting (no limit when a Pro host covers it). With Pro
          you host your own meetings for ${PRO_PLAN.priceLabel}/{PRO_PLAN.interval}, with no time limit for
          you or your guests.
        </p>
      </div>
    </div>
  );
}

function EmailStep({
  signedIn,
  email,
  onEmailChange,
  onClientSecret,
}: {
  signedIn: boolean;
  email: string;
  onEmailChange: (email: string) => void;
  onClientSecret: (secret: string) => void;
}) {
  const create = useCreateSubscription();

  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate(email.trim(), {
      onSuccess: (res) => {
        if (res.clientSecret) onClientSecret(res.clientSecret);
        else
          toast({
            title: 'Payment Setup Required',
            description: 'Please try again to complete payment setup.',
            variant: 'destructive',
          });
      },
      onError: (err) => {
        console.error('Failed to create the subscription', err);
        toast({
          title: 'Error',
          description: 'Failed to create subscription. Please try again.',
          variant: 'destructive',
        });
      },
    });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Get started</CardTitle>
        <CardDescription>
          Enter the email of your account. You&apos;ll pay ${PRO_PLAN.priceLabel} today, then every{' '}
          {PRO_PLAN.interval}.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="subscribe-email">Email address</Label>
            <Input
              id="subscribe-email"
              type="email"
              required
              autoComplete="email"
              placeholder="you@example.com"
              value={email}
              onChange={(e) => onEmailChange(e.target.value)}
            />
          </div>
          {create.error ? (
            <p role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
              {create.error instanceof ApiError ? create.error.serverMessage : create.error.message}
            </p>
          ) : null}
          {signedIn ? (
            <Button type="submit" size="lg" variant="gradient" disabled={create.isPending}>
              {create.isPending ? <Spinner className="text-white" label="Creating" /> : null}
              Continue to Payment
            </Button>
          ) : (
            <div className="flex flex-col gap-2 rounded-lg bg-slate-50 p-4 text-sm dark:bg-slate-800/60">
              <p>Log in first: your subscription belongs to your account.</p>
              <Button asChild>
                <a href="/api/login">
                  <LogIn /> Login
                </a>
              </Button>
            </div>
          )}
        </form>
      </CardContent>
    </Card>
  );
}

function PaymentStep({
  clientSecret,
  email,
  onBack,
}: {
  clientSecret: string;
  email: string;
  onBack: () => void;
}) {
  const { data: config, isLoading } = usePaymentsConfig();
  const onOutcome = usePaymentOutcome(email);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // On phones the form replaces the email step below the plan: bring it into view.
    const el = ref.current;
    if (el && el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: 'start' });
  }, []);

  return (
    <div ref={ref} className="scroll-mt-20">
      <Card>
        <CardHeader>
          <CardTitle>Payment details</CardTitle>
          <CardDescription>
            {PRO_PLAN.name} · ${PRO_PLAN.priceLabel}/{PRO_PLAN.interval} for {email}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {isLoading || !config ? (
            <Skeleton className="h-48 w-full" />
          ) : config.provider === 'stripe' && config.publishableKey ? (
            <Suspense fallback={<Skeleton className="h-48 w-full" />}>
              <StripePaymentForm
                publishableKey={config.publishableKey}
                clientSecret={clientSecret}
                email={email}
                onOutcome={onOutcome}
              />
            </Suspense>
          ) : (
            <SandboxCardForm clientSecret={clientSecret} onOutcome={onOutcome} />
          )}
          <Button variant="ghost" size="sm" className="self-start" onClick={onBack}>
            <ArrowLeft /> Back
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
