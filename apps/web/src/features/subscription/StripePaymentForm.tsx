import { PRO_PLAN } from '@parley/protocol/constants';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { Lock } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { successPath, type PaymentOutcome } from './usePaymentOutcome';

/** Stripe.js is fetched from js.stripe.com only when this module (the Stripe mode) is used. */
const stripeByKey = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string) {
  let promise = stripeByKey.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    stripeByKey.set(publishableKey, promise);
  }
  return promise;
}

function PaymentForm({
  clientSecret,
  email,
  onOutcome,
}: {
  clientSecret: string;
  email: string;
  onOutcome: (o: PaymentOutcome) => void;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const setup = clientSecret.startsWith('seti_');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!stripe || !elements) {
      onOutcome({ kind: 'error', setup, message: 'Card element not found' });
      return;
    }
    setBusy(true);
    const confirmParams = { return_url: `${window.location.origin}${successPath(email)}` };
    try {
      const result = setup
        ? await stripe.confirmSetup({ elements, confirmParams, redirect: 'if_required' })
        : await stripe.confirmPayment({ elements, confirmParams, redirect: 'if_required' });
      if (result.error) {
        onOutcome({ kind: 'error', setup, message: result.error.message ?? null });
        return;
      }
      const status = 'paymentIntent' in result ? result.paymentIntent?.status : result.setupIntent?.status;
      const method = 'setupIntent' in result ? result.setupIntent?.payment_method : null;
      const paymentMethodId = typeof method === 'string' ? method : (method?.id ?? null);
      onOutcome(status === 'succeeded' ? { kind: 'succeeded', paymentMethodId } : { kind: 'processing' });
    } catch (err) {
      onOutcome({ kind: 'error', setup, message: err instanceof Error ? err.message : null });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" aria-label="Card payment">
      <PaymentElement />
      <Button type="submit" size="lg" variant="gradient" disabled={!stripe || !elements || busy}>
        {busy ? <Spinner className="text-white" label="Processing" /> : <Lock />}
        {setup ? 'Save card' : `Pay $${PRO_PLAN.priceLabel}`}
      </Button>
    </form>
  );
}

/** Stripe's Payment Element for the subscription's client secret (Stripe mode only). */
export default function StripePaymentForm(props: {
  publishableKey: string;
  clientSecret: string;
  email: string;
  onOutcome: (o: PaymentOutcome) => void;
}) {
  const dark = document.documentElement.classList.contains('dark');
  return (
    <Elements
      stripe={stripeFor(props.publishableKey)}
      options={{ clientSecret: props.clientSecret, appearance: { theme: dark ? 'night' : 'stripe' } }}
    >
      <PaymentForm clientSecret={props.clientSecret} email={props.email} onOutcome={props.onOutcome} />
    </Elements>
  );
}
