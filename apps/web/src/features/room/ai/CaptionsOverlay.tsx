import { loadPreferences } from '../preferences';
import { useCaptions } from './hooks';

/**
 * Captions over the video while transcription is on and the tools are closed (as Meet and Zoom
 * show them): the latest line, with this listener's translation under it, and under that the
 * words being spoken now (interim, in a lighter style) until their line replaces them. Lines older
 * than the last one are in Meeting Tools. The Settings switch "AI features" turns the overlay off.
 */
export function CaptionsOverlay() {
  const { transcription, lines, interim } = useCaptions();
  // Speech only: a notice (who declined) is in the Tools panel's list, not over the video.
  const last = lines.findLast((l) => l.kind !== 'notice');
  // The last two segments being spoken (two people talking at once), newest last.
  const now = interim.slice(-2);
  // Settings › Account › AI features off: no captions over the video (read at each new line).
  if (!transcription.active || (!last && now.length === 0) || !loadPreferences().aiEnabled) return null;
  return (
    <div
      data-testid="captions-overlay"
      aria-hidden // the Tools panel's list is the accessible one (aria-live)
      className="pointer-events-none mx-auto mb-1 w-full max-w-3xl space-y-1 rounded-lg bg-black/70 px-3 py-2 text-center text-sm text-white sm:text-base"
    >
      {last ? (
        <div data-testid="captions-final">
          <span className="mr-1 font-semibold text-sky-200">{last.speakerName}:</span>
          {last.originalText}
          {last.translatedText ? <p className="mt-0.5 text-brand-200">{last.translatedText}</p> : null}
        </div>
      ) : null}
      {now.map((i) => (
        <p key={i.segmentId} data-testid="captions-interim" className="text-slate-200">
          <span className="mr-1 font-semibold text-sky-200/80">{i.speakerName}:</span>
          <span className="italic">{i.text}</span>
          <span aria-hidden className="ml-0.5 animate-pulse text-slate-400">
            …
          </span>
        </p>
      ))}
    </div>
  );
}
