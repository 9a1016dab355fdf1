import { Check, Copy, Keyboard, Settings, UserPlus, WifiOff } from 'lucide-react';
import { Popover } from 'radix-ui';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useCopyMeetingLink } from '@/features/meetings/copy-link';
import { useRoomDialog } from '../controls/panel-controls';
import { useRecordingIndicator } from '../controls/recording-controls';
import { RECORDING_TEXTS } from '@parley/protocol/texts';
import { useElapsed } from '../hooks';
import { TranscriptionBadge } from '../ai/TranscriptionConsent';
import { useRoomContext, useRoomPhase, useRoomState } from '../room-context';

export function participantCountLabel(n: number): string {
  return `${n} ${n === 1 ? 'participant' : 'participants'}`;
}

function InvitePopover({ meetingId }: { meetingId: string }) {
  const { link, copied, copy: copyLink } = useCopyMeetingLink(meetingId);
  const copy = async () => {
    if (await copyLink()) return;
    // The clipboard refused: select the link so the person can copy it by hand.
    const el = document.getElementById('invite-link') as HTMLInputElement | null;
    el?.select();
  };
  return (
    <Popover.Root>
      <Popover.Trigger asChild>
        <Button size="sm" variant="secondary" aria-label="Invite">
          <UserPlus />
          <span className="hidden sm:inline">Invite</span>
        </Button>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={8}
          className="z-50 w-[min(24rem,calc(100vw-1rem))] rounded-xl border border-slate-700 bg-slate-900 p-4 text-slate-100 shadow-xl"
        >
          <p className="mb-1 text-sm font-semibold">Invite people</p>
          <p className="mb-3 text-xs text-slate-400">Share this link. Meeting ID {meetingId}</p>
          <div className="flex gap-2">
            <Input
              id="invite-link"
              readOnly
              value={link}
              aria-label="Meeting link"
              onFocus={(e) => e.target.select()}
              className="border-slate-700 bg-slate-950 text-slate-100"
            />
            <Button size="icon" onClick={() => void copy()} aria-label="Copy link">
              {copied ? <Check /> : <Copy />}
            </Button>
          </div>
          <p role="status" className="mt-2 h-4 text-xs text-emerald-400">
            {copied ? 'Link copied to clipboard' : ''}
          </p>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** Everyone sees that the meeting is being recorded (room state: after a reload and for latecomers too). */
function RecordingIndicator() {
  const { active, limitNotice } = useRecordingIndicator();
  if (!active) return null;
  return (
    <span
      role="status"
      data-testid="recording-indicator"
      title={limitNotice ?? undefined}
      aria-description={limitNotice ?? undefined}
      className="flex shrink-0 items-center gap-1.5 rounded-full bg-red-600/90 px-2.5 py-1 text-xs font-semibold text-white"
    >
      <span aria-hidden className="size-2 animate-pulse rounded-full bg-white" />
      {RECORDING_TEXTS.indicator}
    </span>
  );
}

/** Meeting id, participant count, timer, reconnecting notice, shortcuts, settings and invite. */
export function RoomHeader() {
  const { session } = useRoomContext();
  const room = useRoomState();
  const reconnecting = useRoomPhase() === 'reconnecting';
  const settings = useRoomDialog('settings');
  const shortcuts = useRoomDialog('shortcuts');
  const elapsed = useElapsed(room.meeting?.startedAt ?? null);
  const meetingId = session.meetingId;
  const title = room.meeting?.title;
  const count = room.participants.length + 1;
  return (
    <header className="flex h-14 shrink-0 items-center gap-2 px-3 text-slate-100 sm:gap-3 sm:px-4">
      <div className="min-w-0">
        <p className="truncate text-sm font-semibold sm:text-base" title={title}>
          <span className="font-mono">{meetingId}</span>
        </p>
        <p className="text-xs text-slate-400">
          <span data-testid="participant-count">{participantCountLabel(count)}</span>
          <span aria-hidden> · </span>
          <time data-testid="meeting-timer" aria-label="Elapsed time">
            {elapsed}
          </time>
        </p>
      </div>
      <RecordingIndicator />
      <TranscriptionBadge />
      {reconnecting ? (
        <span
          role="status"
          className="flex items-center gap-1 rounded-full bg-amber-500/20 px-2 py-1 text-xs text-amber-200"
        >
          <WifiOff className="size-3.5" /> Reconnecting...
        </span>
      ) : null}
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        <Button
          size="icon"
          variant="ghost"
          className="hidden text-slate-200 hover:bg-white/10 sm:inline-flex"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={shortcuts.show}
        >
          <Keyboard />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="text-slate-200 hover:bg-white/10"
          aria-label="Settings"
          title="Settings"
          onClick={settings.show}
        >
          <Settings />
        </Button>
        <InvitePopover meetingId={meetingId} />
      </div>
    </header>
  );
}
