import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import { createSummarizer } from '../providers/summaries/index.js';
import { parseTranscript } from '../providers/summaries/transcript-file.js';
import type { AiLog } from '../providers/translation/index.js';

const USAGE = 'usage: npm run ai -- summarize FILE [--date YYYY-MM-DD] [--participants "Name, Name"]';

const log: AiLog = { info: () => undefined, warn: (...args: unknown[]) => console.error(...args) };

/**
 * `npm run ai -- summarize FILE [--date YYYY-MM-DD]`: reads a transcript of `Speaker: text` lines
 * and prints the summary JSON (overview, key points, action items with owners and due dates,
 * decisions; every item's `sources` are line numbers of the file) with the same summariser as the
 * server. Relative dates ("by Friday") resolve from --date, today by default.
 */
export async function summarizeCommand(args: string[], config: Config): Promise<number> {
  const files: string[] = [];
  let date = localToday();
  let participants: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--date') date = args[++i] ?? '';
    else if (arg === '--participants') {
      participants = (args[++i] ?? '')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
    } else files.push(arg);
  }
  if (files.length !== 1 || !/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(date))) {
    console.error(USAGE);
    return 2;
  }
  const [file] = files as [string];

  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    console.error(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const lines = parseTranscript(text, date);
  if (lines.length === 0) {
    console.error(`${file} has no "Speaker: text" lines`);
    return 1;
  }
  const summarizer = createSummarizer(config.ai, log);
  try {
    const summary = await summarizer.summarize({ lines, participants, meetingDate: date });
    console.error(`${summarizer.name}, meeting date ${date}, ${lines.length} lines`);
    console.log(JSON.stringify(summary, null, 2));
    return 0;
  } catch (err) {
    console.error(`cannot summarize ${file}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function localToday(): string {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
