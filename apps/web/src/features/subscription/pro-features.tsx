import { AI_FEATURES, FEATURE_AVAILABILITY, PRO_PLAN, type Feature } from '@parley/protocol/constants';
import { Check, Clock, Construction } from 'lucide-react';
import { ComingSoonBadge, useIsAvailable } from '@/components/ui/coming-soon';
import { cn } from '@/lib/cn';

export interface ProFeature {
  text: string;
  /** The feature(s) the line needs; a line without one works today. */
  feature?: Feature | readonly Feature[];
  /** Said under the line while its feature is missing. */
  meanwhile?: string;
}

/** What the Pro plan is sold with (spec §1): the plan card, the success page. */
export const PRO_FEATURES: readonly ProFeature[] = [
  { text: 'Live transcription of every speaker', feature: 'transcription' },
  { text: 'Live translation with cultural context', feature: 'translation' },
  { text: 'AI meeting summaries with action items and decisions', feature: 'summaries' },
  { text: 'Unlimited meeting duration' },
  {
    text: `Up to ${PRO_PLAN.marketingMaxParticipants} participants`,
    feature: 'largeMeetings',
    meanwhile:
      'Meetings of three or more already run through our video server; larger meetings are still being tested.',
  },
  { text: 'PDF export and meeting analytics', feature: ['pdfExport', 'analytics'] },
];

/** One line of the plan: a check, the text, and "Coming soon" (with what works meanwhile) until it works. */
export function ProFeatureItem({ item, className }: { item: ProFeature; className?: string }) {
  const isAvailable = useIsAvailable();
  const features = featuresOf(item);
  const ready = isAvailable(...features);
  return (
    <li className={className}>
      <span className="flex items-start gap-2">
        {ready ? (
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
        ) : (
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
        )}
        <span>
          {item.text} <ComingSoonBadge feature={features} />
          {item.meanwhile && !ready ? (
            <span className="block text-xs text-slate-500 dark:text-slate-400">{item.meanwhile}</span>
          ) : null}
        </span>
      </span>
    </li>
  );
}

function featuresOf(item: ProFeature): readonly Feature[] {
  if (item.feature === undefined) return [];
  return typeof item.feature === 'string' ? [item.feature] : item.feature;
}

const AI_NAMES: Partial<Record<Feature, string>> = {
  transcription: 'live transcription',
  translation: 'live translation',
  summaries: 'AI summaries',
};

function listing(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The one plain line wherever Pro is sold, so that nobody pays believing the AI works today; null
 * once every AI feature's flag is on.
 */
export function aiInDevelopmentText(): string | null {
  const missing = AI_FEATURES.filter((f) => !FEATURE_AVAILABILITY[f]).map((f) => AI_NAMES[f] ?? f);
  if (missing.length === 0) return null;
  const what = listing(missing);
  return `${what.charAt(0).toUpperCase()}${what.slice(1)} ${missing.length > 1 ? 'are' : 'is'} still in development. Today Pro lets you create and schedule meetings.`;
}

export function AiInDevelopmentNote({ className }: { className?: string }) {
  const text = aiInDevelopmentText();
  if (!text) return null;
  return (
    <p data-testid="ai-in-development" className={cn('flex items-start gap-2 text-sm', className)}>
      <Construction aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{text}</span>
    </p>
  );
}
