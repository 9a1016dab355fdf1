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
 */
export async function startMedia(
  config: MediaConfig,
  log: SupervisorLog,
  events: MediaEvents,
): Promise<StartedMedia> {
  if (config.provider === 'p2p') {
    return {
      provider: p2pMedia,
      supervisor: null,
      summary: 'meetings are peer-to-peer (MEDIA_PROVIDER=p2p)',
    };
  }
  if (config.janusUrl) {
    const media = new JanusMedia(
      { url: config.janusUrl, apiSecret: config.janusApiSecret ?? '', recDir: config.recordingsDir, log },
      events,
    );
    const up = await media.start(5_000);
    return {
      provider: media,
      supervisor: null,
      summary: up
        ? `meetings of three or more go through Janus at ${config.janusUrl}`
        : `Janus at ${config.janusUrl} does not answer yet (retrying); meanwhile meetings stay peer-to-peer`,
    };
  }
  if (!janusInstalled(config.janusBin)) {
    return {
      provider: p2pMedia,
      supervisor: null,
      summary:
        'Janus is not installed (Debian package `janus`; scripts/install-system-deps.sh): meetings stay ' +
        'peer-to-peer, capped at 4 participants',
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

export { JanusMedia, JanusSupervisor, janusInstalled };
