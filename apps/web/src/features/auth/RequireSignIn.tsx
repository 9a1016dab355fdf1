import { Home, Lock, LogIn } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';

/**
 * What a signed-in-only page shows a visitor who is not signed in (spec §2). The spec words it
 * per page, so the page gives the texts: 'Access Denied' with Go Home (settings, background demo)
 * or 'Login Required' with Log In (via /api/login) and Go Home (the meeting screens). With
 * `pageTitle` the page keeps its own title above the card.
 */
export function RequireSignIn({
  title,
  message,
  pageTitle,
  offerLogIn = false,
}: {
  title: string;
  message: string;
  pageTitle?: string;
  offerLogIn?: boolean;
}) {
  const Heading = pageTitle ? 'h2' : 'h1';
  return (
    <Page title={pageTitle}>
      <Card className="mx-auto max-w-md">
        <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
          <span className="grid size-12 place-items-center rounded-full bg-brand-50 text-brand-600 dark:bg-brand-900/50">
            <Lock className="size-6" />
          </span>
          <Heading className="text-2xl font-bold">{title}</Heading>
          <p className="text-slate-600 dark:text-slate-400">{message}</p>
          <div className="flex flex-wrap justify-center gap-3">
            {offerLogIn ? (
              <Button asChild>
                <a href="/api/login">
                  <LogIn /> Log In
                </a>
              </Button>
            ) : null}
            <Button asChild variant={offerLogIn ? 'secondary' : 'primary'}>
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
