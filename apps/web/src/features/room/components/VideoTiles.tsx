import type { RoomParticipant } from '@parley/protocol/ws';
import { AlertTriangle, Loader2, Mic, MicOff, MonitorUp, WifiOff } from 'lucide-react';
import { useRef } from 'react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { useAttachStream, useLocalMedia, useRemotePeer } from '../hooks';
import type { LocalMedia } from '../media/local-media';
import type { RemoteMedia } from '../media/remote-media';
import { useRemoteTileStatus, type RemoteTileStatus } from '../remote-tile-status';

function Initial({ name, small, waiting }: { name: string; small?: boolean; waiting?: boolean }) {
  return (
    <div className="absolute inset-0 grid place-items-center bg-gradient-to-br from-slate-800 to-slate-900">
      <span
        aria-hidden
        className={cn(
          'grid place-items-center rounded-full font-semibold text-white',
          // Waiting for media: a dimmed, pulsing initial, so it never reads as "camera off".
          waiting ? 'animate-pulse bg-slate-600' : 'bg-brand-600',
          small ? 'size-10 text-lg' : 'size-16 text-2xl sm:size-20 sm:text-3xl',
        )}
      >
        {name.trim().charAt(0).toUpperCase() || '?'}
      </span>
    </div>
  );
}

function NameBar({
  name,
  isHost,
  muted,
  extra,
}: {
  name: string;
  isHost: boolean;
  muted: boolean;
  extra?: string;
}) {
  return (
    <div className="absolute inset-x-2 bottom-2 flex items-center gap-1.5 text-xs text-white">
      <span className="flex min-w-0 items-center gap-1.5 rounded-md bg-black/60 px-2 py-1">
        {muted ? (
          <MicOff aria-label="Muted" className="size-3.5 shrink-0 text-red-400" />
        ) : (
          <Mic aria-label="Unmuted" className="size-3.5 shrink-0" />
        )}
        <span className="truncate font-medium">{name}</span>
        {extra ? <span className="shrink-0 text-slate-300">{extra}</span> : null}
      </span>
      {isHost ? (
        <Badge variant="brand" className="shrink-0">
          Host
        </Badge>
      ) : null}
    </div>
  );
}

/** Own tile: mirrored camera, 'You', Host badge, the spec's own-tile texts. */
export function SelfTile({
  media,
  name,
  isHost,
  small,
  speakerId,
}: {
  media: LocalMedia;
  name: string;
  isHost: boolean;
  small?: boolean;
  speakerId?: string;
}) {
  const snap = useLocalMedia(media);
  const ref = useRef<HTMLVideoElement>(null);
  useAttachStream(ref, media.stream, snap.trackVersion, speakerId);
  const text =
    snap.cameraStatus === 'loading' || snap.cameraStatus === 'idle'
      ? 'Camera loading...'
      : snap.cameraStatus === 'error'
        ? 'Camera error'
        : snap.cameraStatus === 'unavailable'
          ? 'Video disabled'
          : !snap.isVideoOn && !snap.isScreenSharing
            ? 'Video off'
            : null;
  const showVideo = text === null;
  return (
    <div
      data-testid="self-tile"
      className="relative aspect-video min-h-0 w-full overflow-hidden rounded-xl bg-slate-900 ring-1 ring-white/10"
    >
      <video
        ref={ref}
        muted
        playsInline
        autoPlay
        className={cn(
          'size-full object-cover',
          !snap.isScreenSharing && '-scale-x-100',
          snap.isScreenSharing && 'object-contain',
          !showVideo && 'invisible',
        )}
      />
      {!showVideo ? <Initial name={name} small={small} /> : null}
      {text ? (
        <span className="absolute left-2 top-2 rounded-md bg-black/60 px-2 py-0.5 text-xs text-slate-200">
          {text}
        </span>
      ) : null}
      <NameBar
        name="You"
        isHost={isHost}
        muted={snap.isMuted}
        extra={snap.isScreenSharing ? '(presenting)' : undefined}
      />
    </div>
  );
}

