import type { RoomParticipant } from '@parley/protocol/ws';
import {
  MessageSquare,
  Mic,
  MicOff,
  PenLine,
  Sparkles,
  UserCheck,
  UserMinus,
  Users,
  Video,
  VideoOff,
  X,
} from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { FreeTimeStrip } from '@/features/billing/FreeTimeStatus';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';
import { useModeration } from '../controls/host-controls';
import { usePanels } from '../controls/panel-controls';
import type { PanelId } from '../layout';
import { useRoomContext, useRoomState } from '../room-context';
import { ToolsPanel } from '../ai/ToolsPanel';
import { useCaptions } from '../ai/hooks';
import { TRANSCRIPTION_TEXTS } from '@parley/protocol/texts';
import { ChatPanel } from './ChatPanel';

// The whiteboard and notes (Excalidraw, TipTap, Yjs) load only when the area is first opened, so
// the landing page and the room's first frame do not pay for them.
const CollaborateArea = lazy(() => import('@/features/collaboration/CollaborateArea'));

/**
 * The spec's AI tab only pointed to Tools: one tab, AI, holds Meeting Tools (issue 37 item 8), and
 * the control bar's AI Tools button opens the same tab. Four tabs fit the panel's width.
 */
const TABS: { id: Exclude<PanelId, 'none'>; label: string; icon: typeof Users }[] = [
  { id: 'participants', label: 'People', icon: Users },
  { id: 'chat', label: 'Chat & Files', icon: MessageSquare },
  { id: 'tools', label: 'AI', icon: Sparkles },
  { id: 'collab', label: 'Collaborate', icon: PenLine },
];

/**
 * While transcription is on, who is not transcribed: declined, or (to hosts) not answered yet. The
 * server's record of each participant (participant_updated), so the host sees it as it changes.
 */
function ConsentTag({ p, showUnanswered }: { p: RoomParticipant; showUnanswered: boolean }) {
  const consent = p.transcriptionConsent ?? null;
  if (consent === 'declined') {
    return (
      <Badge variant="warning" data-testid="consent-tag" title={`${p.name} declined to be transcribed`}>
        {TRANSCRIPTION_TEXTS.declinedTag}
      </Badge>
    );
  }
  if (consent === null && showUnanswered) {
    return (
      <Badge data-testid="consent-tag" title={`${p.name} has not answered the transcription notice`}>
        {TRANSCRIPTION_TEXTS.unansweredTag}
      </Badge>
    );
  }
  return null;
}

function PersonRow({
  p,
  isSelf,
  canModerate,
  transcribing,
  onMute,
  onRemove,
}: {
  p: RoomParticipant;
  isSelf: boolean;
  canModerate: boolean;
  /** Transcription is on: each row says who is not transcribed. */
  transcribing: boolean;
  onMute: (muted: boolean) => void;
  onRemove: () => void;
}) {
  return (
    <li
      data-testid="person"
      data-participant-id={p.id}
      className="flex items-center gap-2 rounded-lg px-2 py-2 hover:bg-white/5"
    >
      <span className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-semibold">
        {p.name.charAt(0).toUpperCase()}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-sm">
          {p.name}
          {isSelf ? ' (You)' : ''}
        </span>
        {!p.isConnected ? <span className="text-xs text-amber-300">Reconnecting...</span> : null}
        {transcribing ? (
          <span className="mt-0.5 flex">
            <ConsentTag p={p} showUnanswered={canModerate} />
          </span>
        ) : null}
      </span>
      {p.isHost ? <Badge variant="brand">Host</Badge> : null}
      {p.isVideoOn ? (
        <Video aria-label="Camera on" className="size-4 text-slate-300" />
      ) : (
        <VideoOff aria-label="Camera off" className="size-4 text-slate-500" />
      )}
      {canModerate && !isSelf ? (
        <>
          <Button
            size="icon"
            variant="ghost"
            className="size-10 text-slate-200 hover:bg-white/10 md:size-8"
            aria-label={p.isMuted ? `Ask ${p.name} to unmute` : `Mute ${p.name}`}
            title={p.isMuted ? 'Ask to unmute' : 'Mute'}
            onClick={() => onMute(!p.isMuted)}
          >
            {p.isMuted ? <MicOff className="text-red-400" /> : <Mic />}
          </Button>
          <Button
            size="icon"
            variant="ghost"
            className="size-10 text-slate-200 hover:bg-white/10 md:size-8"
            aria-label={`Remove ${p.name}`}
            title="Remove from the meeting"
            onClick={onRemove}
          >
            <UserMinus />
          </Button>
        </>
      ) : p.isMuted ? (
        <MicOff aria-label="Muted" className="size-4 text-red-400" />
      ) : (
        <Mic aria-label="Unmuted" className="size-4 text-slate-300" />
      )}
    </li>
  );
}

