import { CalendarPlus, Sparkles, Video } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { useLandingAuthEffects } from '@/features/auth/useLandingAuthEffects';

export function LandingPage() {
  useLandingAuthEffects();
  return (
    <main className="flex-1">
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-700 to-fuchsia-700 text-white">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6 lg:py-28">
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm">
            <Sparkles className="size-4" /> Live transcription, translation and AI summaries
          </p>
          <h1 className="mt-6 max-w-3xl text-4xl font-black tracking-tight sm:text-6xl">
            Meetings that remember everything.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-brand-100">
            Parley is video meetings in the browser, with an AI that transcribes, translates and writes the
            summary, the action items and the decisions for you.
          </p>
          <div className="mt-10 flex flex-wrap gap-3">
            <Button size="lg" variant="secondary">
              <Video /> Try Free
            </Button>
            <Button asChild size="lg" variant="gradient">
              <Link to="/schedule">
                <CalendarPlus /> Schedule Meeting
              </Link>
            </Button>
          </div>
        </div>
      </section>
    </main>
  );
}
