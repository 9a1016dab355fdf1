import type { SfuStatus } from '@parley/protocol';
import { janodeLoadFailure, loadJanode, type Janode, type JanodeLoader } from './janode-loader.js';
import { JanusMedia } from './janus-media.js';
import { JanusSupervisor, janusInstalled, type SupervisorLog } from './janus-supervisor.js';
import type { MediaEvents, MediaProvider } from './types.js';

export type {
  IceCandidateInit,
  Jsep,
  MediaEvents,
  MediaProvider,
  SfuLayer,
  SfuStream,
  SfuTarget,
  SfuVideoWant,
} from './types.js';

export interface MediaConfig {
  /** `auto`: Janus when installed (or JANUS_URL is set), else peer-to-peer. */
  provider: 'auto' | 'p2p' | 'janus';
  janusUrl: string | undefined;
  janusApiSecret: string | undefined;
  janusBin: string;
  iceEnforceList: string[];
  /** Janus's rec_dir (see Config.media.recordingsDir); null: no recording. */
  recordingsDir: string | null;
}

/** Peer-to-peer only: the browsers' mesh; the server has no media part. */
export const p2pMedia: MediaProvider = {
  kind: 'p2p',
  sfuOff: 'peer-to-peer only (MEDIA_PROVIDER=p2p)',
  available: () => false,
  publish: () => Promise.reject(new Error('No SFU')),
  subscribe: () => Promise.reject(new Error('No SFU')),
  answer: () => Promise.reject(new Error('No SFU')),
  resendOffer: () => false,
  trickle: () => Promise.resolve(),
  view: () => Promise.reject(new Error('No SFU')),
  keyframe: () => Promise.resolve(false),
  recordingDir: null,
  startRecording: () => Promise.reject(new Error('No SFU')),
  stopRecording: () => Promise.resolve(),
  activeSpeaker: () => null,
  leave: () => Promise.resolve(),
  closeRoom: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

/** Peer-to-peer because the SFU could not be had: `sfuOff` says why. */
function withoutSfu(sfuOff: string): MediaProvider {
  return { ...p2pMedia, sfuOff };
}

/** What GET /api/health and /api/features say about the SFU. */
export function sfuStatus(provider: MediaProvider): SfuStatus {
  if (provider.kind === 'p2p') return { state: 'off', reason: provider.sfuOff };
  return { state: provider.available() ? 'up' : 'connecting', reason: null };
}

export interface StartMediaDeps {
  /** How janode is loaded (tests give one that fails); default: `import('janode')`. */
  loadJanode?: JanodeLoader;
}

export interface StartedMedia {
  provider: MediaProvider;
  /** Our own Janus, when we run it. */
  supervisor: JanusSupervisor | null;
  /** What start-up says about meetings' media. */
  summary: string;
}

/**
 * The media provider the configuration asks for: an external Janus (JANUS_URL with its
 * JANUS_API_SECRET), our own supervised Janus (installed, no JANUS_URL), or peer-to-peer.
 * janode is loaded only on the Janus paths, before our Janus is started; when it (or its native
 * addon) does not load, the server starts all the same, on peer-to-peer media, and says why.
 */
export async function startMedia(
  config: MediaConfig,
  log: SupervisorLog,
  events: MediaEvents,
  deps: StartMediaDeps = {},
): Promise<StartedMedia> {
  if (config.provider === 'p2p') {
    return {
      provider: p2pMedia,
      supervisor: null,
      summary: 'meetings are peer-to-peer (MEDIA_PROVIDER=p2p)',
    };
  }
  const external = config.janusUrl;
  if (!external && !janusInstalled(config.janusBin)) {
    return {
      provider: withoutSfu('Janus is not installed'),
      supervisor: null,
      summary:
        'Janus is not installed (Debian package `janus`; scripts/install-system-deps.sh): meetings stay ' +
        'peer-to-peer, capped at 4 participants',
    };
  }
  let janode: Janode;
  try {
    janode = await (deps.loadJanode ?? loadJanode)();
  } catch (err) {
    const failure = janodeLoadFailure(err);
    log.debug({ err }, 'janode did not load');
    return {
      provider: withoutSfu(failure.reason),
      supervisor: null,
      summary:
        `SFU off: ${failure.reason} (${failure.detail}); meetings stay peer-to-peer, capped at 4 ` +
        `participants. ${failure.remedy} (docs/deployment.md)`,
    };
  }
  if (external) {
    const media = new JanusMedia(
      { janode, url: external, apiSecret: config.janusApiSecret ?? '', recDir: config.recordingsDir, log },
      events,
    );
    const up = await media.start(5_000);
    return {
      provider: media,
      supervisor: null,
      summary: up
        ? `meetings of three or more go through Janus at ${external}`
        : `Janus at ${external} does not answer yet (retrying); meanwhile meetings stay peer-to-peer`,
    };
  }
  const supervisor = new JanusSupervisor({
    bin: config.janusBin,
    iceEnforceList: config.iceEnforceList,
    log,
  });
  await supervisor.start();
  const media = new JanusMedia(
    {
      janode,
      url: supervisor.url,
      apiSecret: supervisor.apiSecret,
      adminKey: supervisor.adminKey,
      recDir: config.recordingsDir,
      log,
    },
    events,
  );
  const up = await media.start(10_000);
  return {
    provider: media,
    supervisor,
    summary: up
      ? `meetings of three or more go through our own Janus (pid ${supervisor.pid}, ${supervisor.url})`
      : 'our own Janus did not answer within 10 s (retrying); meanwhile meetings stay peer-to-peer',
  };
}

export { JanusMedia, JanusSupervisor, janusInstalled, loadJanode };
export type { Janode, JanodeLoader };
