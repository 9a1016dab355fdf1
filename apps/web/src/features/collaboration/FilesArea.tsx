import { Download, FileText, Upload } from 'lucide-react';
import { useRef, useState } from 'react';
import { useUploadFile } from '@/features/room/api';
import { useRoomContext } from '@/features/room/room-context';
import { ApiError } from '@/lib/api';
import { useMeetingFiles } from './files-api';

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const formatWhen = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/**
 * The meeting's files area: everything shared in the meeting (chat attachments and files uploaded
 * here), who shared it and when, each downloadable; new ones appear as they are shared.
 */
export default function FilesArea() {
  const { session } = useRoomContext();
  const files = useMeetingFiles(session.meetingId, session.joinToken, session.signal);
  const upload = useUploadFile(session.meetingId, session.joinToken);
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);

  async function share(file: File | undefined) {
    if (!file) return;
    setError(null);
    try {
      await upload.mutateAsync(file);
    } catch (err) {
      setError(
        err instanceof ApiError
          ? err.serverMessage || 'The file could not be shared'
          : 'The file could not be shared',
      );
    } finally {
      if (input.current) input.current.value = '';
    }
  }

  return (
    <div className="flex h-full min-h-0 flex-col text-slate-100" data-testid="files-area">
      <div className="flex items-center gap-2 border-b border-white/10 px-3 py-2">
        <p className="flex-1 text-xs text-slate-400">Everything shared in this meeting</p>
        <input
          ref={input}
          type="file"
          className="sr-only"
          aria-label="Choose a file to share"
          data-testid="files-input"
          onChange={(e) => void share(e.target.files?.[0])}
        />
        <button
          type="button"
          onClick={() => input.current?.click()}
          disabled={upload.isPending}
          className="flex items-center gap-1.5 rounded-lg bg-brand-600 px-3 py-2 text-xs font-medium text-white hover:bg-brand-500 disabled:opacity-60 md:py-1.5"
        >
          <Upload className="size-3.5" /> {upload.isPending ? 'Sharing...' : 'Share a file'}
        </button>
      </div>
      {error ? (
        <p role="alert" className="bg-red-500/15 px-3 py-2 text-xs text-red-200">
          {error}
        </p>
      ) : null}
      <div className="min-h-0 flex-1 overflow-y-auto p-2">
        {files.isPending ? <p className="p-2 text-sm text-slate-400">Loading...</p> : null}
        {files.isError ? (
          <p role="alert" className="p-2 text-sm text-red-300">
            The files could not be loaded.{' '}
            <button type="button" className="underline" onClick={() => void files.refetch()}>
              Try again
            </button>
          </p>
        ) : null}
        {files.data && files.data.length === 0 ? (
          <p className="p-4 text-center text-sm text-slate-400">
            No files yet. Files shared here or in the chat appear for everyone.
          </p>
        ) : null}
        <ul className="space-y-1" aria-label="Shared files">
          {files.data?.map((f) => (
            <li key={f.id} data-testid="shared-file">
              <a
                href={f.url}
                download={f.name}
                className="flex items-center gap-3 rounded-lg px-3 py-2 hover:bg-white/10"
                title={`Download ${f.name}`}
              >
                <FileText className="size-5 shrink-0 text-brand-300" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm">{f.name}</span>
                  <span className="block truncate text-xs text-slate-400">
                    {f.uploaderName} · {formatWhen(f.sharedAt)} · {formatSize(f.size)}
                  </span>
                </span>
                <Download className="size-4 shrink-0" aria-label="Download" />
              </a>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
