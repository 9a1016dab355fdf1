import type { Recording } from '@parley/protocol';
import { RECORDING_TEXTS } from '@parley/protocol/texts';
import { AlertTriangle, Download, Loader2, Play, Trash2, Video } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast-store';
import { useDeleteRecording } from './api';
import { formatBytes, formatDuration } from './recording-format';

const when = (r: Recording) =>
  new Date(r.startedAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * A finished recording played in the app (the file streamed with byte ranges, so it seeks at
 * once), with its download beside it.
 */
export function RecordingPlayer({ recording }: { recording: Recording }) {
  if (!recording.playUrl) return null;
  return (
    <video
      data-testid="recording-player"
      controls
      preload="metadata"
      src={recording.playUrl}
      className="aspect-video w-full rounded-lg bg-black"
    >
      <track kind="captions" />
    </video>
  );
}

/**
 * A meeting's recordings on its card in My Meetings: play in the app, download or delete when
 * ready, else its state.
 */
export function RecordingList({ recordings }: { recordings: Recording[] }) {
  const [playing, setPlaying] = useState<Recording | null>(null);
  const [deleting, setDeleting] = useState<Recording | null>(null);
  const remove = useDeleteRecording();
  if (recordings.length === 0) return null;
  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toast({ title: 'Recording deleted' });
        setDeleting(null);
      },
      onError: (err) => toast({ title: 'Could not delete the recording', description: err.message }),
    });
  };
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
              {when(r)}
              {r.status === 'ready' && r.durationSeconds !== null
                ? ` · ${formatDuration(r.durationSeconds)}${r.size !== null ? ` · ${formatBytes(r.size)}` : ''}`
                : ''}
            </span>
            {r.status === 'ready' && r.downloadUrl ? (
              <span className="flex flex-wrap gap-2">
                {r.playUrl ? (
                  <Button size="sm" onClick={() => setPlaying(r)} data-testid="recording-play">
                    <Play /> Play
                  </Button>
                ) : null}
                <Button asChild size="sm" variant="secondary">
                  <a href={r.downloadUrl} download data-testid="recording-download">
                    <Download /> Download
                  </a>
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Delete the recording of ${when(r)}`}
                  onClick={() => setDeleting(r)}
                  data-testid="recording-delete"
                >
                  <Trash2 />
                </Button>
              </span>
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
      <Dialog
        open={playing !== null}
        onOpenChange={(open) => !open && setPlaying(null)}
        title={playing ? `Recording of ${when(playing)}` : 'Recording'}
        className="max-w-4xl"
      >
        {playing ? <RecordingPlayer recording={playing} /> : null}
      </Dialog>
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete this recording?"
        description="The file is deleted for good, and its space is free for new recordings."
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setDeleting(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={confirmDelete}
            disabled={remove.isPending}
            data-testid="recording-delete-confirm"
          >
            Delete recording
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
