import { AI_FEATURES } from '@parley/protocol/constants';
import { Menu, Video, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { ComingSoonBadge } from '@/components/ui/coming-soon';
import { cn } from '@/lib/cn';
import { AuthArea } from '@/features/auth/AuthArea';

const NAV_LINKS = [
  { to: '/', label: 'Home', end: true },
  { to: '/schedule', label: 'Schedule Meeting', end: false },
  { to: '/meetings', label: 'My Meetings', end: false },
] as const;

function navClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-lg px-3 py-2 text-sm font-medium transition-colors',
    isActive
      ? 'bg-brand-50 text-brand-700 dark:bg-brand-900/50 dark:text-brand-100'
      : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800',
  );
}

/** The top navigation of spec §2 around every screen except the meeting room. */
export function Layout() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const close = () => setOpen(false);
  useEffect(() => {
    if (!open) return;
    // Escape closes the phone menu and gives focus back to its button.
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/85 backdrop-blur dark:border-slate-800 dark:bg-slate-950/85">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
          <Link to="/" className="flex items-center gap-2 font-bold tracking-tight" onClick={close}>
            <span className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">
              <Video className="size-4" />
            </span>
            <span className="text-lg">Parley</span>
          </Link>
          <nav aria-label="Main" className="ml-4 hidden items-center gap-1 md:flex">
            {NAV_LINKS.map((l) => (
              <NavLink key={l.to} to={l.to} end={l.end} className={navClass}>
                {l.label}
              </NavLink>
            ))}
          </nav>
          <div className="ml-auto hidden md:block">
            <AuthArea />
          </div>
          <button
            ref={toggleRef}
            type="button"
            className="ml-auto rounded-lg p-2.5 text-slate-700 hover:bg-slate-100 md:hidden dark:text-slate-200 dark:hover:bg-slate-800"
            aria-label={open ? 'Close menu' : 'Open menu'}
            aria-expanded={open}
            aria-controls="mobile-nav"
            onClick={() => setOpen((o) => !o)}
          >
            {open ? <X className="size-5" /> : <Menu className="size-5" />}
          </button>
        </div>
        {open ? (
          <div
            id="mobile-nav"
            className="border-t border-slate-200 px-4 pb-4 md:hidden dark:border-slate-800"
          >
            <nav aria-label="Mobile" className="flex flex-col gap-1 py-3">
              {NAV_LINKS.map((l) => (
                <NavLink
                  key={l.to}
                  to={l.to}
                  end={l.end}
                  className={(s) => cn(navClass(s), 'py-3')}
                  onClick={close}
                >
                  {l.label}
                </NavLink>
              ))}
            </nav>
            <AuthArea onNavigate={close} />
          </div>
        ) : null}
      </header>
      <div id="main" className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <footer className="border-t border-slate-200 py-6 text-center text-xs text-slate-500 dark:border-slate-800">
        © {new Date().getFullYear()} Parley · Video meetings with live transcription, translation and AI
        summaries <ComingSoonBadge feature={AI_FEATURES} className="ml-1" />
      </footer>
    </div>
  );
}
