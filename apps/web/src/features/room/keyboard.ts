import { useEffect, useRef } from 'react';

/** Single-key shortcuts of the room (M, V, S, C, P, T, Escape, ?); ignored while typing or with modifiers. */
export type ShortcutAction = 'mute' | 'video' | 'screen' | 'chat' | 'people' | 'tools' | 'escape' | 'help';

const KEYS: Record<string, ShortcutAction> = {
  m: 'mute',
  v: 'video',
  s: 'screen',
  c: 'chat',
  p: 'people',
  t: 'tools',
  escape: 'escape',
  '?': 'help',
};

export function shortcutFor(
  e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'>,
): ShortcutAction | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null;
  const t = e.target as HTMLElement | null;
  const typing = !!t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));
  const action = KEYS[e.key.toLowerCase()] ?? null;
  if (typing && action !== 'escape') return null;
  return action;
}

export function useShortcuts(handler: (a: ShortcutAction) => void, enabled: boolean): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat) return;
      // An open dialog handles its own keys.
      if (document.querySelector('[role="dialog"]')) return;
      // The whiteboard (Excalidraw) has single-letter keys of its own (R, P, T, Escape...).
      if (document.querySelector('[data-own-shortcuts]')) return;
      const action = shortcutFor(e);
      if (!action) return;
      e.preventDefault();
      ref.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
