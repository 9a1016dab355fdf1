import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

/** A page's main column with its title; every screen uses it for a consistent layout. */
export function Page({
  title,
  description,
  children,
  className,
  actions,
}: {
  title?: string;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
  actions?: ReactNode;
}) {
  return (
    <main className={cn('mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:py-12', className)}>
      {title ? (
        <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
            {description ? <p className="mt-2 text-slate-600 dark:text-slate-400">{description}</p> : null}
          </div>
          {actions}
        </div>
      ) : null}
      {children}
    </main>
  );
}
