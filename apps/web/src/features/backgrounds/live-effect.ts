import { Store } from '@/lib/store';
import type { CameraEffect, LocalMedia } from '@/features/room/media/local-media';
import { NO_EFFECT, processorEffectFor, type BackgroundChoice } from './effect';
import { BackgroundProcessor, type ProcessorSnapshot } from './processor/background-processor';

/**
 * The background effect on a meeting's camera: one per LocalMedia. None means no processor at
 * all (the camera track is sent as it is, nothing runs); any other choice makes one processor
 * whose output track LocalMedia sends in place of the camera. Changing blur intensity or picture
 * only changes what the processor draws; the track, and so every connection's sender, stays.
 */
export interface LiveEffectSnapshot {
  choice: BackgroundChoice;
  processor: ProcessorSnapshot | null;
}

class ProcessorCameraEffect implements CameraEffect {
  constructor(
    readonly processor: BackgroundProcessor,
    private readonly onDispose: () => void,
  ) {}
  attach(camera: MediaStreamTrack): MediaStreamTrack {
    this.processor.setInput(camera);
    return this.processor.outputTrack;
  }
  setActive(active: boolean): void {
    this.processor.setActive(active);
  }
  dispose(): void {
    this.processor.dispose();
    this.onDispose();
  }
}

/**
 * `?bgPipeline=page` on a meeting's address runs the effect on the page's thread, as before the
 * worker pipeline: the benchmark measures both in the same call (bench/background-effects.ts).
 */
function pagePipelineAsked(): boolean {
  return new URLSearchParams(window.location.search).get('bgPipeline') === 'page';
}

export class LiveBackgroundEffect {
  private readonly store = new Store<LiveEffectSnapshot>({ choice: NO_EFFECT, processor: null });
  readonly getSnapshot = this.store.getSnapshot;
  readonly subscribe = this.store.subscribe;
  private effect: ProcessorCameraEffect | null = null;
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly media: LocalMedia,
    private readonly onError: (message: string) => void,
    private readonly makeProcessor: (onError: (m: string) => void) => BackgroundProcessor = (e) =>
      new BackgroundProcessor({ onError: e, worker: pagePipelineAsked() ? false : undefined }),
  ) {}

  apply(choice: BackgroundChoice): void {
    const drawn = processorEffectFor(choice);
    this.store.patch({ choice });
    if (!drawn) {
      // None: LocalMedia disposes the processor (see ProcessorCameraEffect.dispose).
      this.media.setCameraEffect(null);
      return;
    }
    if (!this.effect) {
      const processor = this.makeProcessor((m) => this.onError(m));
      const effect = new ProcessorCameraEffect(processor, () => this.detached(effect));
      this.effect = effect;
      const unsubscribe = processor.subscribe(() => this.store.patch({ processor: processor.getSnapshot() }));
      const unexpose = exposeStats(processor);
      this.unwatch = () => {
        unsubscribe();
        unexpose();
      };
      this.store.patch({ processor: processor.getSnapshot() });
      processor.setEffect(drawn);
      this.media.setCameraEffect(effect);
      return;
    }
    this.effect.processor.setEffect(drawn);
  }

  private detached(effect: ProcessorCameraEffect): void {
    if (this.effect !== effect) return;
    this.unwatch?.();
    this.unwatch = null;
    this.effect = null;
    this.store.patch({ processor: null });
  }
}

/**
 * A read-only handle for the browser tests and the benchmark: `window.__parleyBackground.stats()`
 * (frames processed and drawn, time per frame). Nothing here changes the effect.
 */
export function exposeStats(processor: BackgroundProcessor): () => void {
  const w = window as { __parleyBackground?: { stats: () => unknown } };
  const handle = { stats: () => ({ ...processor.getSnapshot(), ...processor.stats() }) };
  w.__parleyBackground = handle;
  return () => {
    if (w.__parleyBackground === handle) delete w.__parleyBackground;
  };
}

const live = new WeakMap<LocalMedia, LiveBackgroundEffect>();

/** The one live effect of this LocalMedia (the room's panel and its restorer share it). */
export function liveEffectFor(media: LocalMedia, onError: (message: string) => void): LiveBackgroundEffect {
  let e = live.get(media);
  if (!e) {
    e = new LiveBackgroundEffect(media, onError);
    live.set(media, e);
  }
  return e;
}
