import {
  PenLine,
  Bot,
  Circle,
  CircleStop,
  MessageSquare,
  Mic,
  MicOff,
  MonitorUp,
  MonitorX,
  PhoneOff,
  Sparkles,
  Users,
  Video,
  VideoOff,
  Volume2,
  VolumeX,
} from 'lucide-react';
import type { ButtonHTMLAttributes } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { useMuteAllToggle } from '../controls/host-controls';
import { useLeave } from '../controls/leave';
import { useCameraToggle, useMicToggle, useScreenShareToggle } from '../controls/media-controls';
import { useAiToggle, usePanelToggle } from '../controls/panel-controls';
import { useRecordingToggle } from '../controls/recording-controls';
import { useIsHost } from '../room-context';

/**
 * The bottom bar (spec §2). Each control is a hook that holds the logic (controls/*.ts) and a
 * thin component here that draws it, as LiveKit's components do; the bar takes no props.
 */

type Tone = 'default' | 'active' | 'danger';

function BarButton({
  tone = 'default',
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: Tone }) {
  return (
    <button
      type="button"
      {...props}
      className={cn(
        'grid size-11 shrink-0 place-items-center rounded-full transition-colors [&_svg]:size-5',
        tone === 'danger'
          ? 'bg-red-600 text-white hover:bg-red-700'
          : tone === 'active'
            ? 'bg-brand-600 text-white hover:bg-brand-700'
            : 'bg-white/10 text-slate-100 hover:bg-white/20',
        className,
      )}
    />
  );
}

const pill = 'flex h-11 shrink-0 items-center gap-1.5 rounded-full px-4 text-sm font-medium';

export function PeopleToggle() {
  const { open, buttonProps } = usePanelToggle('participants');
  return (
    <BarButton {...buttonProps} tone={open ? 'active' : 'default'}>
      <Users />
    </BarButton>
  );
}

export function ChatToggle() {
  const { open, unread, buttonProps } = usePanelToggle('chat');
  return (
    <BarButton {...buttonProps} tone={open ? 'active' : 'default'} className="relative">
      <MessageSquare />
      {unread > 0 ? (
        <span
          className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-red-500 px-1 text-[10px] font-bold text-white"
          aria-label={`${unread} unread`}
        >
          {unread > 9 ? '9+' : unread}
        </span>
      ) : null}
    </BarButton>
  );
}

export function ToolsToggle() {
  const { open, buttonProps } = usePanelToggle('tools');
  return (
    <BarButton {...buttonProps} tone={open ? 'active' : 'default'}>
      <Bot />
    </BarButton>
  );
}

/** The collaboration area (whiteboard and notes). */
export function CollabToggle() {
  const { open, buttonProps } = usePanelToggle('collab');
  return (
    <BarButton {...buttonProps} tone={open ? 'active' : 'default'}>
      <PenLine />
    </BarButton>
  );
}

export function MicToggle() {
  const { muted, buttonProps } = useMicToggle();
  return (
    <BarButton {...buttonProps} tone={muted ? 'danger' : 'default'}>
      {muted ? <MicOff /> : <Mic />}
    </BarButton>
  );
}

export function CameraToggle() {
  const { videoOn, buttonProps } = useCameraToggle();
  return (
    <BarButton {...buttonProps} tone={videoOn ? 'default' : 'danger'}>
      {videoOn ? <Video /> : <VideoOff />}
    </BarButton>
  );
}

export function ScreenShareToggle() {
  const { canShare, sharing, buttonProps } = useScreenShareToggle();
  if (!canShare) return null;
  return (
    <BarButton {...buttonProps} tone={sharing ? 'active' : 'default'}>
      {sharing ? <MonitorX /> : <MonitorUp />}
    </BarButton>
  );
}

export function AiToggle() {
  const { on, label, buttonProps } = useAiToggle();
  return (
    <button
      {...buttonProps}
      className={cn(
        pill,
        on
          ? 'bg-fuchsia-600 text-white hover:bg-fuchsia-700'
          : 'bg-white/10 text-slate-100 hover:bg-white/20',
      )}
    >
      <Sparkles className="size-4" />
      {label}
    </button>
  );
}

export function MuteAllToggle() {
  const { visible, allMuted, label, buttonProps } = useMuteAllToggle();
  if (!visible) return null;
  return (
    <button
      {...buttonProps}
      className={cn(pill, 'bg-white/10 text-slate-100 hover:bg-white/20 disabled:opacity-60')}
    >
      {allMuted ? <Volume2 className="size-4" /> : <VolumeX className="size-4" />}
      {label}
    </button>
  );
}

/** The host's Record / Stop recording (recording is room state; see RoomHeader's indicator). */
export function RecordToggle() {
  const { visible, active, label, reason, buttonProps } = useRecordingToggle();
  if (!visible) return null;
  return (
    <button
      {...buttonProps}
      data-testid="record-toggle"
      className={cn(
        pill,
        active ? 'bg-red-600 text-white hover:bg-red-700' : 'bg-white/10 text-slate-100 hover:bg-white/20',
        reason ? 'opacity-60' : null,
        'disabled:opacity-60',
      )}
    >
      {active ? <CircleStop className="size-4" /> : <Circle className="size-4 fill-red-500 text-red-500" />}
      {label}
    </button>
  );
}

export function LeaveButton() {
  const { buttonProps } = useLeave();
  return (
    <BarButton {...buttonProps} tone="danger" className="w-14 lg:absolute lg:right-4">
      <PhoneOff />
    </BarButton>
  );
}

export function ControlBar() {
  const isHost = useIsHost();
  return (
    <nav
      aria-label="Meeting controls"
      className="relative flex shrink-0 flex-wrap items-center justify-center gap-2 px-3 py-3"
    >
      <div className="flex items-center gap-2 lg:absolute lg:left-4">
        <PeopleToggle />
        <ChatToggle />
        <ToolsToggle />
        <CollabToggle />
      </div>
      <MicToggle />
      <CameraToggle />
      <ScreenShareToggle />
      <AiToggle />
      <MuteAllToggle />
      <RecordToggle />
      {isHost ? (
        <Badge variant="brand" className="shrink-0">
          Host
        </Badge>
      ) : null}
      <LeaveButton />
    </nav>
  );
}
