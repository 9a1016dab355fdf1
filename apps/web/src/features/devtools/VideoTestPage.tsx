import { Camera, CameraOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { cameraErrorMessage } from '@/features/room/media/local-media';
import { TrackDetails } from './TrackDetails';
import { useLatestMedia } from './use-latest-media';

/** /video-test: start and stop the camera, see the track's details (spec §2, developer pages). */
export function VideoTestPage() {
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const videoRef = useRef<HTMLVideoElement>(null);
  const latest = useLatestMedia();

  useEffect(() => {
    const el = videoRef.current;
    if (el) el.srcObject = stream;
    return () => stream?.getTracks().forEach((t) => t.stop());
  }, [stream]);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new TypeError('unsupported');
      // A camera that answers after the page was left is stopped, not kept running unseen.
      const got = await latest(
        () => navigator.mediaDevices.getUserMedia({ video: true, audio: false }),
        (s) => s,
      );
      if (got) setStream(got);
    } catch (err) {
      setError(cameraErrorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const track = stream?.getVideoTracks()[0] ?? null;
  return (
    <Page title="Video Test" description="Start and stop your camera and check what the browser gives you.">
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <Card className="overflow-hidden">
          <div className="relative aspect-video bg-slate-900">
            <video
              ref={videoRef}
              autoPlay
              muted
              playsInline
              className="size-full -scale-x-100 object-cover"
              aria-label="Camera"
            />
            {!stream ? (
              <div className="absolute inset-0 grid place-items-center text-sm text-slate-300">
                Camera is off
              </div>
            ) : null}
          </div>
          <CardContent className="flex flex-wrap gap-2 pt-6">
            {stream ? (
              <Button variant="destructive" onClick={() => setStream(null)}>
                <CameraOff /> Stop Camera
              </Button>
            ) : (
              <Button onClick={() => void start()} disabled={busy}>
                <Camera /> {busy ? 'Starting...' : 'Start Camera'}
              </Button>
            )}
            <Button asChild variant="secondary">
              <Link to="/">Back to Home</Link>
            </Button>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Track info</CardTitle>
          </CardHeader>
          <CardContent>
            {error ? (
              <p
                role="alert"
                className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
              >
                {error}
              </p>
            ) : track ? (
              <TrackDetails track={track} />
            ) : (
              <p className="text-sm text-slate-500">Start the camera to see its track.</p>
            )}
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}
