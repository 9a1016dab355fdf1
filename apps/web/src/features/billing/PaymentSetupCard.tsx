import { BILLING_MESSAGES } from '@parley/protocol/texts';
import { FREE_TIER } from '@parley/protocol/constants';
import { CreditCard } from 'lucide-react';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { ApiError } from '@/lib/api';
import { usePaymentsConfig } from '@/features/subscription/api';
import { SandboxCardForm } from '@/features/subscription/SandboxCardForm';
import type { PaymentOutcome } from '@/features/subscription/usePaymentOutcome';
import { createSetupIntent, savePaymentMethod, startBilling } from './api';

const StripePaymentForm = lazy(() => import('@/features/subscription/StripePaymentForm'));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The payment setup card (spec §2, §7): an e-mail for billing, then the card form (the sandbox's,
 * or Stripe's Payment Element for a SetupIntent), then save-method and billing/start. The texts
 * of failures are spec §8's: 'Payment Setup Failed' with the provider's message, 'Setup Failed'
 * ('Failed to set up payment method') for anything else.
 */
export function PaymentSetupCard({
  meetingId,
  joinToken,
  initialEmail,
  onStarted,
}: {
  meetingId: string;
  joinToken: string;
  initialEmail: string;
  onStarted: () => void;
}) {
  const config = usePaymentsConfig();
  const emailId = useId();
  const [email, setEmail] = useState(initialEmail);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [clientSecret, setClientSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const setupFailed = (err: unknown) => {
    toast({
      title: BILLING_MESSAGES.setupFailed,
      description:
        err instanceof ApiError && err.serverMessage
          ? err.serverMessage
          : BILLING_MESSAGES.setupFailedDefault,
      variant: 'destructive',
    });
  };

  async function begin(e: FormEvent) {
    e.preventDefault();
    const value = email.trim().toLowerCase();
    if (!EMAIL.test(value)) {
      setEmailError('Please enter a valid email address');
      return;
    }
    setEmailError(null);
    setBusy(true);
    try {
      setClientSecret((await createSetupIntent(value, meetingId, joinToken)).clientSecret);
      setEmail(value);
    } catch (err) {
      setupFailed(err);
    } finally {
      setBusy(false);
    }
  }

  async function onOutcome(outcome: PaymentOutcome) {
    if (outcome.kind === 'error') {
      toast({
        title: BILLING_MESSAGES.setupFailedProvider,
        description: outcome.message ?? BILLING_MESSAGES.setupFailedDefault,
        variant: 'destructive',
      });
      return;
    }
    if (outcome.kind !== 'succeeded' || !outcome.paymentMethodId) {
      setupFailed(null);
      return;
    }
    setBusy(true);
    try {
      await savePaymentMethod(email, outcome.paymentMethodId);
      await startBilling(meetingId, email, joinToken);
      toast({
        title: 'Card saved',
        description: `You pay ${FREE_TIER.overageCentsPerMinute} cents per minute past the free ${FREE_TIER.freeMinutesPerMeeting}.`,
        variant: 'success',
      });
      onStarted();
    } catch (err) {
      setupFailed(err);
    } finally {
      setBusy(false);
    }
  }

  if (!clientSecret) {
    return (
      <form onSubmit={begin} noValidate className="grid gap-3" aria-label="Payment setup">
        <div className="grid gap-1.5">
          <Label htmlFor={emailId}>Email for billing</Label>
          <Input
            id={emailId}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              if (emailError) setEmailError(null);
            }}
            placeholder="you@example.com"
            aria-invalid={!!emailError}
          />
          {emailError ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {emailError}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={busy}>
          {busy ? <Spinner label="Setting up" /> : <CreditCard />}
          Add a card
        </Button>
      </form>
    );
  }

  const data = config.data;
  return (
    <div className="grid gap-3" data-testid="payment-setup-card">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Billing to <span className="font-medium text-slate-900 dark:text-slate-100">{email}</span>
      </p>
      {busy ? <Spinner label="Saving your card" /> : null}
      {data?.provider === 'stripe' && data.publishableKey ? (
        <Suspense fallback={<Spinner label="Loading the card form" />}>
          <StripePaymentForm
            publishableKey={data.publishableKey}
            clientSecret={clientSecret}
            email={email}
            onOutcome={(o) => void onOutcome(o)}
          />
        </Suspense>
      ) : data ? (
        <SandboxCardForm clientSecret={clientSecret} onOutcome={(o) => void onOutcome(o)} />
      ) : (
        <Spinner label="Loading the card form" />
      )}
    </div>
  );
}
