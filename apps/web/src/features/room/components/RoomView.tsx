import { JOINED_TOAST_MS } from '@parley/protocol/constants';
import { useEffect, useRef, useState } from 'react';
import { toast } from '@/components/ui/toast-store';
import { cn } from '@/lib/cn';
import { useLocalMedia, useRoom } from '../hooks';
import { useShortcuts, type ShortcutAction } from '../keyboard';
import type { RoomSession } from '../room-session';
import { ControlBar } from './ControlBar';
import { KnockNotice } from './KnockNotice';
import { MediaAlerts } from './MediaAlerts';
import { ShortcutsDialog, UpgradeDialog } from './RoomDialogs';
import { RoomHeader } from './RoomHeader';
import { SettingsDialog } from './SettingsDialog';
import { SidePanel, togglePanel, type PanelId } from './SidePanel';
import { RemoteTile, ScreenStage, SelfTile } from './VideoTiles';

function gridClass(n: number): string {
  if (n <= 1) return 'grid-cols-1 max-w-4xl';
  if (n === 2) return 'grid-cols-1 md:grid-cols-2 max-w-6xl';
  if (n <= 4) return 'grid-cols-2 max-w-6xl';
  if (n <= 9) return 'grid-cols-2 md:grid-cols-3';
  return 'grid-cols-3 md:grid-cols-4';
}

