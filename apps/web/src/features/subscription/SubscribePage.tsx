import { ComingSoon } from '@/components/ComingSoon';

export function SubscribePage() {
  return <ComingSoon title="Subscribe" what="The Pro plan checkout arrives with the subscription issue." />;
}
