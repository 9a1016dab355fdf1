import { Paperclip, PenLine, StickyNote } from 'lucide-react';
import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react';
import { useRoomContext, useRoomState } from '@/features/room/room-context';
import { cn } from '@/lib/cn';
import { CollabClient } from './collab-client';
import { installCollabDebug } from './debug';
import { colorFor } from './whiteboard-sync';

// Excalidraw and TipTap are large: each loads only when its tab is first shown.
const Whiteboard = lazy(() => import('./Whiteboard'));
const Notes = lazy(() => import('./Notes'));
const FilesArea = lazy(() => import('./FilesArea'));

/** One collaboration client per room session, kept while the panel is closed and reopened. */
const clients = new WeakMap<object, CollabClient>();

function useCollabClient(): CollabClient {
  const { session } = useRoomContext();
  let client = clients.get(session);
  if (!client) {
    client = new CollabClient(session.signal);
    clients.set(session, client);
  }
  return client;
}

type Tab = 'whiteboard' | 'notes' | 'files';
const TABS: { id: Tab; label: string; icon: typeof PenLine }[] = [
  { id: 'whiteboard', label: 'Whiteboard', icon: PenLine },
  { id: 'notes', label: 'Notes', icon: StickyNote },
  { id: 'files', label: 'Files', icon: Paperclip },
];

/** The room's collaboration area: the shared whiteboard, notes and files of the meeting. */
export default function CollaborateArea() {
  const client = useCollabClient();
  const room = useRoomState();
  const [tab, setTab] = useState<Tab>('whiteboard');
  const { status, full } = useSyncExternalStore(client.subscribe, client.getSnapshot);
  const self = room.self;
  const selfId = self?.id;
  const selfName = self?.name;
  useEffect(() => {
    if (selfId && selfName) client.setUser(selfName, colorFor(selfId));
  }, [client, selfId, selfName]);
  useEffect(() => installCollabDebug(client), [client]);

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="collaborate" data-collab-status={status}>
      <div
        className="flex items-center gap-1 border-b border-white/10 px-2 py-1"
        role="tablist"
        aria-label="Collaborate"
      >
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            aria-selected={tab === t.id}
            onClick={() => setTab(t.id)}
            className={cn(
              'flex items-center gap-1.5 rounded-lg px-3 py-2 text-xs font-medium md:py-1.5',
              tab === t.id
                ? 'bg-white/15 text-white'
                : 'text-slate-400 hover:bg-white/5 hover:text-slate-100',
            )}
          >
            <t.icon className="size-3.5" /> {t.label}
          </button>
        ))}
        <span className="ml-auto text-xs text-slate-400" aria-live="polite">
          {status === 'synced'
            ? 'Saved with the meeting'
            : status === 'offline'
              ? 'Offline: changes will sync'
              : 'Syncing...'}
        </span>
      </div>
      {full ? (
        <p role="alert" className="bg-amber-500/15 px-3 py-2 text-xs text-amber-200">
          {full}
        </p>
      ) : null}
      <div className="min-h-0 flex-1">
        <Suspense fallback={<p className="p-4 text-sm text-slate-400">Loading...</p>}>
          {tab === 'whiteboard' ? (
            <Whiteboard client={client} meetingId={room.meeting?.meetingId ?? 'meeting'} />
          ) : tab === 'notes' ? (
            <Notes client={client} />
          ) : (
            <FilesArea />
          )}
        </Suspense>
      </div>
    </div>
  );
}