/** The joined room: header, video grid or screen-share stage, side panel, control bar. */
export function RoomView({
  session,
  isPro,
  onLeave,
}: {
  session: RoomSession;
  isPro: boolean;
  onLeave: () => void;
}) {
  const room = useRoom(session);
  const local = useLocalMedia(session.media);
  const [panel, setPanel] = useState<PanelId>('none');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const [aiOn, setAiOn] = useState(false);
  const [joinedAt] = useState(() => Date.now());
  const [readCount, setReadCount] = useState(0);
  const wasReconnecting = useRef(false);
  const toldJoined = useRef(false);

  const self = room.self;
  const isHost = !!self?.isHost;
  const signalState = room.signal.state;

  useEffect(() => {
    if (signalState === 'joined' && !toldJoined.current) {
      toldJoined.current = true;
      toast({
        title: 'You joined the meeting',
        description: `Meeting ${session.meetingId}`,
        variant: 'success',
        duration: JOINED_TOAST_MS,
      });
    }
    if (signalState === 'reconnecting') wasReconnecting.current = true;
    if (signalState === 'joined' && wasReconnecting.current) {
      wasReconnecting.current = false;
      toast({ title: 'Reconnected', duration: JOINED_TOAST_MS });
    }
  }, [signalState, session.meetingId]);

  const chatCount = room.chat.length;
  const unread = panel === 'chat' ? 0 : Math.max(0, chatCount - readCount);
  /** Every panel change goes through here, so the chat counts as read when it opens or closes. */
  const changePanel = (next: PanelId) => {
    if (panel === 'chat' || next === 'chat') setReadCount(chatCount);
    setPanel(next);
  };

  const canShareScreen =
    typeof navigator !== 'undefined' &&
    !!navigator.mediaDevices &&
    'getDisplayMedia' in navigator.mediaDevices;
  const toggleScreen = () => {
    if (local.isScreenSharing) session.media.stopScreenShare();
    else
      session.media.startScreenShare().catch((err: unknown) => {
        if ((err as Error).name !== 'NotAllowedError') {
          toast({
            title: 'Could not share your screen',
            description: (err as Error).message,
            variant: 'destructive',
          });
        }
      });
  };
  const toggleAi = () => {
    if (!isPro) {
      setUpgradeOpen(true);
      return;
    }
    setAiOn((on) => !on);
    if (!aiOn) changePanel('tools');
  };

  useShortcuts((a: ShortcutAction) => {
    switch (a) {
      case 'mute':
        session.media.setMuted(!local.isMuted);
        break;
      case 'video':
        session.media.setVideoOn(!local.isVideoOn);
        break;
      case 'screen':
        if (canShareScreen) toggleScreen();
        break;
      case 'chat':
        changePanel(togglePanel(panel, 'chat'));
        break;
      case 'people':
        changePanel(togglePanel(panel, 'participants'));
        break;
      case 'tools':
        changePanel(togglePanel(panel, 'tools'));
        break;
      case 'escape':
        changePanel('none');
        break;
      case 'help':
        setShortcutsOpen(true);
        break;
    }
  }, true);

  const sharer =
    self?.isScreenSharing || local.isScreenSharing
      ? self
        ? { ...self, isScreenSharing: true }
        : null
      : (room.participants.find((p) => p.isScreenSharing) ?? null);
  const count = room.participants.length + 1;
  const name = self?.name ?? '';
  const speakerId = local.selected.audioOutput || undefined;

  const selfTile = (small?: boolean) => (
    <SelfTile media={session.media} name={name} isHost={isHost} small={small} speakerId={speakerId} />
  );
  const remoteTiles = (small?: boolean) =>
    room.participants.map((p) => (
      <RemoteTile key={p.id} mesh={session.mesh} participant={p} small={small} speakerId={speakerId} />
    ));

  return (
    <div
      className="flex h-dvh flex-col overflow-hidden bg-slate-950 text-slate-100"
      data-testid="meeting-room"
      data-toasts="top"
    >
      <RoomHeader
        meetingId={session.meetingId}
        title={room.meeting?.title}
        count={count}
        startedAt={room.meeting?.startedAt ?? null}
        reconnecting={signalState === 'reconnecting'}
        onSettings={() => setSettingsOpen(true)}
        onShortcuts={() => setShortcutsOpen(true)}
      />
      <div className="flex min-h-0 flex-1 gap-3 px-2 sm:px-3">
        <main className="flex min-h-0 min-w-0 flex-1">
          {sharer ? (
            <div className="flex min-h-0 flex-1 flex-col gap-2 md:flex-row">
              <div className="min-h-0 flex-1">
                <ScreenStage mesh={session.mesh} media={session.media} sharer={sharer} selfId={self?.id} />
              </div>
              <div
                aria-label="Participants"
                className="flex shrink-0 gap-2 overflow-x-auto md:w-48 md:flex-col md:overflow-y-auto md:overflow-x-hidden lg:w-56 [&>*]:w-36 md:[&>*]:w-full"
              >
                {selfTile(true)}
                {remoteTiles(true)}
              </div>
            </div>
          ) : (
            <div className="flex min-h-0 flex-1 items-center justify-center overflow-y-auto py-1">
              <div className={cn('mx-auto grid w-full content-center gap-2 sm:gap-3', gridClass(count))}>
                {selfTile()}
                {remoteTiles()}
              </div>
            </div>
          )}
        </main>
        <SidePanel panel={panel} onPanel={changePanel} session={session} room={room} />
      </div>
      {/* Knocks and camera/microphone alerts float just above the controls, whatever panel is open
          (the People panel lists the knocks itself). */}
      <div className="relative z-40 h-0">
        <div className="pointer-events-none absolute inset-x-2 bottom-2 grid gap-2 sm:right-auto sm:w-96">
          {isHost && panel !== 'participants' ? (
            <KnockNotice
              waiting={room.waitingList}
              onAdmit={(id) => void session.admit(id)}
              onDeny={(id) => void session.deny(id)}
              onShowAll={() => changePanel('participants')}
            />
          ) : null}
          <MediaAlerts media={session.media} />
        </div>
      </div>
      <ControlBar
        panel={panel}
        onPanel={changePanel}
        isMuted={local.isMuted}
        isVideoOn={local.isVideoOn}
        isScreenSharing={local.isScreenSharing}
        canShareScreen={canShareScreen}
        aiOn={aiOn}
        isHost={isHost}
        muteAllOn={room.muteAll === true}
        unread={unread}
        onToggleMute={() => session.media.setMuted(!local.isMuted)}
        onToggleVideo={() => session.media.setVideoOn(!local.isVideoOn)}
        onToggleScreen={toggleScreen}
        onToggleAi={toggleAi}
        onMuteAll={() => void session.muteAll(room.muteAll !== true)}
        onLeave={onLeave}
      />
      <SettingsDialog
        open={settingsOpen}
        onOpenChange={setSettingsOpen}
        media={session.media}
        name={name}
        meetingId={session.meetingId}
        isHost={isHost}
        joinedAt={joinedAt}
      />
      <ShortcutsDialog open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
      <UpgradeDialog open={upgradeOpen} onOpenChange={setUpgradeOpen} />
    </div>
  );
}
