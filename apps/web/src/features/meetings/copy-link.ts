import { COPIED_NOTICE_MS } from '@parley/protocol/constants';
import { useCallback, useEffect, useState } from 'react';

/** The link that opens a meeting, to share with others. */
export function shareLink(origin: string, meetingId: string): string {
  return `${origin}/meeting/${meetingId}`;
}

/**
 * Copies a meeting's link to the clipboard; `copied` stays true for the spec's notice time after
 * each copy. `copy()` answers false when the browser refused, so the caller can offer another way.
 */
export function useCopyMeetingLink(meetingId: string) {
  const link = shareLink(window.location.origin, meetingId);
  // Bumped by each copy, so a second copy restarts the notice.
  const [copies, setCopies] = useState(0);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (copies === 0) return;
    const t = setTimeout(() => setCopied(false), COPIED_NOTICE_MS);
    return () => clearTimeout(t);
  }, [copies]);
  const copy = useCallback(async (): Promise<boolean> => {
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      return false;
    }
    setCopied(true);
    setCopies((n) => n + 1);
    return true;
  }, [link]);
  return { link, copied, copy };
}
