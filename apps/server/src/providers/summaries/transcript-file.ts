import type { SourceLine } from './types.js';

/**
 * A transcript file of `Speaker: text` lines (the CLI's and the benchmark's input). Line n of the
 * file gets the id "n", so sources are line numbers; a line without a `Speaker:` prefix continues
 * the previous speaker's turn. Times are invented 20 s apart from 09:00 on the meeting date.
 */
export function parseTranscript(text: string, meetingDate: string): SourceLine[] {
  const start = Date.parse(`${meetingDate.slice(0, 10)}T09:00:00Z`);
  const lines: SourceLine[] = [];
  let speaker = 'Unknown';
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    const m = /^\s*([^:]{1,60}?):\s+(.*)$/.exec(raw);
    if (m) speaker = m[1]!.trim();
    lines.push({
      id: String(index + 1),
      speaker,
      text: (m ? m[2]! : raw).trim(),
      at: new Date((Number.isNaN(start) ? 0 : start) + index * 20_000).toISOString(),
      kind: 'speech',
    });
  });
  return lines;
}
