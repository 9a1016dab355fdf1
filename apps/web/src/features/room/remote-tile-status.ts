import type { RoomParticipant } from '@parley/protocol/ws';
import { useEffect, useState } from 'react';
import type { RemoteMedia } from './media/remote-media';

/**
 * How long a tile waits for its participant's media before it says "Could not connect" and offers
 * Retry. A mesh join on this 2-core machine connects in 0.4-1.6 s (docs/media.md), a stuck link is
 * rebuilt after 3 s (no candidate) or 15 s (offers unanswered), an ICE restart after 8 s: past
 * 15 s without media nothing automatic is likely to help soon, and the person should know.
 */
export const MEDIA_WAIT_GIVE_UP_MS = 15_000;

/**
 * How long a tile says "Reconnecting..." for a participant whose connection dropped; then it dims
 * and says "Connection lost" until they come back or the server lets them go (its resume grace).
 * A participant who closed their tab leaves at once instead (the server's closed grace).
 */
export const RECONNECTING_SHOWN_MS = 10_000;

/**
 * What a remote tile says about the way to its participant's media:
 * - `connected`: the connection is up (the picture or "Video off" shows);
 * - `connecting`: the participant is in the room and their media is on its way ("Connecting...",
 *   never the same as "Video off", which is their choice);
 * - `reconnecting`: their socket is away, or an up connection dropped ("Reconnecting...");
 * - `lost`: their socket has been away for RECONNECTING_SHOWN_MS (dimmed, "Connection lost");
 * - `failed`: no media for MEDIA_WAIT_GIVE_UP_MS ("Could not connect", with Retry).
 */
export type RemoteTileStatus = 'connected' | 'connecting' | 'reconnecting' | 'lost' | 'failed';

export function tileStatus(
  participant: Pick<RoomParticipant, 'isConnected'>,
  connectionState: RTCPeerConnectionState,
  gaveUp: boolean,
  awayLong = false,
): RemoteTileStatus {
  if (!participant.isConnected) return awayLong ? 'lost' : 'reconnecting';
  if (connectionState === 'connected') return 'connected';
  if (gaveUp) return 'failed';
  return connectionState === 'failed' || connectionState === 'disconnected' ? 'reconnecting' : 'connecting';
}

/**
 * The tile's status, and `retry` for its Retry button: a fresh connection (RemoteMedia.retry) and
 * a new MEDIA_WAIT_GIVE_UP_MS wait. The wait counts while the participant is in the room and their
 * connection is not up, through rebuilds and ICE restarts alike.
 */
export function useRemoteTileStatus(
  remote: RemoteMedia,
  participant: Pick<RoomParticipant, 'id' | 'isConnected'>,
  connectionState: RTCPeerConnectionState,
): { status: RemoteTileStatus; retry: () => void } {
  const [gaveUp, setGaveUp] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [awayLong, setAwayLong] = useState(false);
  const waiting = participant.isConnected && connectionState !== 'connected';
  const away = !participant.isConnected;
  useEffect(() => {
    if (!away) return;
    const timer = setTimeout(() => setAwayLong(true), RECONNECTING_SHOWN_MS);
    return () => {
      clearTimeout(timer);
      setAwayLong(false);
    };
  }, [away]);
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setGaveUp(true), MEDIA_WAIT_GIVE_UP_MS);
    return () => {
      clearTimeout(timer);
      setGaveUp(false);
    };
  }, [waiting, attempt]);
  return {
    status: tileStatus(participant, connectionState, gaveUp && waiting, awayLong && away),
    retry: () => {
      remote.retry(participant.id);
      setAttempt((n) => n + 1);
    },
  };
}
