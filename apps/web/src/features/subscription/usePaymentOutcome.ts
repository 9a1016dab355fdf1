import { useNavigate } from 'react-router';
import { toast } from '@/components/ui/toast-store';

export type PaymentOutcome =
  /** `paymentMethodId`: the card a succeeded setup intent saved (the free tier's save-method). */
  | { kind: 'succeeded'; paymentMethodId?: string | null }
  | { kind: 'processing' }
  | { kind: 'error'; setup: boolean; message: string | null };

/**
 * What follows a payment or setup confirmation (spec §4, §8): succeeded → 'Subscription Active!'
 * and the success page with the email; another result → a 'processing' toast and the same page;
 * an error → a destructive toast and no redirect.
 */
export function usePaymentOutcome(email: string) {
  const navigate = useNavigate();
  return (outcome: PaymentOutcome) => {
    if (outcome.kind === 'error') {
      toast({
        title: outcome.setup ? 'Payment Setup Failed' : 'Payment Failed',
        description:
          outcome.message ??
          (outcome.setup ? 'An unexpected error occurred' : 'Payment could not be processed'),
        variant: 'destructive',
      });
      return;
    }
    if (outcome.kind === 'succeeded') {
      toast({
        title: 'Subscription Active!',
        description: 'Your subscription has been activated successfully.',
        variant: 'success',
      });
    } else {
      toast({
        title: 'Payment processing',
        description: 'Your payment is being processed. Pro turns on as soon as it completes.',
      });
    }
    void navigate(successPath(email));
  };
}

/** The success page's address for an email (also Stripe's return URL after a redirect). */
export function successPath(email: string): string {
  return `/subscription/confirmation/success?email=${encodeURIComponent(email)}`;
}