/** A remote participant: their video (and audio), name, mute icon, initial when there is no picture. */
export function RemoteTile({
  remote,
  participant,
  small,
  stage,
  speakerId,
}: {
  remote: RemoteMedia;
  participant: RoomParticipant;
  small?: boolean;
  /** The large active-speaker tile: fills its area, the whole picture shown. */
  stage?: boolean;
  speakerId?: string;
}) {
  const { stream, connectionState, hasVideo } = useRemotePeer(remote, participant.id);
  const { status, retry } = useRemoteTileStatus(remote, participant, connectionState);
  const ref = useRef<HTMLVideoElement>(null);
  useAttachStream(ref, stream, `${stream?.getTracks().length ?? 0}`, speakerId);
  const sendsVideo = participant.isVideoOn || participant.isScreenSharing;
  // Not before the connection is up (a track exists from the offer on, black until it connects);
  // kept while it recovers (the last picture, often still moving while only the socket is away).
  const showVideo = hasVideo && sendsVideo && status !== 'connecting' && status !== 'failed';
  return (
    <div
      data-testid="remote-tile"
      data-participant-id={participant.id}
      data-connection={connectionState}
      data-status={status}
      className={cn(
        'relative min-h-0 w-full overflow-hidden rounded-xl bg-slate-900 ring-1 ring-white/10',
        stage ? 'h-full' : 'aspect-video',
        status === 'lost' && 'opacity-50 grayscale',
      )}
    >
      {/* Always rendered: it also plays the participant's audio while their camera is off. */}
      <video
        ref={ref}
        playsInline
        autoPlay
        className={cn(
          'size-full',
          participant.isScreenSharing || stage ? 'object-contain' : 'object-cover',
          !showVideo && 'invisible',
        )}
      />
      {!showVideo ? <Initial name={participant.name} small={small} waiting={status !== 'connected'} /> : null}
      <TileStatus
        status={status}
        sendsVideo={sendsVideo}
        presenting={participant.isScreenSharing}
        onRetry={retry}
      />
      <NameBar name={participant.name} isHost={participant.isHost} muted={participant.isMuted} />
    </div>
  );
}

/** The label at a remote tile's top left: what is happening to the participant's media. */
function TileStatus({
  status,
  sendsVideo,
  presenting,
  onRetry,
}: {
  status: RemoteTileStatus;
  sendsVideo: boolean;
  presenting: boolean;
  onRetry: () => void;
}) {
  const label = 'absolute left-2 top-2 flex items-center gap-1 rounded-md px-2 py-0.5 text-xs';
  switch (status) {
    case 'failed':
      return (
        <div
          role="alert"
          className="absolute inset-x-2 top-2 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-md bg-red-600/90 px-2 py-1 text-xs text-white"
        >
          <span className="flex items-center gap-1">
            <AlertTriangle className="size-3.5 shrink-0" /> Could not connect
          </span>
          <button
            type="button"
            onClick={onRetry}
            className="rounded bg-white px-2 py-0.5 font-medium text-red-700 hover:bg-red-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-white"
          >
            Retry
          </button>
        </div>
      );
    case 'connecting':
      return (
        <span role="status" className={cn(label, 'bg-black/60 text-white')}>
          <Loader2 className="size-3 animate-spin" /> Connecting...
        </span>
      );
    case 'reconnecting':
      return (
        <span className={cn(label, 'bg-amber-500/90 text-black')}>
          <WifiOff className="size-3" /> Reconnecting...
        </span>
      );
    case 'lost':
      return (
        <span className={cn(label, 'bg-black/70 text-slate-200')}>
          <WifiOff className="size-3" /> Connection lost
        </span>
      );
    case 'connected':
      if (presenting)
        return (
          <span className={cn(label, 'bg-black/60 text-white')}>
            <MonitorUp className="size-3" /> Presenting
          </span>
        );
      return sendsVideo ? null : <span className={cn(label, 'bg-black/60 text-slate-200')}>Video off</span>;
  }
}

/**
 * The audio of a participant the layout shows no tile for (a thumbnail on another page): heard
 * even though their video is not received.
 */
export function RemoteAudio({
  remote,
  participantId,
  speakerId,
}: {
  remote: RemoteMedia;
  participantId: string;
  speakerId?: string;
}) {
  const { stream } = useRemotePeer(remote, participantId);
  const ref = useRef<HTMLAudioElement>(null);
  useAttachStream(ref, stream, `${stream?.getTracks().length ?? 0}`, speakerId);
  return <audio ref={ref} autoPlay data-testid="remote-audio" data-participant-id={participantId} />;
}

/** The large screen-share view (a silent copy of the sharer's stream; audio plays in the tile). */
export function ScreenStage({
  remote: remoteMedia,
  media,
  sharer,
  selfId,
}: {
  remote: RemoteMedia;
  media: LocalMedia;
  sharer: RoomParticipant;
  selfId: string | undefined;
}) {
  const isSelf = sharer.id === selfId;
  const remote = useRemotePeer(remoteMedia, sharer.id);
  const local = useLocalMedia(media);
  const ref = useRef<HTMLVideoElement>(null);
  const stream = isSelf ? media.stream : remote.stream;
  useAttachStream(ref, stream, isSelf ? local.trackVersion : `${remote.stream?.getTracks().length ?? 0}`);
  return (
    <div
      data-testid="screen-share-stage"
      className="relative h-full min-h-0 w-full overflow-hidden rounded-xl bg-black ring-1 ring-white/10"
    >
      <video
        ref={ref}
        muted
        playsInline
        autoPlay
        className="size-full object-contain"
        aria-label="Shared screen"
      />
      <span className="absolute left-3 top-3 flex items-center gap-1.5 rounded-md bg-black/70 px-2 py-1 text-xs text-white">
        <MonitorUp className="size-3.5" /> {isSelf ? 'You are presenting' : `${sharer.name} is presenting`}
      </span>
    </div>
  );
}
