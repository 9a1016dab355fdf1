import { TIMER_TICK_MS } from '@parley/protocol/constants';
import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';
import { useStore } from '@/lib/use-store';
import type { LocalMedia, LocalMediaSnapshot } from './media/local-media';
import type { RemoteMedia } from './media/remote-media';
import type { RoomSession, RoomSnapshot } from './room-session';

/** React's window onto the room's objects: subscriptions only, no media in React state. */

export function useRoom(session: RoomSession): RoomSnapshot {
  return useStore(session);
}

export function useLocalMedia(media: LocalMedia): LocalMediaSnapshot {
  return useStore(media);
}

/**
 * The remote stream and connection state of one participant, by the mesh or the SFU (re-read when
 * either changes).
 */
export function useRemotePeer(remote: RemoteMedia, participantId: string) {
  useSyncExternalStore(remote.subscribe, remote.getVersion, remote.getVersion);
  return remote.peer(participantId);
}

/** Attaches a stream to a media element and applies the chosen speaker (setSinkId). */
export function useAttachStream(
  ref: RefObject<HTMLVideoElement | HTMLAudioElement | null>,
  stream: MediaStream | null,
  version: unknown,
  sinkId?: string,
): void {
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (el.srcObject !== stream) el.srcObject = stream;
    if (stream) el.play().catch(() => undefined);
  }, [ref, stream, version]);
  useEffect(() => {
    const el = ref.current as (HTMLMediaElement & { setSinkId?: (id: string) => Promise<void> }) | null;
    if (!el || sinkId === undefined || !el.setSinkId) return;
    el.setSinkId(sinkId).catch((err: unknown) => console.warn('Could not switch the speaker', err));
  }, [ref, sinkId]);
}

/** Elapsed time since `startedAt` as mm:ss (minutes keep counting past 59), ticking every second. */
export function useElapsed(startedAt: string | number | null): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), TIMER_TICK_MS);
    return () => clearInterval(t);
  }, []);
  if (startedAt === null) return '00:00';
  const start = typeof startedAt === 'number' ? startedAt : Date.parse(startedAt);
  return formatElapsed(Math.max(0, now - start));
}

export function formatElapsed(ms: number): string {
  const total = Math.floor(ms / 1000);
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** A 0..1 microphone level from an AnalyserNode, sampled about 10 times a second. */
export function useAudioLevel(track: MediaStreamTrack | null, enabled: boolean): number {
  const [level, setLevel] = useState(0);
  useEffect(() => {
    if (!track || !enabled || typeof AudioContext === 'undefined') return;
    const ctx = new AudioContext();
    const src = ctx.createMediaStreamSource(new MediaStream([track]));
    const analyser = ctx.createAnalyser();
    analyser.fftSize = 512;
    src.connect(analyser);
    const data = new Uint8Array(analyser.fftSize);
    const t = setInterval(() => {
      analyser.getByteTimeDomainData(data);
      let peak = 0;
      for (const v of data) peak = Math.max(peak, Math.abs(v - 128) / 128);
      setLevel(peak);
    }, 100);
    return () => {
      clearInterval(t);
      src.disconnect();
      void ctx.close();
      setLevel(0);
    };
  }, [track, enabled]);
  return enabled ? level : 0;
}
