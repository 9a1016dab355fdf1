import { FEATURE_AVAILABILITY, type Feature } from '@parley/protocol/constants';
import { cn } from '@/lib/cn';

/** True when every named feature works today (FEATURE_AVAILABILITY, read at render time). */
export function isAvailable(...features: Feature[]): boolean {
  return features.every((f) => FEATURE_AVAILABILITY[f]);
}

/**
 * "Coming soon" beside a feature a page names but that does not work yet; renders nothing once the
 * feature's flag in FEATURE_AVAILABILITY is flipped. With several features it shows while any of
 * them is missing. `label` names the missing part when only part of a line is unbuilt.
 */
export function ComingSoonBadge({
  feature,
  label = 'Coming soon',
  tone = 'light',
  className,
}: {
  feature: Feature | readonly Feature[];
  label?: string;
  /** 'dark' on coloured or dark backgrounds (the hero, the Pro promo). */
  tone?: 'light' | 'dark';
  className?: string;
}) {
  const features: readonly Feature[] = typeof feature === 'string' ? [feature] : feature;
  if (isAvailable(...features)) return null;
  return (
    <span
      data-coming-soon=""
      className={cn(
        'inline-flex shrink-0 items-center whitespace-nowrap rounded-full px-2 py-0.5 align-middle text-[11px] font-semibold leading-4',
        tone === 'dark'
          ? 'bg-white/20 text-white ring-1 ring-inset ring-white/30'
          : 'bg-amber-100 text-amber-800 ring-1 ring-inset ring-amber-200 dark:bg-amber-900/60 dark:text-amber-100 dark:ring-amber-800',
        className,
      )}
    >
      {label}
    </span>
  );
}
