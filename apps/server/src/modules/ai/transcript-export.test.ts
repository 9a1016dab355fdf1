import type { TranscriptLine } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { transcriptExport } from './transcript-export.js';

const at = (s: number) => new Date(Date.UTC(2026, 11, 7, 15, 0, s)).toISOString();
const line = (id: string, speakerName: string, text: string, from: number, to: number): TranscriptLine => ({
  id,
  speakerName,
  originalText: text,
  language: 'en',
  startedAt: at(from),
  endedAt: at(to),
});
const meeting = { title: 'Weekly <sync>', timezone: 'Europe/Berlin' };
const lines: TranscriptLine[] = [
  line('2', 'Ben', 'Agreed --> ship it\non Friday.', 65, 65),
  line('1', 'Ana & Co', 'Revenue < costs, sadly.', 5, 9),
  { ...line('3', 'Parley', 'Cy declined transcription.', 30, 30), kind: 'notice' },
];

describe('transcript exports', () => {
  it('WebVTT: timed from the first spoken line, speakers as voices, text escaped, notices left out', () => {
    expect(transcriptExport(lines, 'vtt', meeting)).toBe(
      'WEBVTT\n\nNOTE Weekly &lt;sync&gt;\n\n' +
        '1\n00:00:00.000 --> 00:00:04.000\n<v Ana &amp; Co>Revenue &lt; costs, sadly.</v>\n\n' +
        // A line without length still shows for a second; no cue timing inside the text.
        '2\n00:01:00.000 --> 00:01:01.000\n<v Ben>Agreed → ship it on Friday.</v>\n',
    );
  });

  it('SubRip: numbered cues with comma milliseconds and the speaker before the words', () => {
    expect(transcriptExport(lines, 'srt', meeting)).toBe(
      '1\n00:00:00,000 --> 00:00:04,000\nAna & Co: Revenue < costs, sadly.\n\n' +
        '2\n00:01:00,000 --> 00:01:01,000\nBen: Agreed → ship it on Friday.\n',
    );
  });

  it("text: oldest first with the time of day in the meeting's zone, notices in brackets", () => {
    expect(transcriptExport(lines, 'txt', meeting)).toBe(
      'Weekly <sync> (times in Europe/Berlin)\n\n' +
        '[16:00:05] Ana & Co: Revenue < costs, sadly.\n' +
        '[16:00:30] (Cy declined transcription.)\n' +
        '[16:01:05] Ben: Agreed → ship it on Friday.\n',
    );
  });

  it('an empty transcript is a valid, empty file; an unknown zone falls back to UTC', () => {
    expect(transcriptExport([], 'vtt', meeting)).toBe('WEBVTT\n\nNOTE Weekly &lt;sync&gt;\n');
    expect(transcriptExport([], 'srt', meeting)).toBe('');
    expect(transcriptExport([lines[1]!], 'txt', { title: 'T', timezone: 'Mars/Olympus' })).toContain(
      '[15:00:05] Ana & Co',
    );
  });
});
