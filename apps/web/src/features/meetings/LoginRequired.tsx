import { Home, Lock, LogIn } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';

/**
 * Shown on meeting screens to a visitor who is not signed in (spec §2). With `pageTitle` the
 * screen keeps its own title above the card.
 */
export function LoginRequired({ what, pageTitle }: { what: string; pageTitle?: string }) {
  const Heading = pageTitle ? 'h2' : 'h1';
  return (
    <Page title={pageTitle}>
      <Card className="mx-auto max-w-md">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/50">
            <Lock className="size-6" />
          </span>
          <Heading className="text-2xl font-bold">Login Required</Heading>
          <p className="text-slate-600 dark:text-slate-400">Please log in to {what}.</p>
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild>
              <a href="/api/login">
                <LogIn /> Log In
              </a>
            </Button>
            <Button asChild variant="secondary">
              <Link to="/">
                <Home /> Go Home
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </Page>
  );
}
