import { DoorOpen, X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

export interface Knock {
  id: string;
  name: string;
}

/** How many of the newest knocks get their own Admit and Deny; the rest are in the People panel. */
export const KNOCKS_SHOWN = 3;

export function knockTitle(waiting: readonly Knock[]): string {
  if (waiting.length === 1) return `${waiting[0]!.name} wants to join`;
  return `${waiting.length} people want to join`;
}

/**
 * A knock reaches the host wherever they are in the room (as Jitsi's lobby notification does), not
 * only inside the People panel: the newest guests waiting, each with Admit and Deny. It is fed by
 * the server's waiting list, so it goes away when a guest is handled from anywhere (here, the
 * People panel, another host tab) or gives up waiting.
 */
export function KnockNotice({
  waiting,
  onAdmit,
  onDeny,
  onShowAll,
  className,
}: {
  waiting: readonly Knock[];
  onAdmit: (id: string) => void;
  onDeny: (id: string) => void;
  /** Opens the People panel with the whole waiting list. */
  onShowAll: () => void;
  className?: string;
}) {
  /** Knocks the host hid with the close button; a new knock shows the notice again. */
  const [hidden, setHidden] = useState<readonly string[]>([]);
  const open = waiting.filter((w) => !hidden.includes(w.id));
  if (open.length === 0) return null;
  const newest = open.slice(-KNOCKS_SHOWN).reverse();
  const more = open.length - newest.length;
  const single = open.length === 1;

  return (
    <section
      aria-label="Waiting to join"
      data-testid="knock-notice"
      className={cn(
        'pointer-events-auto rounded-xl bg-white p-3 text-slate-900 shadow-xl ring-1 ring-black/10',
        'dark:bg-slate-800 dark:text-slate-50 dark:ring-white/10',
        className,
      )}
    >
      <div className="flex items-center gap-2">
        <p role="alert" className="flex min-w-0 flex-1 items-center gap-2 text-sm font-semibold">
          <DoorOpen aria-hidden className="size-4 shrink-0 text-amber-500" />
          <span className="min-w-0 break-words">{knockTitle(open)}</span>
        </p>
        <button
          type="button"
          aria-label="Hide this notice"
          title="Hide (they keep waiting in People)"
          onClick={() => setHidden(waiting.map((w) => w.id))}
          className="-my-1 grid size-8 shrink-0 place-items-center rounded-md text-slate-500 hover:bg-slate-100 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-slate-300 dark:hover:bg-white/10"
        >
          <X aria-hidden className="size-4" />
        </button>
      </div>
      <ul className="mt-2 grid gap-2">
        {newest.map((w) => (
          <li key={w.id} className="flex items-center gap-2">
            {single ? null : <span className="min-w-0 flex-1 truncate text-sm">{w.name}</span>}
            <Button
              size="sm"
              className={cn('h-9 px-4', single && 'flex-1 sm:flex-none')}
              aria-label={`Admit ${w.name}`}
              onClick={() => onAdmit(w.id)}
            >
              Admit
            </Button>
            <Button
              size="sm"
              variant="secondary"
              className={cn('h-9 px-4', single && 'flex-1 sm:flex-none')}
              aria-label={`Deny ${w.name}`}
              onClick={() => onDeny(w.id)}
            >
              Deny
            </Button>
          </li>
        ))}
      </ul>
      {more > 0 ? (
        <Button variant="link" size="sm" className="mt-1 h-7 px-0" onClick={onShowAll}>
          {`+${more} more waiting: view all`}
        </Button>
      ) : null}
    </section>
  );
}
