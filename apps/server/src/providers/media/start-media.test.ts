import { describe, expect, it, vi } from 'vitest';
import { janodeLoadFailure, loadJanode, type JanodeLoader } from './janode-loader.js';
import { janusInstalled, sfuStatus, startMedia, type MediaConfig } from './index.js';
import type { MediaEvents } from './types.js';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const events: MediaEvents = {
  onOffer: () => undefined,
  onActiveSpeaker: () => undefined,
  onLost: () => undefined,
  onRecovered: () => undefined,
};
const config = (media: Partial<MediaConfig>): MediaConfig => ({
  provider: 'auto',
  janusUrl: undefined,
  janusApiSecret: undefined,
  janusBin: '/nonexistent/janus',
  iceEnforceList: [],
  recordingsDir: null,
  ...media,
});
/** What `bindings` throws for an addon that never built (unix-dgram/lib/unix_dgram.js, line 4). */
const addonMissing = (): Error =>
  new Error(
    'Could not locate the bindings file. Tried:\n' +
      ' → /app/node_modules/unix-dgram/build/unix_dgram.node\n' +
      ' → /app/node_modules/unix-dgram/build/Release/unix_dgram.node',
  );
const failingLoader = () => vi.fn<JanodeLoader>(() => Promise.reject(addonMissing()));

/** Issue 38 item 4: janode (and its native addon) is loaded only when Janus is used, and fails soft. */
describe('startMedia and loading janode', () => {
  it('MEDIA_PROVIDER=p2p never loads janode', async () => {
    const load = failingLoader();
    const started = await startMedia(config({ provider: 'p2p' }), log, events, { loadJanode: load });
    expect(load).not.toHaveBeenCalled();
    expect(started.provider.kind).toBe('p2p');
    expect(sfuStatus(started.provider)).toEqual({
      state: 'off',
      reason: 'peer-to-peer only (MEDIA_PROVIDER=p2p)',
    });
  });

  it('without Janus installed it does not load janode either, and says Janus is missing', async () => {
    const load = failingLoader();
    const started = await startMedia(config({ provider: 'auto' }), log, events, { loadJanode: load });
    expect(load).not.toHaveBeenCalled();
    expect(started.summary).toContain('Janus is not installed');
    expect(sfuStatus(started.provider)).toEqual({ state: 'off', reason: 'Janus is not installed' });
  });

  it('an external Janus whose client does not load: peer-to-peer, with the reason', async () => {
    const load = failingLoader();
    const started = await startMedia(
      config({ provider: 'janus', janusUrl: 'ws://127.0.0.1:9', janusApiSecret: 's' }),
      log,
      events,
      { loadJanode: load },
    );
    expect(load).toHaveBeenCalledTimes(1);
    expect(started.provider.kind).toBe('p2p');
    expect(started.supervisor).toBeNull();
    expect(started.summary).toMatch(
      /^SFU off: the native addon unix-dgram did not load \(Could not locate the bindings file\); meetings stay peer-to-peer, capped at 4 participants\. Reinstall with build tools/,
    );
    // The paths `bindings` tried stay out of the start-up line.
    expect(started.summary).not.toContain('/app/node_modules');
    expect(sfuStatus(started.provider)).toEqual({
      state: 'off',
      reason: 'the native addon unix-dgram did not load',
    });
  });

  it.skipIf(!janusInstalled())('our own Janus is not started when janode does not load', async () => {
    const load = failingLoader();
    const started = await startMedia(config({ provider: 'auto', janusBin: 'janus' }), log, events, {
      loadJanode: load,
    });
    expect(load).toHaveBeenCalledTimes(1);
    expect(started.supervisor).toBeNull();
    expect(started.provider.kind).toBe('p2p');
  });

  it('tells the addon from janode itself, and keeps an ABI mismatch short', () => {
    expect(janodeLoadFailure(new Error("Cannot find package 'janode'")).reason).toBe(
      'the Janus client janode did not load',
    );
    const abi = janodeLoadFailure(
      new Error(
        "The module '/app/node_modules/unix-dgram/build/Release/unix_dgram.node'\n" +
          'was compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This ' +
          'version of Node.js requires\nNODE_MODULE_VERSION 115. Please try re-compiling or re-installing\n' +
          'the module (for instance, using `npm rebuild` or `npm install`).',
      ),
    );
    expect(abi.reason).toBe('the native addon unix-dgram did not load');
    expect(abi.detail.length).toBeLessThanOrEqual(200);
    expect(abi.detail).not.toContain('\n');
  });

  it('the real loader gives janode and its VideoRoom plugin where the addon is built', async () => {
    const janode = await loadJanode();
    expect(typeof janode.core.connect).toBe('function');
    expect(janode.videoRoom.Handle).toBeTypeOf('function');
  });
});
