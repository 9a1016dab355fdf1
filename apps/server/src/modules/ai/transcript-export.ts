import type { TranscriptLine } from '@parley/protocol';

/**
 * A meeting's transcript as the files subtitle users and video tools expect (issue 35 item 4):
 * WebVTT (speakers as `<v>` voice spans) and SubRip (speaker before the words), timed from the
 * first spoken line (00:00:00), and plain text with wall-clock times in the meeting's time zone.
 * Lines about the transcription itself (kind `notice`: who declined) are in the text only: they
 * were not said.
 */
export const TRANSCRIPT_EXPORT_FORMATS = ['vtt', 'srt', 'txt'] as const;
export type TranscriptExportFormat = (typeof TRANSCRIPT_EXPORT_FORMATS)[number];

export const TRANSCRIPT_CONTENT_TYPES: Record<TranscriptExportFormat, string> = {
  vtt: 'text/vtt; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** A cue shows at least this long, so a one-word line can be read. */
const MIN_CUE_MS = 1000;

/** meeting-transcript-{meetingId}-{YYYY-MM-DD}.{ext}, like the summary's file names. */
export const transcriptFileName = (meetingId: string, date: Date, ext: TranscriptExportFormat) =>
  `meeting-transcript-${meetingId}-${date.toISOString().slice(0, 10)}.${ext}`;

/** hh:mm:ss.mmm (WebVTT) or hh:mm:ss,mmm (SubRip). */
function clock(ms: number, sep: '.' | ','): string {
  const t = Math.max(0, Math.round(ms));
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${sep}${pad(t % 1000, 3)}`;
}

/** One line of cue text: no line breaks inside a cue, nothing that reads as a cue timing. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/-->/g, '→').trim();

/** WebVTT cue text escapes &, < and > (they start entities and tags). */
const vttEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Cue {
  startMs: number;
  endMs: number;
  speaker: string;
  text: string;
}

function cuesOf(lines: TranscriptLine[]): Cue[] {
  const speech = lines
    .filter((l) => l.kind !== 'notice' && oneLine(l.originalText) !== '')
    .map((l) => ({ l, start: Date.parse(l.startedAt), end: Date.parse(l.endedAt) }))
    .filter((x) => Number.isFinite(x.start))
    .sort((a, b) => a.start - b.start);
  const origin = speech[0]?.start ?? 0;
  return speech.map(({ l, start, end }) => {
    const startMs = start - origin;
    const endMs = Math.max(Number.isFinite(end) ? end - origin : startMs, startMs + MIN_CUE_MS);
    return { startMs, endMs, speaker: oneLine(l.speakerName), text: oneLine(l.originalText) };
  });
}

/** The time of day of an ISO instant in a time zone (HH:MM:SS), UTC when the zone is unknown. */
function timeIn(iso: string, timeZone: string): string {
  const format = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    }).format(new Date(iso));
  try {
    return format(timeZone);
  } catch {
    return format('UTC');
  }
}

export function transcriptExport(
  lines: TranscriptLine[],
  format: TranscriptExportFormat,
  meeting: { title: string; timezone: string },
): string {
  if (format === 'vtt') {
    const cues = cuesOf(lines).map(
      (c, i) =>
        `${i + 1}\n${clock(c.startMs, '.')} --> ${clock(c.endMs, '.')}\n` +
        `<v ${vttEscape(c.speaker)}>${vttEscape(c.text)}</v>`,
    );
    return ['WEBVTT', `NOTE ${vttEscape(oneLine(meeting.title))}`, ...cues].join('\n\n') + '\n';
  }
  if (format === 'srt') {
    return cuesOf(lines)
      .map(
        (c, i) => `${i + 1}\n${clock(c.startMs, ',')} --> ${clock(c.endMs, ',')}\n${c.speaker}: ${c.text}\n`,
      )
      .join('\n');
  }
  const rows = [...lines]
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
    .map((l) =>
      l.kind === 'notice'
        ? `[${timeIn(l.startedAt, meeting.timezone)}] (${oneLine(l.originalText)})`
        : `[${timeIn(l.startedAt, meeting.timezone)}] ${oneLine(l.speakerName)}: ${oneLine(l.originalText)}`,
    );
  return [`${oneLine(meeting.title)} (times in ${meeting.timezone})`, '', ...rows].join('\n') + '\n';
}
