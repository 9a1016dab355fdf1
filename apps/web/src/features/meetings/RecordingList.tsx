import type { Recording } from '@parley/protocol';
import { RECORDING_TEXTS } from '@parley/protocol/texts';
import { AlertTriangle, Download, Loader2, Video } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatBytes, formatDuration } from './recording-format';

/** A meeting's recordings on its card in My Meetings: download when ready, else its state. */
export function RecordingList({ recordings }: { recordings: Recording[] }) {
  if (recordings.length === 0) return null;
  return (
    <section aria-label="Recordings" className="grid gap-2 rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
      <h4 className="flex items-center gap-1.5 text-sm font-semibold">
        <Video className="size-4" /> Recordings
      </h4>
      <ul className="grid gap-2">
        {recordings.map((r) => (
          <li
            key={r.id}
            data-testid="recording-item"
            data-status={r.status}
            className="flex flex-wrap items-center justify-between gap-2 text-sm"
          >
            <span className="min-w-0 text-slate-600 dark:text-slate-300">
              {new Date(r.startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}
              {r.status === 'ready' && r.durationSeconds !== null
                ? ` · ${formatDuration(r.durationSeconds)}${r.size !== null ? ` · ${formatBytes(r.size)}` : ''}`
                : ''}
            </span>
            {r.status === 'ready' && r.downloadUrl ? (
              <Button asChild size="sm" variant="secondary">
                <a href={r.downloadUrl} download data-testid="recording-download">
                  <Download /> Download
                </a>
              </Button>
            ) : r.status === 'failed' ? (
              <span
                role="status"
                className="flex items-center gap-1 text-red-600"
                title={r.error ?? undefined}
              >
                <AlertTriangle className="size-4" /> {RECORDING_TEXTS.failed}
              </span>
            ) : (
              <span role="status" className="flex items-center gap-1 text-slate-500">
                <Loader2 className="size-4 animate-spin" />
                {r.status === 'recording' ? RECORDING_TEXTS.indicator : RECORDING_TEXTS.processing}
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
