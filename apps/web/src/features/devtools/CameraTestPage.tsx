import { DEMO_CAMERA } from '@parley/protocol/constants';
import { RefreshCw } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { cameraErrorMessage } from '@/features/room/media/local-media';
import { TrackDetails } from './TrackDetails';
import { useLatestMedia } from './use-latest-media';

interface Diagnostics {
  permission: string;
  cameras: MediaDeviceInfo[];
  stream: MediaStream | null;
  error: string | null;
}

async function permissionState(): Promise<string> {
  try {
    const status = await navigator.permissions.query({ name: 'camera' as PermissionName });
    return status.state;
  } catch {
    return 'unknown';
  }
}

/** Requests 640x480 front-facing video and reports permission, cameras and the track (spec §2). */
async function diagnose(): Promise<Diagnostics> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return {
      permission: 'unknown',
      cameras: [],
      stream: null,
      error: 'Camera API not supported in this browser',
    };
  }
  let stream: MediaStream | null = null;
  let error: string | null = null;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: {
        width: { ideal: DEMO_CAMERA.width },
        height: { ideal: DEMO_CAMERA.height },
        facingMode: 'user',
      },
      audio: false,
    });
  } catch (err) {
    error = cameraErrorMessage(err);
  }
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
  return {
    permission: await permissionState(),
    cameras: devices.filter((d) => d.kind === 'videoinput'),
    stream,
    error,
  };
}

export function CameraTestPage() {
  const [diag, setDiag] = useState<Diagnostics | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const latest = useLatestMedia();

  // A diagnosis that resolves after the page left (or after a newer Retry) stops its camera.
  const load = useCallback(() => {
    void latest(diagnose, (d) => d.stream).then((d) => {
      if (d) setDiag(d);
    });
  }, [latest]);

  const retry = () => {
    setDiag(null);
    load();
  };

  useEffect(() => {
    load();
  }, [load]);

  const stream = diag?.stream ?? null;
  useEffect(() => {
    if (videoRef.current) videoRef.current.srcObject = stream;
    return () => stream?.getTracks().forEach((t) => t.stop());
  }, [stream]);

  const track = stream?.getVideoTracks()[0] ?? null;
  return (
    <Page
      title="Camera Test"
      description="Diagnostics for your camera: permission, devices and the video track."
    >
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <Card className="overflow-hidden">
          <div className="relative aspect-[4/3] bg-slate-900">
            <video
              ref={videoRef}
              autoPlay
              muted
              playsInline
              className="size-full -scale-x-100 object-cover"
              aria-label="Camera"
            />
            {!diag ? (
              <div className="absolute inset-0 grid place-items-center text-sm text-slate-300">
                Camera loading...
              </div>
            ) : null}
          </div>
          <CardContent className="grid gap-3 pt-6">
            {diag?.error ? (
              <div
                role="alert"
                className="rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-700 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
              >
                <p className="font-semibold">{diag.error}</p>
                <p className="mt-1">Make sure to allow camera access when prompted by your browser.</p>
              </div>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button onClick={retry} disabled={!diag}>
                <RefreshCw /> Retry
              </Button>
              <Button asChild variant="secondary">
                <Link to="/">Back to Home</Link>
              </Button>
            </div>
          </CardContent>
        </Card>
        <div className="grid content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Diagnostics</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2 text-sm">
              <p>
                Permission:{' '}
                <strong data-testid="camera-permission">{diag?.permission ?? 'checking...'}</strong>
              </p>
              <p>Available cameras: {diag ? diag.cameras.length : '...'}</p>
              <ul className="list-inside list-disc text-slate-600 dark:text-slate-400">
                {diag?.cameras.map((c, i) => (
                  <li key={c.deviceId || i}>{c.label || `Camera ${i + 1}`}</li>
                ))}
              </ul>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Track details</CardTitle>
            </CardHeader>
            <CardContent>
              {track ? (
                <TrackDetails track={track} />
              ) : (
                <p className="text-sm text-slate-500">No video track.</p>
              )}
            </CardContent>
          </Card>
        </div>
      </div>
    </Page>
  );
}
