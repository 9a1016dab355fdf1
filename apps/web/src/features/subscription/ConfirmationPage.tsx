import { AI_FEATURES, PRO_PLAN, type Feature } from '@parley/protocol/constants';
import {
  AlertTriangle,
  Calendar,
  CheckCircle2,
  Clock,
  Crown,
  Languages,
  Mic,
  RefreshCw,
  Sparkles,
  Video,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { ComingSoonBadge, useIsAvailable } from '@/components/ui/coming-soon';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/features/auth/api';
import { ApiError } from '@/lib/api';
import { useConfirmSubscription, useSubscriptionStatusByEmail } from './api';
import { confirmModeState, statusModeState, type ConfirmationState } from './confirmation-state';
import { AiInDevelopmentNote } from './pro-features';

const AI_FEATURE_LINES: { icon: LucideIcon; text: string; feature: Feature }[] = [
  { icon: Mic, text: 'Live transcription for every speaker', feature: 'transcription' },
  { icon: Languages, text: 'Live translation with cultural context', feature: 'translation' },
  { icon: Sparkles, text: 'Meeting summaries with action items and decisions', feature: 'summaries' },
];

function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const body = err.body as { message?: unknown; error?: unknown } | null;
    if (body && (typeof body.error === 'string' || typeof body.message === 'string'))
      return err.serverMessage;
    return fallback;
  }
  if (err instanceof TypeError) return 'Network error occurred';
  return fallback;
}

/**
 * Subscription confirmation (spec §2, §4): `sessionId` is the subscription id (`sub_…`), which the
 * server re-reads from the payments provider; with `?email=` it checks that email's status instead.
 */
export function ConfirmationPage() {
  const isAvailable = useIsAvailable();
  const { sessionId = '' } = useParams();
  const [params] = useSearchParams();
  const email = params.get('email');
  const statusMode = !!email;
  const { user } = useUser();

  const confirm = useConfirmSubscription(!statusMode && sessionId ? sessionId : null);
  const status = useSubscriptionStatusByEmail(statusMode ? email : null, { throwOnError: true });

  let state: ConfirmationState;
  if (!sessionId && !email) {
    state = { kind: 'error', message: 'Invalid confirmation link' };
  } else if (statusMode) {
    if (!email.includes('@')) state = { kind: 'error', message: 'Invalid confirmation link' };
    else if (status.isLoading) state = { kind: 'loading' };
    else if (status.error)
      state = { kind: 'error', message: errorMessage(status.error, 'Failed to confirm subscription status') };
    else state = statusModeState(status.data);
  } else if (confirm.isLoading) {
    state = { kind: 'loading' };
  } else if (confirm.error) {
    state = { kind: 'error', message: errorMessage(confirm.error, 'Failed to confirm subscription') };
  } else {
    state = confirmModeState(confirm.data);
  }

  if (state.kind === 'loading') {
    return (
      <Page className="max-w-2xl">
        <Card>
          <CardContent className="flex flex-col items-center gap-4 p-10 text-center">
            <Spinner className="size-8" label="Confirming" />
            <p className="text-lg font-medium">Confirming your subscription...</p>
          </CardContent>
        </Card>
      </Page>
    );
  }

  if (state.kind === 'error') {
    return (
      <Page className="max-w-2xl">
        <Card className="border-red-200 dark:border-red-900" data-testid="confirmation-error">
          <CardContent className="flex flex-col items-center gap-4 p-10 text-center">
            <AlertTriangle className="size-10 text-red-600" />
            <h1 className="text-2xl font-bold">Subscription Error</h1>
            <p className="text-slate-600 dark:text-slate-400">{state.message}</p>
            <Button asChild>
              <Link to="/subscribe">Try Again</Link>
            </Button>
          </CardContent>
        </Card>
      </Page>
    );
  }

  if (state.kind === 'pending') {
    const overdue = state.status === 'past_due';
    const checking = status.isFetching || confirm.isFetching;
    return (
      <Page className="max-w-2xl">
        <Card data-testid="confirmation-pending">
          <CardContent className="flex flex-col items-center gap-4 p-10 text-center">
            <Clock className="size-10 text-amber-500" />
            <h1 className="text-2xl font-bold">{overdue ? 'Payment overdue' : 'Payment processing'}</h1>
            <p className="text-slate-600 dark:text-slate-400">
              {overdue
                ? 'The last payment for your subscription did not go through. Pro is paused until it is paid.'
                : 'Your payment is being processed. Pro turns on as soon as it completes.'}
            </p>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button
                onClick={() => void (statusMode ? status.refetch() : confirm.refetch())}
                disabled={checking}
              >
                {checking ? <Spinner className="text-white" label="Checking" /> : <RefreshCw />} Check again
              </Button>
              <Button asChild variant="secondary">
                <Link to="/">Back to Home</Link>
              </Button>
            </div>
          </CardContent>
        </Card>
      </Page>
    );
  }

  const amount =
    confirm.data?.subscription.amount ?? status.data?.subscription?.amount ?? PRO_PLAN.priceLabel;
  return (
    <Page className="max-w-3xl">
      <div className="flex flex-col gap-6" data-testid="confirmation-success">
        <div className="flex flex-col items-center gap-3 text-center">
          <CheckCircle2 className="size-14 text-emerald-600" />
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Welcome to the Pro plan</h1>
          <p className="text-slate-600 dark:text-slate-400">
            Your subscription has been activated successfully
          </p>
        </div>
        <div className="grid gap-6 md:grid-cols-2">
          {user ? (
            <Block title="Account Information">
              <Row label="Email">{user.email}</Row>
              <Row label="First name">{user.firstName ?? '—'}</Row>
              <Row label="Last name">{user.lastName ?? '—'}</Row>
              <Badge variant="pro" className="self-start">
                <Crown className="size-3" /> Pro Member
              </Badge>
            </Block>
          ) : null}
          <Block title="Subscription Details">
            <Row label="Plan">{PRO_PLAN.name}</Row>
            <Row label="Price">
              ${amount}/{PRO_PLAN.interval}
            </Row>
            <Row label="Status">
              <Badge variant="success">Active</Badge>
            </Row>
          </Block>
        </div>
        {/* The spec's 'AI Features Now Available', said only once they are. */}
        <Block
          title={isAvailable(...AI_FEATURES) ? 'AI Features Now Available' : 'AI Features Coming to Pro'}
        >
          <ul className="flex flex-col gap-2">
            {AI_FEATURE_LINES.map(({ icon: Icon, text, feature }) => (
              <li key={text} className="flex items-start gap-2 text-sm">
                <Icon className="mt-0.5 size-4 shrink-0 text-brand-600" />
                <span>
                  {text} <ComingSoonBadge feature={feature} />
                </span>
              </li>
            ))}
          </ul>
          <AiInDevelopmentNote className="mt-2 text-slate-600 dark:text-slate-400" />
        </Block>
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-center">
          <Button asChild size="lg" variant="gradient">
            <Link to="/">
              <Video /> Start New Meeting
            </Link>
          </Button>
          <Button asChild size="lg" variant="secondary">
            <Link to="/meetings">
              <Calendar /> View Meetings
            </Link>
          </Button>
        </div>
        <p className="text-center text-sm text-slate-500 dark:text-slate-400">
          Questions about your subscription? Contact our support team any time — we&apos;re happy to help.
        </p>
      </div>
    </Page>
  );
}

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">{children}</CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 text-sm">
      <span className="shrink-0 text-slate-500 dark:text-slate-400">{label}</span>
      <span className="min-w-0 break-all text-right font-medium">{children}</span>
    </div>
  );
}
