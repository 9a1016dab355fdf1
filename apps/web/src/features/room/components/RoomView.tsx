import { MeetingBackgroundRestore } from '@/features/backgrounds/meeting';
import { RoomFreeTime } from '@/features/billing/RoomFreeTime';
import { cn } from '@/lib/cn';
import { CaptionsOverlay } from '../ai/CaptionsOverlay';
import { TranscriptionNotice } from '../ai/TranscriptionConsent';
import { useRoomShortcuts } from '../controls/shortcuts';
import { useLocalMediaState, useRoomContext, useRoomState } from '../room-context';
import { useVideoView } from '../use-video-view';
import { mainLayout } from '../video-view';
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

  const main = mainLayout(room, local.isScreenSharing);
  const count = room.participants.length + 1;
  const name = self?.name ?? '';
  const speakerId = local.selected.audioOutput || undefined;

  const selfTile = (small?: boolean) => (
    <SelfTile media={session.media} name={name} isHost={isHost} small={small} speakerId={speakerId} />
  );
  // On the SFU the page receives only the videos its layout shows; the speaker layout tells its
  // own (its stage and page are SpeakerView's state).
  useVideoView(main.kind === 'speaker' ? null : main);

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
      <RoomFreeTime session={session} panelOpen={panel !== 'none'} />
      <div className="flex min-h-0 flex-1 gap-3 px-2 sm:px-3">
        <main className="flex min-h-0 min-w-0 flex-1">
          {main.kind === 'share' ? (
            <div className="flex min-h-0 flex-1 flex-col gap-2 md:flex-row">
              <div className="min-h-0 flex-1">
                <ScreenStage
                  remote={session.remote}
                  media={session.media}
                  sharer={main.sharer}
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
          ) : main.kind === 'speaker' ? (
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
      {/* The transcription notice, knocks and camera/microphone alerts float just above the
          controls, whatever panel is open (the People panel lists the knocks itself). Captions
          sit beside them from 640 px up, and above them on a phone, so a caption never covers
          the notice's buttons. */}
      <div className="relative z-40 h-0">
        <div className="pointer-events-none absolute inset-x-2 bottom-2 flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="order-2 grid gap-2 sm:order-1 sm:w-96 sm:shrink-0">
            <TranscriptionNotice />
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
            <div className="order-1 min-w-0 sm:order-2 sm:ml-auto sm:w-[min(48rem,calc(100%-26rem))]">
              <CaptionsOverlay />
            </div>
          ) : null}
        </div>
      </div>
      <ControlBar />
      <RoomDialogs />
      <MeetingBackgroundRestore />
    </div>
  );
}
