import { ComingSoon } from '@/components/ComingSoon';

export function SubscriptionSuccessPage() {
  return (
    <ComingSoon
      title="Subscription Success"
      what="The Pro welcome screen arrives with the subscription issue."
    />
  );
}
