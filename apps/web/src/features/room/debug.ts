import type { RoomSession } from './room-session';

/**
 * A read-only debugging handle for the browser tests and for people diagnosing a call from the
 * devtools console: `window.__parley`. It exposes the live RTCPeerConnections (to read
 * `getStats()`), the signaling state and the room's participants. Nothing here changes the call.
 *
 *   window.__parley.peerConnections()  → [{ participantId, pc, polite, iceRestarts }]
 *   window.__parley.signalState()      → 'idle' | 'connecting' | 'waiting' | 'joined' | 'reconnecting' | 'closed'
 *   window.__parley.selfId()           → this participant's id, or null before the join
 *   window.__parley.participants()     → the other participants as the room sees them
 *   window.__parley.sfu()              → the SFU connections and whose media each m-line carries, or null
 */
export interface ParleyDebugHandle {
  peerConnections(): { participantId: string; pc: RTCPeerConnection; polite: boolean; iceRestarts: number }[];
  signalState(): string;
  selfId(): string | null;
  participants(): { id: string; name: string; isConnected: boolean }[];
  sfu(): {
    publisher: RTCPeerConnection | null;
    subscriber: RTCPeerConnection | null;
    streams: { participantId: string; mid: string; kind: string }[];
  } | null;
}

declare global {
  interface Window {
    __parley?: ParleyDebugHandle;
  }
}

export function installDebugHandle(session: RoomSession): () => void {
  const handle: ParleyDebugHandle = {
    peerConnections: () =>
      session.route.mesh
        .all()
        .map((l) => ({ participantId: l.remoteId, pc: l.pc, polite: l.polite, iceRestarts: l.iceRestarts })),
    signalState: () => session.signal.state,
    selfId: () => session.getSnapshot().self?.id ?? null,
    participants: () =>
      session.getSnapshot().participants.map(({ id, name, isConnected }) => ({ id, name, isConnected })),
    sfu: () => {
      const sfu = session.route.sfu;
      return sfu ? { publisher: sfu.publisher, subscriber: sfu.subscriber, streams: sfu.streamMap() } : null;
    },
  };
  window.__parley = handle;
  return () => {
    if (window.__parley === handle) delete window.__parley;
  };
}
