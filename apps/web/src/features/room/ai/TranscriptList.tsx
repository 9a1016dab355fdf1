import { TRANSLATION_LANGUAGE_NAMES } from '@parley/protocol/constants';
import { useLayoutEffect, useRef } from 'react';
import type { InterimEntry, TranscriptEntry } from './captions';

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Within this of the bottom, the list follows new lines (as a chat does); above it, it stays. */
const FOLLOW_PX = 48;

/**
 * Live Transcripts (spec §2): speaker, time, the original with its language, the translation,
 * oldest first as in a chat, the words being spoken now at the bottom until their line comes.
 */
export function TranscriptList({
  lines,
  interim = [],
  active,
}: {
  lines: TranscriptEntry[];
  interim?: InterimEntry[];
  active: boolean;
}) {
  // Keeps the box at its bottom as entries come, unless the reader scrolled up to read (decided
  // before the new entries are laid out).
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const shown = `${lines.at(-1)?.id}|${interim.map((i) => `${i.segmentId}:${i.text}`).join()}`;
  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [shown]);
  if (lines.length === 0 && interim.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-white/15 p-4 text-center text-xs text-slate-400">
        <p className="font-medium text-slate-300">No transcripts yet</p>
        <p className="mt-1">
          {active
            ? 'Speak and your words appear here within a couple of seconds.'
            : 'Start transcription, then speak: what everyone says appears here.'}
        </p>
      </div>
    );
  }
  return (
    <div
      ref={box}
      onScroll={(e) => {
        const el = e.currentTarget;
        atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
      }}
      data-testid="transcript-scroll"
      className="min-h-0 flex-1 overflow-y-auto pr-1"
    >
      <ol aria-label="Live transcripts" aria-live="polite" className="space-y-2">
        {lines.map((l) =>
          l.kind === 'notice' ? (
            // The room's own line about the transcription (who declined): not speech.
            <li
              key={l.id}
              data-testid="transcript-notice"
              className="flex items-baseline gap-2 rounded-lg border border-dashed border-white/15 px-2.5 py-1.5 text-xs italic text-slate-300"
            >
              <time dateTime={l.timestamp} className="not-italic text-slate-400">
                {timeOf(l.timestamp)}
              </time>
              <span>{l.originalText}</span>
            </li>
          ) : (
            <li key={l.id} data-testid="transcript-line" className="rounded-lg bg-white/5 p-2.5 text-sm">
              <div className="mb-0.5 flex items-center gap-2 text-xs text-slate-400">
                <span className="font-semibold text-slate-200">{l.speakerName}</span>
                <time dateTime={l.timestamp}>{timeOf(l.timestamp)}</time>
                <span
                  className="rounded bg-white/10 px-1 uppercase"
                  title={
                    TRANSLATION_LANGUAGE_NAMES[l.language as keyof typeof TRANSLATION_LANGUAGE_NAMES] ??
                    l.language
                  }
                >
                  {l.language}
                </span>
              </div>
              <p data-testid="transcript-original" className="text-slate-100">
                {l.originalText}
              </p>
              {l.translatedText ? (
                <p
                  data-testid="transcript-translation"
                  lang={l.translationLanguage ?? undefined}
                  className="mt-1 text-brand-200"
                >
                  <span className="mr-1 rounded bg-brand-500/20 px-1 text-[10px] uppercase">
                    {l.translationLanguage}
                  </span>
                  {l.translatedText}
                </p>
              ) : l.translationError === 'unsupported' ? (
                <p className="mt-1 text-xs text-amber-300">
                  This line cannot be translated into your language on this server.
                </p>
              ) : l.translationError === 'failed' ? (
                <p className="mt-1 text-xs text-amber-300">The translation of this line failed.</p>
              ) : null}
            </li>
          ),
        )}
      </ol>
      {interim.length ? (
        // Not in the live region: screen readers hear the final line, not every interim word.
        <ul aria-label="Being said now" className="mt-2 space-y-2">
          {interim.map((i) => (
            <li
              key={i.segmentId}
              data-testid="transcript-interim"
              className="rounded-lg border border-dashed border-white/10 p-2.5 text-sm"
            >
              <div className="mb-0.5 flex items-center gap-2 text-xs text-slate-400">
                <span className="font-semibold text-slate-300">{i.speakerName}</span>
                <span>speaking…</span>
              </div>
              <p className="italic text-slate-300">{i.text}</p>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
