import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { wins, writeScene, type SharedElement } from './whiteboard-sync';

const el = (id: string, version: number, versionNonce: number, extra: Record<string, unknown> = {}) =>
  ({ id, version, versionNonce, ...extra }) as SharedElement;

describe('whiteboard sync', () => {
  it('a newer version wins; at the same version the lower nonce wins', () => {
    expect(wins(el('a', 2, 5), el('a', 1, 1))).toBe(true);
    expect(wins(el('a', 1, 1), el('a', 2, 5))).toBe(false);
    expect(wins(el('a', 3, 1), el('a', 3, 9))).toBe(true);
    expect(wins(el('a', 3, 9), el('a', 3, 1))).toBe(false);
    expect(wins(el('a', 3, 9), el('a', 3, 9))).toBe(false);
    expect(wins(el('a', 1, 1), undefined)).toBe(true);
  });

  it('two boards that edit the same shape concurrently settle on the same one', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    const ma = a.getMap<SharedElement>('whiteboard');
    const mb = b.getMap<SharedElement>('whiteboard');
    writeScene(ma, [el('r', 1, 50)], (fn) => a.transact(fn));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    // Both move the rectangle: same version, different nonces.
    writeScene(ma, [el('r', 2, 70, { x: 1 })], (fn) => a.transact(fn));
    writeScene(mb, [el('r', 2, 30, { x: 2 })], (fn) => b.transact(fn));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    // Each side writes back its element only if it beats what the map settled on.
    writeScene(ma, [el('r', 2, 70, { x: 1 })], (fn) => a.transact(fn));
    writeScene(mb, [el('r', 2, 30, { x: 2 })], (fn) => b.transact(fn));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    expect(ma.get('r')).toEqual(mb.get('r'));
    expect(ma.get('r')).toMatchObject({ versionNonce: 30, x: 2 });
  });

  it('writes only what changed', () => {
    const d = new Y.Doc();
    const m = d.getMap<SharedElement>('whiteboard');
    expect(writeScene(m, [el('a', 1, 1), el('b', 1, 1)], (fn) => d.transact(fn))).toBe(2);
    expect(writeScene(m, [el('a', 1, 1), el('b', 2, 1)], (fn) => d.transact(fn))).toBe(1);
  });
});
