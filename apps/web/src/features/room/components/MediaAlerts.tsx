import { MicOff, VideoOff, X } from 'lucide-react';
import { useState } from 'react';
import { cn } from '@/lib/cn';
import { useLocalMedia } from '../hooks';
import type { LocalMedia } from '../media/local-media';

/**
 * The camera's and microphone's failures (spec §8) as alerts that stay until the person dismisses
 * them or Retry works: a toast would be gone (or replaced by the joined toast) before anyone read
 * why nobody hears them. Shown in the pre-join dialog and in the room.
 */
export function MediaAlerts({ media, className }: { media: LocalMedia; className?: string }) {
  const snap = useLocalMedia(media);
  /** Dismissed alerts by device and text: a different failure of the same device shows again. */
  const [dismissed, setDismissed] = useState<readonly string[]>([]);
  const [retrying, setRetrying] = useState(false);

  const alerts = [
    snap.micError ? { device: 'Microphone', text: snap.micError, Icon: MicOff } : null,
    snap.cameraError ? { device: 'Camera', text: snap.cameraError, Icon: VideoOff } : null,
  ]
    .filter((a) => a !== null)
    .map((a) => ({ ...a, key: `${a.device}:${a.text}` }))
    .filter((a) => !dismissed.includes(a.key));
  if (alerts.length === 0) return null;

  const retry = () => {
    setRetrying(true);
    media
      .retry()
      .catch((err: unknown) => console.warn('Retry of camera and microphone failed', err))
      .finally(() => setRetrying(false));
  };

  return (
    <div className={cn('grid gap-2', className)} data-testid="media-alerts">
      {alerts.map(({ key, device, text, Icon }) => (
        <div
          key={key}
          role="alert"
          aria-label={`${device} problem`}
          className="pointer-events-auto flex items-center gap-2 rounded-xl bg-red-600 px-3 py-2 text-sm text-white shadow-lg ring-1 ring-red-400/40"
        >
          <Icon aria-hidden className="size-4 shrink-0" />
          <p className="min-w-0 flex-1 leading-snug">{text}</p>
          <button
            type="button"
            onClick={retry}
            disabled={retrying}
            className="h-8 shrink-0 rounded-md bg-white/15 px-3 text-xs font-semibold hover:bg-white/25 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white disabled:opacity-60"
          >
            {retrying ? 'Retrying...' : 'Retry'}
          </button>
          <button
            type="button"
            aria-label={`Dismiss the ${device.toLowerCase()} alert`}
            onClick={() => setDismissed((d) => [...d, key])}
            className="grid size-8 shrink-0 place-items-center rounded-md hover:bg-white/15 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
          >
            <X aria-hidden className="size-4" />
          </button>
        </div>
      ))}
    </div>
  );
}
