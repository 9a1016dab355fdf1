import { ComingSoon } from '@/components/ComingSoon';

export function ConfirmationPage() {
  return (
    <ComingSoon
      title="Subscription Confirmation"
      what="Subscription confirmation arrives with the subscription issue."
    />
  );
}
