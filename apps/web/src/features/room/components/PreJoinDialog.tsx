import { FREE_TIER, NAME_LIMITS } from '@parley/protocol/constants';
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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The pre-join dialog: display name, camera and microphone toggles, a live preview; for a
 * participant without Pro also the e-mail for billing (spec §2 generation (a), §5), by which the
 * server keeps its free-time clock.
 */
export function PreJoinDialog({
  meetingId,
  media,
  initialName,
  askEmail = false,
  initialEmail = '',
  onJoin,
  onCancel,
}: {
  meetingId: string;
  media: LocalMedia;
  initialName: string;
  askEmail?: boolean;
  initialEmail?: string;
  onJoin: (r: JoinChoice) => void;
  onCancel: () => void;
}) {
  const snap = useLocalMedia(media);
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState(initialEmail);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [prevInitialEmail, setPrevInitialEmail] = useState(initialEmail);
  if (initialEmail !== prevInitialEmail) {
    // The signed-in user's e-mail arrived after the dialog opened: fill it in unless typed over.
    setPrevInitialEmail(initialEmail);
    if (!email) setEmail(initialEmail);
  }
  const videoRef = useRef<HTMLVideoElement>(null);
  useAttachStream(videoRef, media.stream, snap.trackVersion);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateRoomName(name);
    setError(problem);
    const address = email.trim().toLowerCase();
    const emailProblem = !askEmail
      ? null
      : !address
        ? 'Email is required for billing'
        : EMAIL.test(address)
          ? null
          : 'Please enter a valid email address';
    setEmailError(emailProblem);
    if (problem || emailProblem) return;
    onJoin({
      name: name.trim(),
      audio: !snap.isMuted,
      video: snap.isVideoOn,
      ...(askEmail ? { email: address } : {}),
    });
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
        {askEmail ? (
          <div className="grid gap-1.5">
            <Label htmlFor="prejoin-email">Email for billing</Label>
            <Input
              id="prejoin-email"
              type="email"
              autoComplete="email"
              value={email}
              maxLength={254}
              onChange={(e) => {
                setEmail(e.target.value);
                if (emailError) setEmailError(null);
              }}
              placeholder="you@example.com"
              aria-invalid={!!emailError}
              aria-describedby="prejoin-email-note"
            />
            {emailError ? (
              <p role="alert" className="text-sm text-red-600 dark:text-red-400">
                {emailError}
              </p>
            ) : null}
            <p id="prejoin-email-note" className="text-xs text-slate-500 dark:text-slate-400">
              Free: {FREE_TIER.freeMinutesPerMeeting} minutes per meeting, then{' '}
              {FREE_TIER.overageCentsPerMinute} cents per minute with a saved card, or Pro for unlimited time.
            </p>
          </div>
        ) : null}
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
