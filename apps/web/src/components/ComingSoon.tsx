import { Construction } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Page } from '@/components/ui/page';

/** A screen a later issue builds: titled with the screen's name so every route is reachable today. */
export function ComingSoon({ title, what }: { title: string; what: string }) {
  return (
    <Page title={title}>
      <Card>
        <CardContent className="flex flex-col items-start gap-4 p-8">
          <Construction className="size-8 text-amber-500" />
          <p className="max-w-prose text-slate-600 dark:text-slate-400">{what}</p>
          <Button asChild variant="secondary">
            <Link to="/">Back to Home</Link>
          </Button>
        </CardContent>
      </Card>
    </Page>
  );
}
