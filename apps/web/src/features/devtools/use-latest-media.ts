import { useCallback, useEffect, useRef } from 'react';

function stopAll(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

/**
 * Media requests where only the latest one, while the page is mounted, is kept: a stream that
 * resolves after the page unmounted (or after a newer request) is stopped at once, so the camera
 * light goes off. The callback answers null for such a stream.
 *
 * The stream last handed out is also stopped when the page unmounts: it may have been handed out
 * just before the unmount, while the page's own state update (and the effect that would stop it)
 * never committed — a navigation in a transition leaves exactly that window.
 */
export function useLatestMedia() {
  const latest = useRef(0);
  const handedOut = useRef<MediaStream | null>(null);
  useEffect(() => {
    const counter = latest;
    const held = handedOut;
    return () => {
      counter.current++;
      stopAll(held.current);
      held.current = null;
    };
  }, []);
  return useCallback(async <T>(acquire: () => Promise<T>, streamOf: (v: T) => MediaStream | null) => {
    const mine = ++latest.current;
    const value = await acquire();
    if (mine === latest.current) {
      handedOut.current = streamOf(value);
      return value;
    }
    stopAll(streamOf(value));
    return null;
  }, []);
}
