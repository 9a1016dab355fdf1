import type { MeetingSummary } from '@parley/protocol/ai';

/** Spec §9: meeting-summary-{meetingId}-{date}.txt (date as YYYY-MM-DD). */
export function summaryFileName(meetingId: string, date: Date, ext: 'txt' | 'pdf' = 'txt'): string {
  return `meeting-summary-${meetingId}-${date.toISOString().slice(0, 10)}.${ext}`;
}

/** One action item as a line: the text, then who takes it and by when, when stated. */
export function actionItemLine(a: MeetingSummary['actionItems'][number]): string {
  const extra = [a.owner ? `owner: ${a.owner}` : null, a.due ? `due ${a.due}` : null].filter(Boolean);
  return extra.length ? `${a.text} (${extra.join(', ')})` : a.text;
}

/** Spec §9: the download's sections Overview, Key Points, Action Items, Decisions ('None' when empty). */
export function summaryText(s: MeetingSummary): string {
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : 'None');
  return [
    'Overview',
    s.summary.trim() || 'None',
    '',
    'Key Points',
    list(s.keyPoints.map((k) => k.text)),
    '',
    'Action Items',
    list(s.actionItems.map(actionItemLine)),
    '',
    'Decisions',
    list(s.decisions.map((d) => d.text)),
    '',
  ].join('\n');
}

/** Shows the first `n` and how many more (spec §2: '+N more points', '+N more items'). */
export function firstOf<T>(items: T[], n: number): { shown: T[]; more: number } {
  return { shown: items.slice(0, n), more: Math.max(0, items.length - n) };
}
