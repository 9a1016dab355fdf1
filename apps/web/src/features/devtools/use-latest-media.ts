import { useCallback, useEffect, useRef } from 'react';

/**
 * Media requests where only the latest one, while the page is mounted, is kept: a stream that
 * resolves after the page unmounted (or after a newer request) is stopped at once, so the camera
 * light goes off. The callback answers null for such a stream.
 */
export function useLatestMedia() {
  const latest = useRef(0);
  useEffect(() => {
    const counter = latest;
    return () => {
      counter.current++;
    };
  }, []);
  return useCallback(async <T>(acquire: () => Promise<T>, streamOf: (v: T) => MediaStream | null) => {
    const mine = ++latest.current;
    const value = await acquire();
    if (mine === latest.current) return value;
    streamOf(value)
      ?.getTracks()
      .forEach((t) => t.stop());
    return null;
  }, []);
}
