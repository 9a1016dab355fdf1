import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { cn } from '@/lib/cn';
import { TEST_ROOM_ID } from '@parley/protocol/constants';
import { INITIAL_WEBRTC_TEST, WebRtcTest, type WebRtcTestSnapshot } from './webrtc-test';

function VideoBox({
  stream,
  label,
  muted,
  mirrored,
}: {
  stream: MediaStream | null;
  label: string;
  muted?: boolean;
  mirrored?: boolean;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.srcObject = stream;
    if (stream) el.play().catch(() => undefined);
  }, [stream]);
  return (
    <Card className="overflow-hidden">
      <div className="relative aspect-video bg-slate-900">
        <video
          ref={ref}
          autoPlay
          playsInline
          muted={muted}
          aria-label={label}
          className={cn('size-full object-cover', mirrored && '-scale-x-100')}
        />
        {!stream ? (
          <div className="absolute inset-0 grid place-items-center text-sm text-slate-300">No video yet</div>
        ) : null}
        <span className="absolute bottom-2 left-2 rounded-md bg-black/60 px-2 py-0.5 text-xs text-white">
          {label}
        </span>
      </div>
    </Card>
  );
}

/**
 * Runs one WebRtcTest per mount of the effect: StrictMode's effect → cleanup → effect stops the
 * first run and starts a fresh one, instead of restarting a stopped instance.
 */
function useWebRtcTest(): WebRtcTestSnapshot {
  const [snap, setSnap] = useState(INITIAL_WEBRTC_TEST);
  useEffect(() => {
    const test = new WebRtcTest();
    const off = test.subscribe(() => setSnap(test.getSnapshot()));
    void test.start();
    return () => {
      off();
      test.stop();
    };
  }, []);
  return snap;
}

/**
 * /webrtc-test: open this page twice (two tabs, browsers or devices on this server); each shows its
 * camera and the other one's, signaled through the server's test room (spec §2, §7).
 */
export function WebRtcTestPage() {
  const snap = useWebRtcTest();

  const connected = snap.connection === 'connected';
  return (
    <Page
      title="WebRTC Test"
      description={`Open this page in a second tab or browser: both join the room ${TEST_ROOM_ID} on this server and call each other.`}
    >
      <div className="grid gap-4 md:grid-cols-2">
        <VideoBox stream={snap.localStream} label="Local video" muted mirrored />
        <VideoBox stream={snap.remoteStream} label="Remote video" />
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>Status</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-1.5 text-sm">
          <p data-testid="status-signaling">
            Signaling: <strong>{snap.signaling}</strong>
            {snap.transport ? ` (${snap.transport})` : ''}
          </p>
          <p data-testid="status-connection">
            Peer connection:{' '}
            <strong className={connected ? 'text-emerald-600' : undefined}>
              {connected ? 'connected' : snap.connection}
            </strong>
          </p>
          {snap.error ? (
            <p role="alert" className="text-red-600">
              {snap.error}
            </p>
          ) : null}
          <details className="mt-2">
            <summary className="cursor-pointer text-slate-500">Log</summary>
            <pre className="mt-2 max-h-48 overflow-auto whitespace-pre-wrap rounded-lg bg-slate-100 p-2 text-xs dark:bg-slate-900">
              {snap.log.join('\n')}
            </pre>
          </details>
          <div className="mt-3">
            <Button asChild variant="secondary">
              <Link to="/">Back to Home</Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </Page>
  );
}
