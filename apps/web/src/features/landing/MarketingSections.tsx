import {
  AI_FEATURES,
  MARKETING_FIGURES,
  PRO_PLAN,
  TRANSLATION_LANGUAGES,
  type Feature,
} from '@parley/protocol/constants';
import { useAiCapabilities } from '@/features/room/ai/api';
import {
  BarChart3,
  Brain,
  Camera,
  CheckCircle2,
  Clock,
  FileDown,
  Languages,
  ListChecks,
  MessageSquare,
  MonitorUp,
  PenTool,
  Sparkles,
  Star,
  Target,
  TrendingUp,
  Wand2,
  Wrench,
} from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { ComingSoonBadge, useIsAvailable, useServerFeatures } from '@/components/ui/coming-soon';
import { AiInDevelopmentNote } from '@/features/subscription/pro-features';
import { TESTIMONIALS } from './testimonials';

/** A line of marketing copy and the feature it needs, if that is not built yet everywhere. */
interface MarketingItem {
  text: string;
  feature?: Feature;
  /** The badge's words when only part of the line is missing. */
  soonLabel?: string;
}

const FEATURES: (MarketingItem & { icon: typeof MessageSquare; title: string })[] = [
  {
    icon: MessageSquare,
    title: 'Live transcription',
    text: 'Every word, with who said it, while you talk.',
    feature: 'transcription',
  },
  {
    icon: Brain,
    title: 'Automatic meeting summaries',
    text: 'An overview and key points the moment you finish.',
    feature: 'summaries',
  },
  {
    icon: ListChecks,
    title: 'Action-item extraction',
    text: 'Owners and next steps pulled out for you.',
    feature: 'summaries',
  },
  {
    icon: Languages,
    title: 'Translation with cultural context',
    text: 'Follow along in your own language.',
    feature: 'translation',
  },
  {
    icon: BarChart3,
    title: 'Analytics',
    text: 'Talk time and participation at a glance.',
    feature: 'analytics',
  },
  { icon: FileDown, title: 'PDF export', text: 'Share a clean report with anyone.', feature: 'pdfExport' },
  {
    icon: Wand2,
    title: 'Background effects',
    text: 'Blur, virtual or your own custom background.',
    feature: 'backgroundEffects',
  },
  {
    icon: PenTool,
    title: 'Chat, whiteboard and files',
    text: 'Sketch, share and discuss in one place.',
    feature: 'whiteboard',
    soonLabel: 'Whiteboard coming soon',
  },
  { icon: MonitorUp, title: 'Screen sharing', text: 'Present a tab, a window or your whole screen.' },
];

const PROMO_ITEMS: MarketingItem[] = [
  { text: 'Live transcription', feature: 'transcription' },
  { text: 'AI translation', feature: 'translation' },
  { text: 'Summaries with action items', feature: 'summaries' },
  { text: `${PRO_PLAN.moneyBackGuaranteeDays}-day money-back guarantee` },
];

const AI_ITEMS: MarketingItem[] = [
  { text: 'Per-speaker live transcripts', feature: 'transcription' },
  // {languages}: how many listener languages this server offers (GET /api/features).
  { text: 'Live translation into {languages} languages', feature: 'translation' },
  { text: 'Summaries, action items and decisions', feature: 'summaries' },
  { text: 'Download or export as PDF', feature: 'pdfExport' },
];

/** A checked list line, or a clock and "Coming soon" while its feature is missing. */
function MarketingLine({ item, tone }: { item: MarketingItem; tone: 'light' | 'dark' }) {
  const isAvailable = useIsAvailable();
  // A server that translates nowhere shows the line as coming, with the build's languages.
  const offered = useServerFeatures()?.translationLanguages.length ?? 0;
  const languages = offered > 1 ? offered : TRANSLATION_LANGUAGES.length;
  const ready = !item.feature || isAvailable(item.feature);
  const Icon = ready ? CheckCircle2 : Clock;
  const iconColour = tone === 'dark' ? 'text-emerald-300' : 'text-emerald-500';
  return (
    <li className="flex items-start gap-2">
      <Icon aria-hidden="true" className={`mt-0.5 size-4 shrink-0 ${ready ? iconColour : 'opacity-70'}`} />
      <span>
        {item.text.replace('{languages}', String(languages))}
        {item.feature ? (
          <>
            {' '}
            <ComingSoonBadge feature={item.feature} label={item.soonLabel} tone={tone} />
          </>
        ) : null}
      </span>
    </li>
  );
}

