import { FREE_TIER, PRO_PLAN } from '@parley/protocol/constants';
import { Check, Crown } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

/** Where Try Free leads (issue 37 item 4): what is free, plainly, and what Pro adds. */
export const FREE_AND_PRO_ID = 'free-and-pro';

/** What costs nothing, as the server counts it (billing/free-time.ts). */
export const FREE_LINES = [
  "Join anyone's meeting from the link they send you, with just your name: no account, no card",
  `${FREE_TIER.freeMinutesPerMeeting} minutes per meeting, then ${FREE_TIER.overageCentsPerMinute} cents a minute with a saved card`,
  "In a Pro host's meeting their plan covers your time, unless they turn that off",
] as const;

/** What Pro adds that the free plan does not (the AI lines are on the plan card). */
export const PRO_LINES = [
  'Start instant meetings and schedule meetings with invitations',
  'Unlimited time in every meeting, and your guests covered in yours',
  'Passwords and a waiting room for the meetings you host',
] as const;

/**
 * The free plan and Pro side by side: hosting needs Pro (spec §1), joining does not, and the
 * free path says so before anyone meets a refusal.
 */
export function FreeAndPro({ signedIn }: { signedIn: boolean }) {
  return (
    <div
      id={FREE_AND_PRO_ID}
      className="mb-6 grid scroll-mt-20 gap-6 md:grid-cols-2"
      data-testid="free-and-pro"
    >
      <Card>
        <CardHeader>
          <CardTitle>Free</CardTitle>
          <CardDescription>Everything you need to take part.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="flex flex-col gap-2 text-sm">
            {FREE_LINES.map((line) => (
              <li key={line} className="flex items-start gap-2">
                <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
                <span>{line}</span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Card className="border-brand-200 dark:border-brand-900">
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <Crown className="size-5 text-amber-500" /> Pro · ${PRO_PLAN.priceLabel}/{PRO_PLAN.interval}
          </CardTitle>
          <CardDescription>To host: everything in Free, and</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <ul className="flex flex-col gap-2 text-sm">
            {PRO_LINES.map((line) => (
              <li key={line} className="flex items-start gap-2">
                <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
                <span>{line}</span>
              </li>
            ))}
          </ul>
          <Button asChild variant="gradient" className="w-full sm:w-auto sm:self-start">
            <Link to="/subscribe?reason=host">{signedIn ? 'Get Pro to host' : 'See Pro'}</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
