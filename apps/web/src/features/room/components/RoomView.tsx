import { SFU_VIEW } from '@parley/protocol/constants';
import { useEffect } from 'react';
import { MeetingBackgroundRestore } from '@/features/backgrounds/meeting';
import { RoomFreeTime } from '@/features/billing/RoomFreeTime';
import { cn } from '@/lib/cn';
import { CaptionsOverlay } from '../ai/CaptionsOverlay';
import { useRoomShortcuts } from '../controls/shortcuts';
import { useLocalMediaState, useRoomContext, useRoomState } from '../room-context';
import { usePanels } from '../controls/panel-controls';
import { ControlBar } from './ControlBar';
import { KnockNotice } from './KnockNotice';
import { MediaAlerts } from './MediaAlerts';
import { RoomDialogs } from './RoomDialogs';
import { RoomHeader } from './RoomHeader';
import { SidePanel } from './SidePanel';
import { SpeakerView } from './SpeakerView';
import { RemoteTile, ScreenStage, SelfTile } from './VideoTiles';

function gridClass(n: number): string {
  if (n <= 1) return 'grid-cols-1 max-w-4xl';
  if (n === 2) return 'grid-cols-1 md:grid-cols-2 max-w-6xl';
  if (n <= 4) return 'grid-cols-2 max-w-6xl';
  if (n <= 9) return 'grid-cols-2 md:grid-cols-3';
  return 'grid-cols-3 md:grid-cols-4';
}

/** The joined room: header, video grid or screen-share stage, side panel, control bar (in a RoomProvider). */
export function RoomView() {
  const { session } = useRoomContext();
  const room = useRoomState();
  const local = useLocalMediaState();
  const { panel, set: changePanel } = usePanels();
  useRoomShortcuts();

  const self = room.self;
  const isHost = !!self?.isHost;

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
  // On the SFU, while someone presents: their screen high, the first others' cameras low.
  const sfuShare = room.mediaMode === 'sfu' && sharer ? sharer.id : null;
  const shareWants = sfuShare
    ? JSON.stringify([
        ...(sfuShare !== self?.id ? [{ participantId: sfuShare, quality: 'high' }] : []),
        ...room.participants
          .filter((p) => p.id !== sfuShare)
          .slice(0, SFU_VIEW.maxVideos - 1)
          .map((p) => ({ participantId: p.id, quality: 'low' })),
      ])
    : null;
  // The speaker layout once someone has spoken (or when the grid could not show everyone's
  // video); until then the grid, every video at the top layer, so the move from the mesh to the
  // SFU changes neither the tiles nor the layers they receive.
  const speakerLayout =
    room.mediaMode === 'sfu' &&
    !sharer &&
    room.participants.length > 0 &&
    (room.activeSpeakerId !== null || room.participants.length > SFU_VIEW.maxVideos);
  const gridWants =
    room.mediaMode === 'sfu' && !sharer && !speakerLayout
      ? JSON.stringify(room.participants.map((p) => ({ participantId: p.id, quality: 'high' })))
      : null;
  const wants = shareWants ?? gridWants;
  useEffect(() => {
    if (wants) session.setVideoView(JSON.parse(wants) as Parameters<typeof session.setVideoView>[0]);
  }, [session, wants]);

  const remoteTiles = (small?: boolean) =>
    room.participants.map((p) => (
      <RemoteTile key={p.id} remote={session.remote} participant={p} small={small} speakerId={speakerId} />
    ));

  return (
    <div
      className="flex h-dvh flex-col overflow-hidden bg-slate-950 text-slate-100"
      data-testid="meeting-room"
      data-toasts="top"
    >
      <RoomHeader />
      <div className="flex min-h-0 flex-1 gap-3 px-2 sm:px-3">
        <main className="flex min-h-0 min-w-0 flex-1">
          {sharer ? (
            <div className="flex min-h-0 flex-1 flex-col gap-2 md:flex-row">
              <div className="min-h-0 flex-1">
                <ScreenStage
                  remote={session.remote}
                  media={session.media}
                  sharer={sharer}
                  selfId={self?.id}
                />
              </div>
              <div
                aria-label="Participants"
                className="flex shrink-0 gap-2 overflow-x-auto md:w-48 md:flex-col md:overflow-y-auto md:overflow-x-hidden lg:w-56 [&>*]:w-36 md:[&>*]:w-full"
              >
                {selfTile(true)}
                {remoteTiles(true)}
              </div>
            </div>
          ) : speakerLayout ? (
            <SpeakerView
              participants={room.participants}
              activeSpeakerId={room.activeSpeakerId}
              selfTile={selfTile(true)}
              speakerId={speakerId}
            />
          ) : (
            <div className="flex min-h-0 flex-1 items-center justify-center overflow-y-auto py-1">
              <div className={cn('mx-auto grid w-full content-center gap-2 sm:gap-3', gridClass(count))}>
                {selfTile()}
                {remoteTiles()}
              </div>
            </div>
          )}
        </main>
        <SidePanel />
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
        {panel !== 'tools' ? (
          <div className="absolute inset-x-2 bottom-2 sm:left-auto sm:right-2 sm:w-[min(48rem,calc(100%-26rem))]">
            <CaptionsOverlay />
          </div>
        ) : null}
      </div>
      <ControlBar />
      <RoomDialogs />
      <RoomFreeTime session={session} panelOpen={panel !== 'none'} />
      <MeetingBackgroundRestore />
    </div>
  );
}