export function FeatureSection() {
  const isAvailable = useIsAvailable();
  return (
    <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
        Everything your meetings need
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600 dark:text-slate-400">
        {isAvailable(...AI_FEATURES)
          ? 'HD video in the browser, nothing to install, and an AI assistant that takes the notes.'
          : 'HD video in the browser, nothing to install, and soon an AI assistant that takes the notes.'}
      </p>
      <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon: Icon, title, text, feature, soonLabel }) => (
          <div
            key={title}
            data-testid="feature"
            className="flex gap-4 rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-900/50 dark:text-brand-200">
              <Icon className="size-5" />
            </span>
            <div>
              <h3 className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold">
                {title}
                {feature ? <ComingSoonBadge feature={feature} label={soonLabel} /> : null}
              </h3>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{text}</p>
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

/** The promo's sentence: what Pro gives today first, then what is still coming (FEATURE_AVAILABILITY). */
function promoSentence(isAvailable: (...f: Feature[]) => boolean): string {
  const ai = isAvailable(...AI_FEATURES);
  const large = isAvailable('largeMeetings');
  const aiText = 'live transcription, translation and summaries with action items and decisions';
  const largeText = `up to ${PRO_PLAN.marketingMaxParticipants} participants`;
  if (ai && large)
    return `Live transcription, translation and summaries with action items and decisions, unlimited meeting time and ${largeText}.`;
  const today = ['Unlimited meeting time', ...(ai ? [aiText] : []), ...(large ? [largeText] : [])].join(', ');
  const soon = [...(ai ? [] : [aiText]), ...(large ? [] : [`meetings of ${largeText}`])].join('; ');
  return `${today}. Coming soon: ${soon}.`;
}

export function SuperchargePromo() {
  const isAvailable = useIsAvailable();
  return (
    <section aria-labelledby="supercharge-title" className="mx-auto max-w-6xl px-4 sm:px-6">
      <div className="relative overflow-hidden rounded-3xl bg-gradient-to-r from-brand-700 via-brand-600 to-fuchsia-600 p-8 text-white shadow-xl sm:p-12">
        <div className="grid items-center gap-8 lg:grid-cols-[1.4fr_1fr]">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full bg-white/15 px-3 py-1 text-sm font-medium">
              <Sparkles className="size-4" /> Pro plan
            </p>
            <h2 id="supercharge-title" className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">
              Supercharge your meetings with AI
            </h2>
            <p className="mt-3 max-w-xl text-brand-100">{promoSentence(isAvailable)}</p>
            <ul className="mt-5 grid gap-2 text-sm sm:grid-cols-2" data-testid="promo-features">
              {PROMO_ITEMS.map((item) => (
                <MarketingLine key={item.text} item={item} tone="dark" />
              ))}
            </ul>
            <AiInDevelopmentNote className="mt-5 max-w-xl rounded-lg bg-white/10 p-3 text-white" />
          </div>
          <div className="rounded-2xl bg-white/10 p-6 text-center backdrop-blur">
            <p className="text-sm text-brand-100">
              <span className="line-through">${PRO_PLAN.strikePriceLabel}</span>{' '}
              <span className="ml-1 rounded-full bg-amber-400 px-2 py-0.5 text-xs font-bold text-slate-900">
                {PRO_PLAN.discountLabel}
              </span>
            </p>
            <p className="mt-2 text-5xl font-black">
              ${PRO_PLAN.priceLabel}
              <span className="text-lg font-medium text-brand-100">/month</span>
            </p>
            <p className="mt-1 text-sm text-brand-100">Cancel anytime</p>
            <Button asChild size="lg" variant="secondary" className="mt-5 w-full">
              <Link to="/subscribe">
                <Sparkles /> Unlock AI Features
              </Link>
            </Button>
          </div>
        </div>
      </div>
    </section>
  );
}

export function DeveloperToolsCard() {
  return (
    <section aria-labelledby="devtools-title" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <Card>
        <CardContent className="flex flex-col gap-4 p-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="flex items-start gap-4">
            <span className="grid size-10 shrink-0 place-items-center rounded-xl bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              <Wrench className="size-5" />
            </span>
            <div>
              <h2 id="devtools-title" className="text-lg font-semibold">
                Developer Tools
              </h2>
              <p className="text-sm text-slate-600 dark:text-slate-400">
                Check your camera and video before a meeting.
              </p>
            </div>
          </div>
          <Button asChild variant="secondary">
            <Link to="/video-test">
              <Camera /> Test Camera &amp; Video
            </Link>
          </Button>
        </CardContent>
      </Card>
    </section>
  );
}

export function Testimonials() {
  return (
    <section aria-labelledby="testimonials-title" className="bg-white py-16 dark:bg-slate-900/40">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h2 id="testimonials-title" className="text-center text-3xl font-bold tracking-tight">
          Loved by teams everywhere
        </h2>
        <p className="mt-3 text-center text-slate-600 dark:text-slate-400">
          Rated {MARKETING_FIGURES.rating} from {MARKETING_FIGURES.ratingCount} users
        </p>
        <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name} data-testid="testimonial">
              <figure className="flex h-full flex-col rounded-2xl border border-slate-200 bg-slate-50 p-5 dark:border-slate-800 dark:bg-slate-900">
                <div
                  className="flex gap-0.5 text-amber-400"
                  role="img"
                  aria-label={`Rated ${t.rating} out of 5`}
                >
                  {Array.from({ length: t.rating }, (_, i) => (
                    <Star key={i} className="size-4 fill-current" />
                  ))}
                </div>
                <blockquote className="mt-3 flex-1 text-sm text-slate-700 dark:text-slate-300">
                  “{t.text}”
                </blockquote>
                <figcaption className="mt-4 flex items-center gap-3">
                  <span
                    aria-hidden="true"
                    className="grid size-10 place-items-center rounded-full bg-gradient-to-br from-brand-500 to-fuchsia-500 text-sm font-bold text-white"
                  >
                    {t.initials}
                  </span>
                  <span className="text-sm">
                    <span className="block font-semibold">{t.name}</span>
                    <span className="text-slate-500">
                      {t.role}, {t.company}
                    </span>
                  </span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function AiMarketing() {
  const isAvailable = useIsAvailable();
  // The spec's "99.2% transcription accuracy" is not what this server's engine does: the figure
  // shown is the one measured for the engine it runs, or none (issue 37 item 10).
  const accuracy = useAiCapabilities().data?.transcription.wordAccuracy ?? null;
  const figures = [
    { icon: Clock, value: `${MARKETING_FIGURES.hoursSavedPerWeek} hours`, label: 'saved per week' },
    { icon: TrendingUp, value: MARKETING_FIGURES.usersSaving4Hours, label: 'of users save 4+ hours' },
    ...(accuracy
      ? [
          {
            icon: Target,
            value: `${accuracy.percent}%`,
            label: `of words transcribed right (measured on ${accuracy.measuredOn})`,
          },
        ]
      : []),
    { icon: Sparkles, value: MARKETING_FIGURES.efficiencyBoost, label: 'efficiency boost' },
  ];
  return (
    <section aria-labelledby="ai-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
      <div className="grid items-center gap-10 lg:grid-cols-2">
        <div>
          <h2 id="ai-title" className="flex flex-wrap items-center gap-3 text-3xl font-bold tracking-tight">
            Your AI meeting assistant{' '}
            <ComingSoonBadge feature={AI_FEATURES} className="text-xs tracking-normal" />
          </h2>
          <p className="mt-3 text-slate-600 dark:text-slate-400">
            {isAvailable(...AI_FEATURES)
              ? 'Parley listens so you can take part. It writes the transcript as people speak, translates it for everyone who needs it, and hands you a summary with the action items and the decisions when the meeting ends.'
              : 'Soon Parley will listen so you can take part: it will write the transcript as people speak, translate it for everyone who needs it, and hand you a summary with the action items and the decisions when the meeting ends.'}
          </p>
          <ul className="mt-5 space-y-2 text-sm" data-testid="ai-features">
            {AI_ITEMS.map((item) => (
              <MarketingLine key={item.text} item={item} tone="light" />
            ))}
          </ul>
        </div>
        <dl className="grid grid-cols-2 gap-4">
          {figures.map(({ icon: Icon, value, label }) => (
            <div
              key={label}
              className="rounded-2xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
            >
              <Icon className="size-5 text-brand-600" />
              <dt className="sr-only">{label}</dt>
              <dd className="mt-2 text-3xl font-black tracking-tight">{value}</dd>
              <dd className="text-sm text-slate-600 dark:text-slate-400">{label}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
