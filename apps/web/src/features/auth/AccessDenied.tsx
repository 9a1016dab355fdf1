import { Home, Lock } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

/** Spec §2's 'Access Denied' for a signed-in-only page, with Go Home. */
export function AccessDenied({ message }: { message: string }) {
  return (
    <main className="flex flex-1 items-center justify-center px-4 py-16">
      <div className="max-w-md text-center">
        <span className="mx-auto grid size-14 place-items-center rounded-full bg-red-50 text-red-600 dark:bg-red-950">
          <Lock className="size-6" />
        </span>
        <h1 className="mt-4 text-2xl font-bold">Access Denied</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">{message}</p>
        <Button asChild className="mt-8" size="lg">
          <Link to="/">
            <Home /> Go Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
