import { DEMO_CAMERA } from '@parley/protocol/constants';
import { ArrowLeft, Camera, CameraOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast-store';
import { RequireSignIn } from '@/features/auth/RequireSignIn';
import { useUser } from '@/features/auth/api';
import { cameraErrorMessage } from '@/features/room/media/local-media';
import { useStore } from '@/lib/use-store';
import { BackgroundPanel } from './BackgroundPanel';
import { processorEffectFor, type BackgroundChoice } from './effect';
import { useSavedBackground } from './hooks';
import { exposeStats } from './live-effect';
import { BackgroundProcessor } from './processor/background-processor';

function compositorParam(): 'webgl2' | '2d' | undefined {
  const v = new URLSearchParams(window.location.search).get('compositor');
  return v === '2d' || v === 'webgl2' ? v : undefined;
}

/** ?pipeline=page runs the effect on the page's thread instead of a worker (to compare). */
function pipelineParam(): boolean | undefined {
  return new URLSearchParams(window.location.search).get('pipeline') === 'page' ? false : undefined;
}

/** ?segmentFps=N segments N frames a second in the worker (to compare). */
function segmentFpsParam(): number | undefined {
  const n = Number(new URLSearchParams(window.location.search).get('segmentFps'));
  return Number.isFinite(n) && n >= 1 && n <= 60 ? n : undefined;
}

const EFFECT_NAMES = { none: 'none', blur: 'blur', virtual: 'virtual', custom: 'virtual' } as const;

/** Puts the processor's canvas on the page as the preview; answers the function that removes it. */
function showPreview(holder: HTMLElement, canvas: HTMLCanvasElement): () => void {
  canvas.className = 'h-full w-full -scale-x-100 object-cover';
  canvas.setAttribute('aria-label', 'Camera preview');
  canvas.setAttribute('role', 'img');
  canvas.dataset.testid = 'demo-canvas';
  holder.appendChild(canvas);
  return () => canvas.remove();
}

function ProcessorBadge({ processor }: { processor: BackgroundProcessor }) {
  const snap = useStore(processor);
  const ready = snap.status === 'ready';
  return (
    <Badge
      variant={ready ? 'success' : snap.status === 'failed' ? 'danger' : 'warning'}
      data-testid="processor-badge"
    >
      {ready ? 'Ready' : snap.status === 'failed' ? 'Unavailable' : 'Initializing'}
    </Badge>
  );
}

/**
 * The camera preview: a 640x480 camera through a BackgroundProcessor whose canvas is the preview.
 * The processor lives while the camera is on; the chosen effect is applied to it as it changes.
 */
function usePreview(choice: BackgroundChoice) {
  const [processor, setProcessor] = useState<BackgroundProcessor | null>(null);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const track = useRef<MediaStreamTrack | null>(null);

  // The processor is disposed by the effect below when it is replaced.
  const stop = () => {
    track.current?.stop();
    track.current = null;
    setProcessor(null);
  };

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: DEMO_CAMERA.width }, height: { ideal: DEMO_CAMERA.height } },
        audio: false,
      });
      const camera = stream.getVideoTracks()[0] ?? null;
      if (!camera) throw new Error('No camera track');
      track.current = camera;
      const p = new BackgroundProcessor({
        onError: (message) => toast({ title: message, variant: 'destructive' }),
        // ?compositor=2d or =webgl2 picks the compositor (to compare them; tests use both).
        prefer: compositorParam(),
        worker: pipelineParam(),
        segmentFps: segmentFpsParam(),
        preview: true,
      });
      p.setInput(camera);
      setProcessor(p);
    } catch (err) {
      setError(cameraErrorMessage(err));
    } finally {
      setStarting(false);
    }
  };

  useEffect(() => {
    processor?.setEffect(
      processorEffectFor(choice) ?? { mode: 'none', intensity: choice.blurIntensity, imageUrl: null },
    );
  }, [processor, choice]);
  // A read-only handle for the browser tests and the benchmark (processing time per frame).
  useEffect(() => (processor ? exposeStats(processor) : undefined), [processor]);
  // The camera goes off when the page goes.
  useEffect(() => () => track.current?.stop(), []);
  useEffect(() => () => processor?.dispose(), [processor]);

  return { processor, starting, error, start, stop };
}

function Demo() {
  const saved = useSavedBackground();
  const preview = usePreview(saved.live);
  const holder = useRef<HTMLDivElement>(null);
  const canvas = preview.processor?.canvas ?? null;

  useEffect(() => (holder.current && canvas ? showPreview(holder.current, canvas) : undefined), [canvas]);

  return (
    <Page className="max-w-5xl">
      <Button asChild variant="ghost" size="sm" className="-ml-3 mb-4">
        <Link to="/settings">
          <ArrowLeft /> Back to Settings
        </Link>
      </Button>
      <div className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Virtual Background Demo</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-400">
          Try blur and virtual backgrounds on your camera. Your choice is saved and used in your next meeting.
        </p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardContent className="pt-6">
            <div className="relative aspect-[4/3] w-full overflow-hidden rounded-xl bg-slate-900">
              <div ref={holder} className="absolute inset-0" />
              {!canvas ? (
                <div className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-slate-300">
                  {preview.error ?? (preview.starting ? 'Starting the camera...' : 'Camera is off')}
                </div>
              ) : null}
              <div className="absolute left-2 top-2 flex flex-wrap gap-2">
                <Badge variant="brand" data-testid="demo-effect-badge">
                  Effect: {EFFECT_NAMES[saved.live.type]}
                </Badge>
                {preview.processor ? <ProcessorBadge processor={preview.processor} /> : null}
              </div>
            </div>
            <div className="mt-4 flex flex-wrap items-center gap-3">
              {preview.processor ? (
                <Button variant="secondary" onClick={preview.stop}>
                  <CameraOff /> Stop Camera
                </Button>
              ) : (
                <Button onClick={() => void preview.start()} disabled={preview.starting}>
                  <Camera /> Start Camera
                </Button>
              )}
              <span className="text-xs text-slate-500 dark:text-slate-400">
                {DEMO_CAMERA.width}x{DEMO_CAMERA.height} camera · processed in your browser
              </span>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Background</CardTitle>
            <CardDescription>None, blur, or a picture behind you.</CardDescription>
          </CardHeader>
          <CardContent>
            {saved.loading ? (
              <Spinner />
            ) : (
              <BackgroundPanel
                value={saved.value}
                onChange={saved.change}
                onPreview={saved.preview}
                signedIn={!!saved.user}
                isPro={saved.isPro}
              />
            )}
          </CardContent>
        </Card>
      </div>
    </Page>
  );
}

/** /background-demo (spec §2): signed-in users only ('Access Denied' with Go Home otherwise). */
export function BackgroundDemoPage() {
  const { user, isLoading } = useUser();
  if (isLoading) {
    return (
      <main className="flex flex-1 items-center justify-center py-16">
        <Spinner className="size-8" />
      </main>
    );
  }
  if (!user) {
    return <RequireSignIn title="Access Denied" message="Please log in to try background effects." />;
  }
  return <Demo />;
}
