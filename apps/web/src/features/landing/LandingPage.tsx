import {
  AI_FEATURES,
  MARKETING_FIGURES,
  MEETING_ID_PLACEHOLDER,
  NAME_LIMITS,
} from '@parley/protocol/constants';
import { CalendarPlus, LogIn, Sparkles, Star, Users, Video, Wand2, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ComingSoonBadge, useIsAvailable } from '@/components/ui/coming-soon';
import { Input, Label } from '@/components/ui/input';
import { useLandingAuthEffects } from '@/features/auth/useLandingAuthEffects';
import { FREE_AND_PRO_ID, FreeAndPro } from './FreeAndPro';
import { HeroVideo } from './HeroVideo';
import {
  AiMarketing,
  DeveloperToolsCard,
  FeatureSection,
  SuperchargePromo,
  Testimonials,
} from './MarketingSections';
import { useMeetingActions } from './useMeetingActions';

const NAME_FIELD_ID = 'landing-name';

export function LandingPage() {
  const isAvailable = useIsAvailable();
  const actions = useMeetingActions();
  useLandingAuthEffects();

  // Try Free shows what is free (and what Pro adds) above the name field, and focuses the field
  // (spec §2), instead of leading to a button that a free account cannot use.
  const tryFree = () => {
    document.getElementById(FREE_AND_PRO_ID)?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    document.getElementById(NAME_FIELD_ID)?.focus({ preventScroll: true });
  };

  return (
    <main className="flex-1">
      <section className="relative isolate overflow-hidden text-white">
        <HeroVideo className="absolute inset-0 -z-20 size-full" />
        <div
          aria-hidden="true"
          className="absolute inset-0 -z-10 bg-gradient-to-r from-slate-950/90 via-slate-950/70 to-slate-950/30"
        />
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:py-24">
          <p
            className="inline-flex flex-wrap items-center gap-2 rounded-2xl bg-white/10 px-3 py-1 text-sm backdrop-blur sm:rounded-full"
            data-testid="hero-tagline"
          >
            <Sparkles className="size-4" /> Live transcription, translation and AI summaries
            <ComingSoonBadge feature={AI_FEATURES} tone="dark" />
          </p>
          <h1 className="mt-6 max-w-3xl text-4xl font-black tracking-tight sm:text-6xl">
            Meetings that remember everything.
          </h1>
          <p className="mt-6 max-w-2xl text-lg text-slate-200">
            {isAvailable(...AI_FEATURES)
              ? 'Video meetings in the browser, with an AI that transcribes, translates and writes the summary, the action items and the decisions for you.'
              : 'Video meetings in the browser, nothing to install. Coming soon: an AI that transcribes, translates and writes the summary, the action items and the decisions for you.'}
          </p>
          <div className="mt-10 flex flex-wrap gap-3">
            <Button size="lg" variant="gradient" onClick={tryFree}>
              <Zap /> Try Free
            </Button>
            <Button asChild size="lg" variant="secondary">
              <Link to="/schedule">
                <CalendarPlus /> Schedule Meeting
              </Link>
            </Button>
            {actions.isSignedIn ? (
              <Button
                asChild
                size="lg"
                variant="ghost"
                className="text-white hover:bg-white/10 dark:hover:bg-white/10"
              >
                <Link to="/background-demo">
                  <Wand2 /> Test Background Effects
                  <ComingSoonBadge feature="backgroundEffects" tone="dark" />
                </Link>
              </Button>
            ) : null}
          </div>
          <dl className="mt-12 flex flex-wrap gap-x-10 gap-y-4 text-sm text-slate-200">
            <div>
              <dt className="sr-only">Users</dt>
              <dd>
                <span className="text-2xl font-bold text-white">{MARKETING_FIGURES.users}</span> users
              </dd>
            </div>
            <div>
              <dt className="sr-only">Uptime</dt>
              <dd>
                <span className="text-2xl font-bold text-white">{MARKETING_FIGURES.uptime}</span> uptime
              </dd>
            </div>
            <div>
              <dt className="sr-only">Rating</dt>
              <dd className="flex items-center gap-1">
                <Star className="size-4 fill-amber-400 text-amber-400" />
                <span className="text-2xl font-bold text-white">{MARKETING_FIGURES.rating}</span> from{' '}
                {MARKETING_FIGURES.ratingCount} users
              </dd>
            </div>
          </dl>
        </div>
      </section>

      <FeatureSection />

      <section aria-labelledby="start-title" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
        <h2 id="start-title" className="sr-only">
          Start or join a meeting
        </h2>
        <FreeAndPro signedIn={actions.isSignedIn} />
        <Card className="mb-6">
          <CardContent className="p-6">
            <Label htmlFor={NAME_FIELD_ID}>Your name</Label>
            <div className="mt-2 flex items-center gap-3">
              <Input
                id={NAME_FIELD_ID}
                value={actions.name}
                maxLength={NAME_LIMITS.landingMax}
                placeholder="Enter your name"
                autoComplete="name"
                onChange={(e) => actions.setName(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') actions.create();
                }}
              />
              <span className="w-14 shrink-0 text-right text-xs text-slate-500" aria-live="polite">
                {actions.name.length}/{NAME_LIMITS.landingMax}
              </span>
            </div>
            <p className="mt-2 text-xs text-slate-500">Shown to the others in the meeting.</p>
          </CardContent>
        </Card>
        <div className="grid gap-6 md:grid-cols-3">
          <Card className="flex flex-col">
            <CardHeader>
              <CalendarPlus className="size-6 text-brand-600" />
              <CardTitle>Schedule Meeting</CardTitle>
              <CardDescription>Plan ahead and send calendar invitations.</CardDescription>
            </CardHeader>
            <CardContent className="mt-auto">
              <Button asChild variant="secondary" className="w-full">
                <Link to="/schedule">Schedule Meeting</Link>
              </Button>
            </CardContent>
          </Card>
          <Card className="flex flex-col">
            <CardHeader>
              <Video className="size-6 text-brand-600" />
              <CardTitle>Start Instant Meeting</CardTitle>
              <CardDescription>
                Open a room now and invite people with a link. Hosting is part of Pro.
              </CardDescription>
            </CardHeader>
            <CardContent className="mt-auto">
              <Button className="w-full" onClick={actions.create} disabled={actions.isCreating}>
                <Video /> {actions.isCreating ? 'Creating...' : 'Start Instant Meeting'}
              </Button>
            </CardContent>
          </Card>
          <Card className="flex flex-col">
            <CardHeader>
              <Users className="size-6 text-brand-600" />
              <CardTitle>Join Meeting</CardTitle>
              <CardDescription>Enter the meeting ID you were given.</CardDescription>
            </CardHeader>
            <CardContent className="mt-auto flex flex-col gap-2">
              <Label htmlFor="landing-meeting-id" className="sr-only">
                Meeting ID
              </Label>
              <Input
                id="landing-meeting-id"
                value={actions.meetingId}
                placeholder={MEETING_ID_PLACEHOLDER}
                inputMode="numeric"
                autoComplete="off"
                onChange={(e) => actions.setMeetingId(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') actions.join();
                }}
              />
              <Button variant="secondary" className="w-full" onClick={actions.join}>
                <LogIn /> Join Meeting
              </Button>
            </CardContent>
          </Card>
        </div>
      </section>

      <SuperchargePromo />
      <DeveloperToolsCard />
      <Testimonials />
      <AiMarketing />
    </main>
  );
}
