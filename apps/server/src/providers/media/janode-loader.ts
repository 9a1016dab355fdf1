import type JanodeCore from 'janode';
import type VideoRoomPlugin from 'janode/plugins/videoroom';

/**
 * npm `janode`, loaded only on the Janus path (startMedia), never at module import.
 *
 * Why: janode's index (`janode` → src/connection.js) imports both of its transports, and the
 * Unix-socket one (src/transport-unix.js) imports the native addon `unix-dgram` at module load
 * (`bindings('unix_dgram.node')`). So `import 'janode'` throws when that addon did not build (no
 * compiler at install, npm 12 skipping its unapproved install script, or an install made for
 * another Node ABI), although we only ever use the WebSocket transport, which does not need it.
 * janode exports no narrower entry for its connection; `janode/plugins/videoroom` alone does not
 * reach the addon (it imports only src/handle.js), but it is no use without a connection.
 */
export interface Janode {
  core: typeof JanodeCore;
  videoRoom: typeof VideoRoomPlugin;
}

/** Loads janode; rejects when janode or its native addon cannot be loaded. */
export type JanodeLoader = () => Promise<Janode>;

export const loadJanode: JanodeLoader = async () => {
  const [core, videoRoom] = await Promise.all([import('janode'), import('janode/plugins/videoroom')]);
  return { core: core.default, videoRoom: videoRoom.default };
};

/**
 * Why janode did not load: `reason` in a few words (GET /api/health says it), `detail` the
 * error's gist, `remedy` what brings Janus back.
 */
export interface JanodeLoadFailure {
  reason: string;
  detail: string;
  remedy: string;
}

export function janodeLoadFailure(err: unknown): JanodeLoadFailure {
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error ? (err.stack ?? '') : '';
  // `bindings` lists every path it tried after "Tried:"; a wrong ABI names NODE_MODULE_VERSIONs.
  const gist = message.split('Tried:')[0]!.replace(/\s+/g, ' ').trim().replace(/[.:]$/, '');
  const detail = gist.length > 200 ? `${gist.slice(0, 199)}…` : gist || 'no message';
  const addon = /unix[-_]dgram/.test(`${message}\n${stack}`);
  return addon
    ? {
        reason: 'the native addon unix-dgram did not load',
        detail,
        remedy:
          'Reinstall with build tools (python3, make, g++; then `npm rebuild unix-dgram`) to enable Janus',
      }
    : {
        reason: 'the Janus client janode did not load',
        detail,
        remedy: 'Reinstall (`npm ci`) to enable Janus',
      };
}
