import { peerConnectionConfig } from './peer-link';

/**
 * One RTCPeerConnection made ahead of time, so a link never negotiates on a connection that is
 * only a few milliseconds old.
 *
 * Why: in Chromium each new RTCPeerConnection asks, asynchronously, whether the page holds camera
 * and microphone permission before it lets its candidate gathering see the network interfaces
 * (blink FilteringNetworkManager). Every allocator session that starts meanwhile (the 10 of the
 * candidate pool at construction, one more at setLocalDescription or an ICE restart) marks a
 * network update as pending; if the first permission answer lands while one is pending, and the
 * update that follows brings the same list again, the connection never signals its networks: it
 * gathers no candidate, ever (Chromium's log shows the list received and no port allocated for
 * that connection). A join's first setLocalDescription comes 20-60 ms after construction, just when
 * those answers arrive: about 1 join in 25 lost its connection until the 3 s watchdog rebuilt it.
 * A connection made while the pre-join dialog shows has settled by the time Join is clicked,
 * and sessions it starts later see the networks at once.
 *
 * The reserve keeps one such spare; `take` hands it out (with the room's ICE servers) and makes the
 * next one a second later. Created when the room page opens, closed when it unmounts.
 */

type CreatePeerConnection = (config: RTCConfiguration) => RTCPeerConnection;

/**
 * The next spare is made this long after one is taken, so its candidate pool does not compete with
 * the join that is negotiating on the one just taken (a spare made at once would be as new as a
 * fresh connection anyway if a second link needed it right away).
 */
const REFILL_DELAY_MS = 1000;

export class PeerConnectionReserve {
  private spare: RTCPeerConnection | null = null;
  private iceServers: RTCIceServer[] = [];
  private refill: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly create: CreatePeerConnection = (config) => new RTCPeerConnection(config)) {
    this.spare = this.make();
  }

  /** A connection for a new link: the settled spare when there is one, otherwise a new one. */
  take = (config: RTCConfiguration): RTCPeerConnection => {
    if (this.disposed) return this.create(config);
    this.iceServers = config.iceServers ?? [];
    const spare = this.spare;
    this.spare = null;
    this.scheduleRefill();
    if (spare && spare.signalingState === 'stable' && spare.connectionState === 'new') {
      try {
        if (!sameIceServers(spare.getConfiguration().iceServers ?? [], this.iceServers)) {
          spare.setConfiguration({ ...spare.getConfiguration(), iceServers: this.iceServers });
        }
        return spare;
      } catch {
        spare.close();
      }
    }
    return this.create(config);
  };

  dispose(): void {
    this.disposed = true;
    if (this.refill) clearTimeout(this.refill);
    this.refill = null;
    this.spare?.close();
    this.spare = null;
  }

  private make(): RTCPeerConnection | null {
    try {
      return this.create(peerConnectionConfig(this.iceServers));
    } catch {
      return null;
    }
  }

  private scheduleRefill(): void {
    if (this.refill) return;
    this.refill = setTimeout(() => {
      this.refill = null;
      if (!this.disposed && !this.spare) this.spare = this.make();
    }, REFILL_DELAY_MS);
  }
}

function sameIceServers(a: RTCIceServer[], b: RTCIceServer[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Whether the page may already use the camera or the microphone (no prompt pending). */
export async function mediaPermissionGranted(): Promise<boolean> {
  const query = (name: string) =>
    navigator.permissions
      ?.query({ name: name as PermissionName })
      .then((s) => s.state === 'granted')
      .catch(() => false) ?? Promise.resolve(false);
  const [camera, microphone] = await Promise.all([query('camera'), query('microphone')]);
  return camera || microphone;
}
