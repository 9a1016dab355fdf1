import { PRO_PLAN } from '@parley/protocol/constants';
import { Crown, Mail, Settings, Video } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AiInDevelopmentNote, PRO_FEATURES, ProFeatureItem } from './pro-features';

/**
 * The success screen (spec §2) of /subscription/confirmation/success?email=… and
 * /subscription-success: Pro welcome, Start Your First Pro Meeting, Manage Subscription, and the
 * note about the confirmation email.
 */
export function SubscriptionSuccessPage() {
  const [params] = useSearchParams();
  const email = params.get('email');
  return (
    <Page className="max-w-2xl">
      <Card data-testid="subscription-success">
        <CardContent className="flex flex-col items-center gap-6 p-8 text-center sm:p-10">
          <div className="flex size-16 items-center justify-center rounded-full bg-gradient-to-br from-amber-400 to-orange-500 text-white shadow-lg">
            <Crown className="size-8" />
          </div>
          <div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Welcome to Pro!</h1>
            <p className="mt-2 text-slate-600 dark:text-slate-400">
              Your {PRO_PLAN.name} is active: you can now start meetings and schedule them with calendar
              invitations.
            </p>
          </div>
          <ul className="grid w-full gap-2 text-left text-sm sm:grid-cols-2">
            {PRO_FEATURES.slice(0, 4).map((item) => (
              <ProFeatureItem
                key={item.text}
                item={item}
                className="rounded-lg bg-slate-50 px-3 py-2 dark:bg-slate-800/60"
              />
            ))}
          </ul>
          <AiInDevelopmentNote className="w-full text-left text-slate-600 dark:text-slate-400" />
          <div className="flex w-full flex-col gap-2 sm:flex-row sm:justify-center">
            <Button asChild size="lg" variant="gradient">
              <Link to="/">
                <Video /> Start Your First Pro Meeting
              </Link>
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/settings">
                <Settings /> Manage Subscription
              </Link>
            </Button>
          </div>
          <p className="flex items-center gap-2 text-sm text-slate-500 dark:text-slate-400">
            <Mail className="size-4 shrink-0" />
            {email
              ? `A confirmation email has been sent to ${email}.`
              : 'A confirmation email has been sent to your email address.'}
          </p>
        </CardContent>
      </Card>
    </Page>
  );
}
