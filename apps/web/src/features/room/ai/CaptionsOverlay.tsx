import { loadPreferences } from '../preferences';
import { useCaptions } from './hooks';

/**
 * Captions over the video while transcription is on and the tools are closed (as Meet and Zoom
 * show them): the latest line, with this listener's translation under it. Lines older than the
 * last line are in Meeting Tools. The Settings switch "AI features" turns the overlay off.
 */
export function CaptionsOverlay() {
  const { transcription, lines } = useCaptions();
  // Speech only: a notice (who declined) is in the Tools panel's list, not over the video.
  const last = lines.findLast((l) => l.kind !== 'notice');
  // Settings › Account › AI features off: no captions over the video (read at each new line).
  if (!transcription.active || !last || !loadPreferences().aiEnabled) return null;
  return (
    <div
      data-testid="captions-overlay"
      aria-hidden // the Tools panel's list is the accessible one (aria-live)
      className="pointer-events-none mx-auto mb-1 w-full max-w-3xl rounded-lg bg-black/70 px-3 py-2 text-center text-sm text-white sm:text-base"
    >
      <span className="mr-1 font-semibold text-sky-200">{last.speakerName}:</span>
      {last.originalText}
      {last.translatedText ? <p className="mt-0.5 text-brand-200">{last.translatedText}</p> : null}
    </div>
  );
}
