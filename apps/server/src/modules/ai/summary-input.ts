import type { SourceLine } from '../../providers/summaries/types.js';

/**
 * What one summary reads at most. A 3-hour meeting is ~2,000 transcript lines of ~100 characters
 * and perhaps 1,000 chat messages: all of it fits. A flood does not: a line is read up to
 * `maxLineChars` (a 15 s utterance is ~250 characters; the chat's 4,000-character messages were
 * how the review filled a summary with 540,000 characters in 4 s), and past `maxLines` or
 * `maxChars` the transcript is kept before the chat, the latest lines before the earliest.
 */
export const SUMMARY_INPUT = { maxLines: 4_000, maxLineChars: 600, maxChars: 600_000 } as const;

/** The lines a summary reads, in the order they were said, and how many it left out. */
export function boundSummaryInput(
  sources: readonly SourceLine[],
  limits: { maxLines: number; maxLineChars: number; maxChars: number } = SUMMARY_INPUT,
): { lines: SourceLine[]; skipped: number } {
  const cut = sources.map((line, order) => ({
    order,
    line: { ...line, text: shorten(line.text, limits.maxLineChars) },
  }));
  const byPriority = [
    ...cut.filter((c) => c.line.kind === 'speech').reverse(),
    ...cut.filter((c) => c.line.kind === 'chat').reverse(),
  ];
  const kept: typeof cut = [];
  let chars = 0;
  for (const c of byPriority) {
    if (kept.length >= limits.maxLines) break;
    if (chars + c.line.text.length > limits.maxChars) continue;
    chars += c.line.text.length;
    kept.push(c);
  }
  kept.sort((a, b) => a.order - b.order);
  return { lines: kept.map((c) => c.line), skipped: sources.length - kept.length };
}

/** The text up to `max` characters, cut at a word when there is one near the end. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max * 0.8 ? head.slice(0, space) : head}…`;
}
