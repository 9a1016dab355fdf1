import type { PeerMesh } from './peer-mesh';
import type { SfuSession } from './sfu-session';

export interface RemotePeer {
  stream: MediaStream | null;
  connectionState: RTCPeerConnectionState;
  hasVideo: boolean;
  /** Which path the stream comes by. */
  path: 'mesh' | 'sfu' | null;
}

/**
 * Where each remote participant's media comes from: the SFU once its media flows there, the
 * mesh link before (during the switch both exist; the mesh link closes after the SFU flows).
 * With no mesh link to wait on (someone joining a room already on the SFU), the SFU stream is
 * shown as soon as it exists: the tile's video paints the first decoded frame itself, where
 * waiting for `isFlowing` (a getStats poll seeing that frame, then a render) held every tile of
 * the newcomer back until the slowest poll, 100-500 ms after the frames were there (bench
 * join-to-first-frame, sfu4light). One subscribe/getVersion over both, for the tiles.
 */
export class RemoteMedia {
  /**
   * Tries a participant's media path again (a tile's Retry after "Could not connect"): set by the
   * media route, which knows whether that is a fresh mesh link or a fresh SFU session.
   */
  onRetry: ((participantId: string) => void) | null = null;
  private sfu: SfuSession | null = null;
  private unsubscribeSfu: (() => void) | null = null;
  private readonly listeners = new Set<() => void>();
  private version = 0;

  constructor(private readonly mesh: PeerMesh) {
    mesh.subscribe(this.changed);
  }

  private changed = (): void => {
    this.version += 1;
    for (const l of this.listeners) l();
  };

  subscribe = (l: () => void): (() => void) => {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  };

  getVersion = (): number => this.version;

  setSfu(sfu: SfuSession | null): void {
    this.unsubscribeSfu?.();
    this.sfu = sfu;
    this.unsubscribeSfu = sfu ? sfu.subscribe(this.changed) : null;
    this.changed();
  }

  retry(participantId: string): void {
    this.onRetry?.(participantId);
    this.changed();
  }

  peer(participantId: string): RemotePeer {
    const sfu = this.sfu;
    const link = this.mesh.get(participantId);
    const sfuStream = sfu && (!link || sfu.isFlowing(participantId)) ? sfu.streamOf(participantId) : null;
    if (sfu && sfuStream) {
      return {
        stream: sfuStream,
        connectionState: sfu.subscriber?.connectionState ?? 'new',
        hasVideo: sfuStream.getVideoTracks().some((t) => t.readyState === 'live'),
        path: 'sfu',
      };
    }
    return {
      stream: link?.remoteStream ?? null,
      connectionState: link?.connectionState ?? 'new',
      hasVideo: !!link?.remoteStream.getVideoTracks().some((t) => t.readyState === 'live'),
      path: link ? 'mesh' : null,
    };
  }
}
