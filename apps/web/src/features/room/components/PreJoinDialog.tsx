import { NAME_LIMITS } from '@parley/protocol/constants';
import { Mic, MicOff, Video, VideoOff } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import { useAttachStream, useLocalMedia } from '../hooks';
import type { LocalMedia } from '../media/local-media';
import { validateRoomName, type JoinChoice } from '../room-state';
import { MediaAlerts } from './MediaAlerts';

/**
 * The pre-join dialog, the one door for everyone: a display name, camera and microphone toggles,
 * a live preview. No e-mail: a participant without Pro is asked one only when their free time is
 * about to end and nobody covers it (the payment setup card), never up front (issue 37 item 2;
 * the clock and the card belong to the browser or the account, not to a typed e-mail). A
 * signed-in user's account name is filled in, even when it arrives after the dialog opened.
 */
export function PreJoinDialog({
  meetingId,
  media,
  initialName,
  onJoin,
  onCancel,
}: {
  meetingId: string;
  media: LocalMedia;
  initialName: string;
  onJoin: (r: JoinChoice) => void;
  onCancel: () => void;
}) {
  const snap = useLocalMedia(media);
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [prevInitialName, setPrevInitialName] = useState(initialName);
  if (initialName !== prevInitialName) {
    // The signed-in user's name arrived after the dialog opened: fill it in unless typed over.
    setPrevInitialName(initialName);
    if (!name.trim()) setName(initialName);
  }
  const videoRef = useRef<HTMLVideoElement>(null);
  useAttachStream(videoRef, media.stream, snap.trackVersion);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateRoomName(name);
    setError(problem);
    if (problem) return;
    onJoin({ name: name.trim(), audio: !snap.isMuted, video: snap.isVideoOn });
  };

  const previewText =
    snap.cameraStatus === 'loading' || snap.cameraStatus === 'idle'
      ? 'Camera loading...'
      : snap.cameraStatus === 'error'
        ? 'Camera error'
        : snap.cameraStatus === 'unavailable'
          ? 'Video disabled'
          : !snap.isVideoOn
            ? 'Video off'
            : null;

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      title="Ready to join?"
      description={`Meeting ${meetingId}`}
      onEscapeKeyDown={(e) => e.preventDefault()}
      onPointerDownOutside={(e) => e.preventDefault()}
    >
      <form onSubmit={submit} className="grid gap-4" noValidate>
        <div className="relative aspect-video overflow-hidden rounded-xl bg-slate-900">
          <video
            ref={videoRef}
            muted
            playsInline
            autoPlay
            aria-label="Camera preview"
            className={cn('size-full -scale-x-100 object-cover', previewText && 'invisible')}
          />
          {previewText ? (
            <div className="absolute inset-0 grid place-items-center text-sm text-slate-300">
              {previewText}
            </div>
          ) : null}
        </div>
        <MediaAlerts media={media} />
        <div className="grid gap-1.5">
          <Label htmlFor="prejoin-name">Your name</Label>
          <Input
            id="prejoin-name"
            autoFocus
            value={name}
            maxLength={NAME_LIMITS.roomMax}
            onChange={(e) => {
              setName(e.target.value);
              if (error) setError(null);
            }}
            placeholder="Enter your name"
            aria-invalid={!!error}
            aria-describedby={error ? 'prejoin-name-error' : undefined}
          />
          {error ? (
            <p id="prejoin-name-error" role="alert" className="text-sm text-red-600 dark:text-red-400">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex gap-2">
          <Button
            variant={snap.isMuted ? 'destructive' : 'secondary'}
            aria-pressed={!snap.isMuted}
            aria-label={snap.isMuted ? 'Turn on microphone' : 'Turn off microphone'}
            onClick={() => media.setMuted(!snap.isMuted)}
            className="flex-1"
          >
            {snap.isMuted ? <MicOff /> : <Mic />}
            {snap.isMuted ? 'Mic off' : 'Mic on'}
          </Button>
          <Button
            variant={snap.isVideoOn ? 'secondary' : 'destructive'}
            aria-pressed={snap.isVideoOn}
            aria-label={snap.isVideoOn ? 'Turn off camera' : 'Turn on camera'}
            onClick={() => media.setVideoOn(!snap.isVideoOn)}
            className="flex-1"
          >
            {snap.isVideoOn ? <Video /> : <VideoOff />}
            {snap.isVideoOn ? 'Camera on' : 'Camera off'}
          </Button>
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit">Join Meeting</Button>
        </div>
      </form>
    </Dialog>
  );
}
