import type { ServerFeatures } from '@parley/protocol';
import { FEATURE_AVAILABILITY, type Feature } from '@parley/protocol/constants';
import { QueryClient, QueryClientContext, useQuery } from '@tanstack/react-query';
import { useCallback, useContext } from 'react';
import { apiRequest } from '@/lib/api';
import { cn } from '@/lib/cn';

/** True when every named feature is built (FEATURE_AVAILABILITY); pages use useIsAvailable. */
export function isAvailable(...features: Feature[]): boolean {
  return features.every((f) => FEATURE_AVAILABILITY[f]);
}

export const SERVER_FEATURES_KEY = ['/api/features'] as const;

/** What the running server does (GET /api/features); undefined until it answered. */
export function useServerFeatures(): ServerFeatures | undefined {
  // A badge may render outside the app's QueryClientProvider (a component on its own in a test,
  // a portal): it then asks through a client of its own.
  const client = useContext(QueryClientContext) ?? fallbackClient;
  return useQuery(
    {
      queryKey: SERVER_FEATURES_KEY,
      queryFn: () => apiRequest<ServerFeatures>('GET', '/api/features'),
      staleTime: 60_000,
      retry: 1,
    },
    client,
  ).data;
}
const fallbackClient = new QueryClient();

/**
 * `isAvailable` for pages: a feature works when the build has it AND this server runs what it
 * needs (issue 37 item 10: a server without a speech engine or Janus must not promise them).
 * Until the server answers, the build's word stands (a page does not flicker on a normal server).
 */
export function useIsAvailable(): (...features: Feature[]) => boolean {
  const server = useServerFeatures();
  return useCallback(
    (...features: Feature[]) =>
      features.every((f) => FEATURE_AVAILABILITY[f] && (server?.features?.[f] ?? true)),
    [server],
  );
}

/**
 * "Coming soon" beside a feature a page names but that does not work yet (not built, or not on
 * this server); renders nothing once it works. With several features it shows while any of
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
  const available = useIsAvailable();
  const features: readonly Feature[] = typeof feature === 'string' ? [feature] : feature;
  if (available(...features)) return null;
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