function PeopleTab() {
  const room = useRoomState();
  const moderation = useModeration();
  const self = room.self;
  const isHost = moderation.canModerate;
  const transcribing = useCaptions().transcription.active;
  const everyone = self ? [self, ...room.participants] : room.participants;
  /** Whom the host asked to remove: the in-app confirmation is open for them. */
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  return (
    <div className="space-y-4 overflow-y-auto p-3">
      <Dialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={removing ? `Remove ${removing.name} from the meeting?` : ''}
        description="They leave at once and cannot join again until you allow them back."
        className="max-w-sm"
      >
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (removing) moderation.remove(removing.id);
              setRemoving(null);
            }}
          >
            <UserMinus /> Remove
          </Button>
        </div>
      </Dialog>
      {isHost && room.waitingList.length > 0 ? (
        <section aria-label="Waiting room">
          <h3 className="mb-1 px-2 text-xs font-semibold uppercase tracking-wide text-amber-300">
            Waiting to join ({room.waitingList.length})
          </h3>
          <ul>
            {room.waitingList.map((w) => (
              <li key={w.id} className="flex items-center gap-2 rounded-lg px-2 py-2">
                <span className="min-w-0 flex-1 truncate text-sm">{w.name}</span>
                <Button size="sm" onClick={() => moderation.admit(w.id)}>
                  Admit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-slate-200 hover:bg-white/10"
                  onClick={() => moderation.deny(w.id)}
                >
                  Deny
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-label="Participants">
        <h3 className="mb-1 px-2 text-xs font-semibold uppercase tracking-wide text-slate-400">
          In the meeting ({everyone.length})
        </h3>
        <ul>
          {everyone.map((p) => (
            <PersonRow
              key={p.id}
              p={p}
              isSelf={p.id === self?.id}
              canModerate={isHost}
              transcribing={transcribing}
              onMute={(muted) => moderation.setMuted(p.id, muted)}
              onRemove={() => setRemoving({ id: p.id, name: p.name })}
            />
          ))}
        </ul>
      </section>
      {isHost && room.removedList.length > 0 ? (
        <section aria-label="Removed">
          <h3 className="mb-1 px-2 text-xs font-semibold uppercase tracking-wide text-slate-400">
            Removed ({room.removedList.length})
          </h3>
          <p className="mb-1 px-2 text-xs text-slate-400">
            They cannot join again until you allow them back.
          </p>
          <ul>
            {room.removedList.map((r) => (
              <li
                key={r.id}
                data-testid="removed-person"
                className="flex items-center gap-2 rounded-lg px-2 py-2"
              >
                <span
                  aria-hidden
                  className="grid size-8 shrink-0 place-items-center rounded-full bg-slate-700 text-sm font-semibold text-slate-300"
                >
                  {r.name.charAt(0).toUpperCase()}
                </span>
                <span className="min-w-0 flex-1 truncate text-sm text-slate-300">{r.name}</span>
                <Button
                  size="sm"
                  variant="ghost"
                  className="border border-white/20 text-slate-100 hover:bg-white/10 max-md:h-10"
                  aria-label={`Allow ${r.name} back`}
                  onClick={() => moderation.allowBack(r.id)}
                >
                  <UserCheck /> Allow back
                </Button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** The side panel (spec §2): People, Chat & Files, AI (Meeting Tools), Collaborate; the layout says which is open. */
export function SidePanel() {
  const { session } = useRoomContext();
  const room = useRoomState();
  const { panel, set: onPanel, toggle } = usePanels();
  if (panel === 'none') return null;
  return (
    <aside
      aria-label="Side panel"
      className={cn(
        'fixed inset-0 z-30 flex flex-col bg-slate-900 text-slate-100 md:static md:z-auto md:shrink-0 md:rounded-xl md:ring-1 md:ring-white/10',
        panel === 'collab' ? 'md:w-[min(62vw,60rem)]' : 'md:w-80 lg:w-96',
      )}
    >
      <div className="flex items-center gap-1 border-b border-white/10 p-2">
        {/* Only tabs inside the tablist (axe: aria-required-children); Close is beside it. */}
        <div className="flex min-w-0 flex-1 items-center gap-1" role="tablist" aria-label="Panels">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={panel === t.id}
              onClick={() => toggle(t.id)}
              className={cn(
                // Each tab as wide as its label (not equal shares, which let "Chat & Files" run
                // into its neighbours at 1440 px), the row's spare width shared between them.
                'flex flex-auto items-center justify-center gap-1 whitespace-nowrap rounded-lg px-2 py-2.5 text-xs font-medium md:py-1.5',
                panel === t.id
                  ? 'bg-white/15 text-white'
                  : 'text-slate-400 hover:bg-white/5 hover:text-slate-100',
              )}
            >
              <t.icon className="size-3.5 shrink-0 max-lg:hidden" />
              <span>{t.label}</span>
            </button>
          ))}
        </div>
        <button
          type="button"
          aria-label="Close panel"
          onClick={() => onPanel('none')}
          className="rounded-lg p-2.5 text-slate-400 hover:bg-white/10 hover:text-white md:p-1.5"
        >
          <X className="size-4" />
        </button>
      </div>
      <FreeTimeStrip clock={session.freeTime} />
      <div className="min-h-0 flex-1" role="tabpanel">
        {panel === 'participants' ? <PeopleTab /> : null}
        {panel === 'chat' ? (
          <ChatPanel session={session} messages={room.chat} selfId={room.self?.id} />
        ) : null}
        {panel === 'tools' ? <ToolsPanel /> : null}
        {panel === 'collab' ? (
          <Suspense fallback={<p className="p-4 text-sm text-slate-400">Loading the whiteboard...</p>}>
            <CollaborateArea />
          </Suspense>
        ) : null}
      </div>
    </aside>
  );
}
