import { afterEach, describe, expect, it, vi } from 'vitest';
import { BackgroundProcessor, PROCESSOR_ERRORS } from './background-processor';
import type { Compositor } from './compositor';

const fakeCompositor = (canvas: HTMLCanvasElement): Compositor => ({
  kind: '2d',
  canvas,
  draw: vi.fn(),
  dispose: vi.fn(),
});

afterEach(() => vi.unstubAllGlobals());

describe('BackgroundProcessor', () => {
  it("says 'Background processor not initialized' when an effect is asked of a model that failed to load", async () => {
    const onError = vi.fn();
    const p = new BackgroundProcessor({
      onError,
      createCompositor: fakeCompositor,
      segmenter: () => Promise.reject(new Error('no wasm')),
    });
    p.setEffect({ mode: 'blur', intensity: 5, imageUrl: null });
    await vi.waitFor(() => expect(p.getSnapshot().status).toBe('failed'));
    expect(onError).toHaveBeenCalledWith(PROCESSOR_ERRORS.notInitialized);
    // Asked again later, it says so again.
    onError.mockClear();
    p.setEffect({ mode: 'blur', intensity: 6, imageUrl: null });
    expect(onError).toHaveBeenCalledWith('Background processor not initialized');
    p.dispose();
  });

  it('stays quiet about a failed model while the effect is None', async () => {
    const onError = vi.fn();
    const p = new BackgroundProcessor({
      onError,
      createCompositor: fakeCompositor,
      segmenter: () => Promise.reject(new Error('no wasm')),
    });
    await vi.waitFor(() => expect(p.getSnapshot().status).toBe('failed'));
    p.setEffect({ mode: 'none', intensity: 5, imageUrl: null });
    expect(onError).not.toHaveBeenCalled();
    p.dispose();
  });

  it("says 'Failed to load background image' when the picture does not load (the dark fill stands in)", async () => {
    const onError = vi.fn();
    // jsdom loads no images: decode() rejects as a browser's does for a broken picture.
    vi.stubGlobal(
      'Image',
      class {
        decoding = '';
        src = '';
        decode() {
          return Promise.reject(new Error('broken'));
        }
      },
    );
    const p = new BackgroundProcessor({
      onError,
      createCompositor: fakeCompositor,
      segmenter: () => new Promise(() => undefined),
    });
    p.setEffect({ mode: 'image', intensity: 5, imageUrl: '/api/backgrounds/nope/image' });
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(PROCESSOR_ERRORS.image));
    expect(PROCESSOR_ERRORS.image).toBe('Failed to load background image');
    p.dispose();
  });
});
