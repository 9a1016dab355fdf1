import {
  Bot,
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
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import type { PanelId } from './SidePanel';

function BarButton({
  label,
  shortcut,
  active,
  danger,
  onClick,
  children,
  className,
  pressed,
}: {
  label: string;
  shortcut?: string;
  active?: boolean;
  danger?: boolean;
  pressed?: boolean;
  onClick: () => void;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      aria-pressed={pressed}
      title={shortcut ? `${label} (${shortcut})` : label}
      onClick={onClick}
      className={cn(
        'grid size-11 shrink-0 place-items-center rounded-full transition-colors [&_svg]:size-5',
        danger
          ? 'bg-red-600 text-white hover:bg-red-700'
          : active
            ? 'bg-brand-600 text-white hover:bg-brand-700'
            : 'bg-white/10 text-slate-100 hover:bg-white/20',
        className,
      )}
    >
      {children}
    </button>
  );
}

export interface ControlBarProps {
  panel: PanelId;
  onPanel: (p: PanelId) => void;
  isMuted: boolean;
  isVideoOn: boolean;
  isScreenSharing: boolean;
  canShareScreen: boolean;
  aiOn: boolean;
  isHost: boolean;
  muteAllOn: boolean;
  unread: number;
  onToggleMute: () => void;
  onToggleVideo: () => void;
  onToggleScreen: () => void;
  onToggleAi: () => void;
  onMuteAll: () => void;
  onLeave: () => void;
}

export function ControlBar(p: ControlBarProps) {
  return (
    <nav
      aria-label="Meeting controls"
      className="relative flex shrink-0 flex-wrap items-center justify-center gap-2 px-3 py-3"
    >
      <div className="flex items-center gap-2 lg:absolute lg:left-4">
        <BarButton
          label="People"
          shortcut="P"
          active={p.panel === 'participants'}
          pressed={p.panel === 'participants'}
          onClick={() => p.onPanel(p.panel === 'participants' ? 'none' : 'participants')}
        >
          <Users />
        </BarButton>
        <BarButton
          label="Chat"
          shortcut="C"
          active={p.panel === 'chat'}
          pressed={p.panel === 'chat'}
          onClick={() => p.onPanel(p.panel === 'chat' ? 'none' : 'chat')}
          className="relative"
        >
          <MessageSquare />
          {p.unread > 0 && p.panel !== 'chat' ? (
            <span
              className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-red-500 px-1 text-[10px] font-bold text-white"
              aria-label={`${p.unread} unread`}
            >
              {p.unread > 9 ? '9+' : p.unread}
            </span>
          ) : null}
        </BarButton>
        <BarButton
          label="AI Tools"
          shortcut="T"
          active={p.panel === 'tools' || p.panel === 'ai'}
          pressed={p.panel === 'tools'}
          onClick={() => p.onPanel(p.panel === 'tools' ? 'none' : 'tools')}
        >
          <Bot />
        </BarButton>
      </div>
      <BarButton
        label={p.isMuted ? 'Unmute' : 'Mute'}
        shortcut="M"
        danger={p.isMuted}
        pressed={p.isMuted}
        onClick={p.onToggleMute}
      >
        {p.isMuted ? <MicOff /> : <Mic />}
      </BarButton>
      <BarButton
        label={p.isVideoOn ? 'Turn off camera' : 'Turn on camera'}
        shortcut="V"
        danger={!p.isVideoOn}
        pressed={!p.isVideoOn}
        onClick={p.onToggleVideo}
      >
        {p.isVideoOn ? <Video /> : <VideoOff />}
      </BarButton>
      {p.canShareScreen ? (
        <BarButton
          label={p.isScreenSharing ? 'Stop sharing' : 'Share screen'}
          shortcut="S"
          active={p.isScreenSharing}
          pressed={p.isScreenSharing}
          onClick={p.onToggleScreen}
        >
          {p.isScreenSharing ? <MonitorX /> : <MonitorUp />}
        </BarButton>
      ) : null}
      <button
        type="button"
        onClick={p.onToggleAi}
        aria-pressed={p.aiOn}
        className={cn(
          'flex h-11 shrink-0 items-center gap-1.5 rounded-full px-4 text-sm font-medium',
          p.aiOn
            ? 'bg-fuchsia-600 text-white hover:bg-fuchsia-700'
            : 'bg-white/10 text-slate-100 hover:bg-white/20',
        )}
      >
        <Sparkles className="size-4" />
        {p.aiOn ? 'Stop AI' : 'Start AI'}
      </button>
      {p.isHost ? (
        <button
          type="button"
          onClick={p.onMuteAll}
          className="flex h-11 shrink-0 items-center gap-1.5 rounded-full bg-white/10 px-4 text-sm font-medium text-slate-100 hover:bg-white/20"
        >
          {p.muteAllOn ? <Volume2 className="size-4" /> : <VolumeX className="size-4" />}
          {p.muteAllOn ? 'Unmute All' : 'Mute All'}
        </button>
      ) : null}
      {p.isHost ? (
        <Badge variant="brand" className="shrink-0">
          Host
        </Badge>
      ) : null}
      <BarButton label="Leave meeting" danger onClick={p.onLeave} className="w-14 lg:absolute lg:right-4">
        <PhoneOff />
      </BarButton>
    </nav>
  );
}
