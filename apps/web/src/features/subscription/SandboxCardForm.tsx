import { PRO_PLAN } from '@parley/protocol/constants';
import { formatCardNumber, formatExpiry, validateCardInput, type CardError } from '@parley/protocol/card';
import { FlaskConical, Lock, ShieldQuestion } from 'lucide-react';
import { Dialog } from 'radix-ui';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input, Label } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { useSandboxAuthenticate, useSandboxConfirm } from './api';
import type { PaymentOutcome } from './usePaymentOutcome';

function cardErrorOf(err: unknown): Pick<CardError, 'message' | 'param'> | null {
  if (err instanceof ApiError) {
    const body = (err.body ?? {}) as { param?: CardError['param'] };
    return { message: err.serverMessage, param: body.param };
  }
  return null;
}

/**
 * The built-in sandbox's card form: fields labelled as Stripe's Payment Element labels them, the
 * standard test cards, and an authentication step for the cards that ask for one.
 */
export function SandboxCardForm({
  clientSecret,
  onOutcome,
}: {
  clientSecret: string;
  onOutcome: (outcome: PaymentOutcome) => void;
}) {
  const ids = { number: useId(), expiry: useId(), cvc: useId(), error: useId() };
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [error, setError] = useState<Pick<CardError, 'message' | 'param'> | null>(null);
  const [authOpen, setAuthOpen] = useState(false);
  const confirm = useSandboxConfirm();
  const authenticate = useSandboxAuthenticate();
  const setup = clientSecret.startsWith('seti_');
  const busy = confirm.isPending || authenticate.isPending;

  const fail = (err: unknown) => {
    const cardError = cardErrorOf(err);
    setError(cardError ?? { message: 'An unexpected error occurred' });
    onOutcome({ kind: 'error', setup, message: cardError?.message ?? null });
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const invalid = validateCardInput({ cardNumber, expiry, cvc });
    if (invalid) {
      setError(invalid);
      return;
    }
    setError(null);
    try {
      const result = await confirm.mutateAsync({ clientSecret, cardNumber, expiry, cvc });
      if (result.status === 'requires_action') setAuthOpen(true);
      else
        onOutcome(
          result.status === 'succeeded'
            ? { kind: 'succeeded', paymentMethodId: result.paymentMethod ?? null }
            : { kind: 'processing' },
        );
    } catch (err) {
      fail(err);
    }
  }

  async function finishAuthentication(outcome: 'complete' | 'fail') {
    try {
      const result = await authenticate.mutateAsync({ clientSecret, outcome });
      setAuthOpen(false);
      onOutcome(
        result.status === 'succeeded'
          ? { kind: 'succeeded', paymentMethodId: result.paymentMethod ?? null }
          : { kind: 'processing' },
      );
    } catch (err) {
      setAuthOpen(false);
      fail(err);
    }
  }

  const invalidField = (param: CardError['param']) => (error?.param === param ? true : undefined);

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Card payment">
      <div
        role="note"
        className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
      >
        <FlaskConical className="mt-0.5 size-4 shrink-0" />
        <div>
          <p className="font-semibold">Payments sandbox: no real card is charged.</p>
          <p className="mt-1">
            This server runs Parley&apos;s built-in payments sandbox instead of Stripe. Use the test card 4242
            4242 4242 4242 with any future date and any 3 digits. 4000 0000 0000 0002 is declined; 4000 0025
            0000 3155 asks for authentication.
          </p>
        </div>
      </div>

      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.number}>Card number</Label>
        <Input
          id={ids.number}
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 1234 1234 1234"
          value={cardNumber}
          onChange={(e) => setCardNumber(formatCardNumber(e.target.value))}
          aria-invalid={invalidField('number')}
          aria-describedby={error ? ids.error : undefined}
        />
      </div>
      <div className="grid grid-cols-2 gap-4">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.expiry}>Expiration date</Label>
          <Input
            id={ids.expiry}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="MM / YY"
            value={expiry}
            onChange={(e) => setExpiry(formatExpiry(e.target.value))}
            aria-invalid={invalidField('exp')}
          />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={ids.cvc}>Security code</Label>
          <Input
            id={ids.cvc}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="CVC"
            maxLength={4}
            value={cvc}
            onChange={(e) => setCvc(e.target.value.replace(/\D/g, '').slice(0, 4))}
            aria-invalid={invalidField('cvc')}
          />
        </div>
      </div>
      {error ? (
        <p id={ids.error} role="alert" className="text-sm font-medium text-red-600 dark:text-red-400">
          {error.message}
        </p>
      ) : null}
      <Button type="submit" size="lg" variant="gradient" disabled={busy}>
        {busy ? <Spinner className="text-white" label="Processing" /> : <Lock />}
        {setup ? 'Save card' : `Pay $${PRO_PLAN.priceLabel}`}
      </Button>

      <Dialog.Root open={authOpen} onOpenChange={(open) => !busy && setAuthOpen(open)}>
        <Dialog.Portal>
          <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-sm" />
          <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl border border-slate-200 bg-white p-6 shadow-xl focus:outline-none dark:border-slate-800 dark:bg-slate-900">
            <Dialog.Title className="flex items-center gap-2 text-lg font-semibold">
              <ShieldQuestion className="size-5 text-brand-600" /> Authentication required
            </Dialog.Title>
            <Dialog.Description className="mt-2 text-sm text-slate-600 dark:text-slate-400">
              Your bank asks you to confirm this payment of ${PRO_PLAN.priceLabel}. In the sandbox this stands
              in for the bank&apos;s 3D Secure page.
            </Dialog.Description>
            <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" disabled={busy} onClick={() => void finishAuthentication('fail')}>
                Fail authentication
              </Button>
              <Button disabled={busy} onClick={() => void finishAuthentication('complete')}>
                Complete authentication
              </Button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </form>
  );
}
