import {
  Check,
  Ellipsis,
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
import { DropdownMenu } from 'radix-ui';
import { useSyncExternalStore, type ButtonHTMLAttributes, type ReactNode } from 'react';
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

export function LeaveButton({ className }: { className?: string }) {
  const { buttonProps } = useLeave();
  return (
    <BarButton {...buttonProps} tone="danger" className={cn('w-14', className)}>
      <PhoneOff />
    </BarButton>
  );
}

/** From 1024 px the whole bar fits one row; below, the less-used controls go into More. */
const WIDE_QUERY = '(min-width: 1024px)';
function subscribeWide(onChange: () => void): () => void {
  const mq = window.matchMedia?.(WIDE_QUERY);
  mq?.addEventListener('change', onChange);
  return () => mq?.removeEventListener('change', onChange);
}
// Without matchMedia (jsdom) the whole bar: every control a button.
const isWide = (): boolean => window.matchMedia?.(WIDE_QUERY).matches ?? true;

const menuItem =
  'flex min-h-10 cursor-default select-none items-center gap-2.5 rounded-lg px-3 py-2 text-sm text-slate-100 outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-white/10 [&_svg]:size-4 [&_svg]:shrink-0';

function MenuItem({
  icon,
  onSelect,
  disabled,
  children,
  testId,
}: {
  icon: ReactNode;
  onSelect: () => void;
  disabled?: boolean;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <DropdownMenu.Item className={menuItem} onSelect={onSelect} disabled={disabled} data-testid={testId}>
      {icon}
      {children}
    </DropdownMenu.Item>
  );
}

/** A side panel in the More menu: a checkbox item (its label stays; checked while it is open). */
function PanelItem({ id, icon }: { id: 'tools' | 'collab'; icon: ReactNode }) {
  const { open, toggle, buttonProps } = usePanelToggle(id);
  return (
    <DropdownMenu.CheckboxItem className={menuItem} checked={open} onSelect={toggle}>
      {icon}
      <span className="flex-1">{buttonProps['aria-label']}</span>
      <DropdownMenu.ItemIndicator>
        <Check className="text-brand-200" />
      </DropdownMenu.ItemIndicator>
    </DropdownMenu.CheckboxItem>
  );
}

/**
 * More (the phone and tablet bar): the controls used less often than the microphone, camera,
 * chat, people and leave, in a Radix menu (arrow keys, Enter, Escape back to the button). Each
 * item is the same hook as its button on the wide bar.
 */
export function MoreMenu() {
  const share = useScreenShareToggle();
  const ai = useAiToggle();
  const muteAll = useMuteAllToggle();
  const record = useRecordingToggle();
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <BarButton aria-label="More" title="More">
          <Ellipsis />
        </BarButton>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side="top"
          align="end"
          sideOffset={8}
          collisionPadding={8}
          className="z-50 min-w-56 rounded-xl border border-slate-700 bg-slate-900 p-1 text-slate-100 shadow-xl"
        >
          <PanelItem id="tools" icon={<Bot />} />
          <PanelItem id="collab" icon={<PenLine />} />
          {share.canShare ? (
            <MenuItem icon={share.sharing ? <MonitorX /> : <MonitorUp />} onSelect={share.toggle}>
              {share.buttonProps['aria-label']}
            </MenuItem>
          ) : null}
          <MenuItem
            icon={<Sparkles className={ai.on ? 'text-fuchsia-300' : undefined} />}
            onSelect={ai.toggle}
            disabled={ai.buttonProps.disabled}
          >
            {ai.label}
          </MenuItem>
          {muteAll.visible || record.visible ? (
            <DropdownMenu.Separator className="my-1 h-px bg-white/10" />
          ) : null}
          {muteAll.visible ? (
            <MenuItem
              icon={muteAll.allMuted ? <Volume2 /> : <VolumeX />}
              onSelect={muteAll.toggle}
              disabled={muteAll.pending}
            >
              {muteAll.label}
            </MenuItem>
          ) : null}
          {record.visible ? (
            <MenuItem
              testId="record-toggle"
              icon={record.active ? <CircleStop /> : <Circle className="fill-red-500 text-red-500" />}
              onSelect={record.buttonProps.onClick}
              disabled={record.pending}
            >
              {record.label}
            </MenuItem>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** Below 1024 px: one row, whoever is in the meeting (the host's used to take three on a phone). */
function CompactBar() {
  return (
    <nav aria-label="Meeting controls" className="flex shrink-0 items-center justify-center gap-2 px-3 py-3">
      <MicToggle />
      <CameraToggle />
      <ChatToggle />
      <PeopleToggle />
      <MoreMenu />
      <LeaveButton />
    </nav>
  );
}

/** From 1024 px: panels on the left, media and AI in the middle, Leave on the right, none over another. */
function WideBar() {
  const isHost = useIsHost();
  return (
    <nav
      aria-label="Meeting controls"
      className="grid shrink-0 grid-cols-[1fr_auto_1fr] items-center gap-3 px-4 py-3"
    >
      <div className="flex items-center gap-2 justify-self-start">
        <PeopleToggle />
        <ChatToggle />
        <ToolsToggle />
        <CollabToggle />
      </div>
      <div className="flex items-center gap-2">
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
      </div>
      <LeaveButton className="justify-self-end" />
    </nav>
  );
}

/**
 * The bottom bar (spec §2): the whole bar from 1024 px, one row with a More menu below. Each
 * control is a hook (controls/*.ts) with a thin component here; the bar takes no props.
 */
export function ControlBar() {
  const wide = useSyncExternalStore(subscribeWide, isWide, () => true);
  return wide ? <WideBar /> : <CompactBar />;
}
