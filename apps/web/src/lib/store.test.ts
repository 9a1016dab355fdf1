import { describe, expect, it, vi } from 'vitest';
import { Store } from './store';

describe('Store', () => {
  it('tells subscribers about a change, and stops telling them once they unsubscribe', () => {
    const store = new Store({ n: 1, label: 'a' });
    const seen: number[] = [];
    const off = store.subscribe(() => seen.push(store.getSnapshot().n));
    store.patch({ n: 2 });
    expect(store.getSnapshot()).toEqual({ n: 2, label: 'a' });
    off();
    store.patch({ n: 3 });
    expect(seen).toEqual([2]);
  });

  it('keeps the same snapshot object until something is set, and ignores setting the same object', () => {
    const store = new Store({ n: 1 });
    const first = store.getSnapshot();
    expect(store.getSnapshot()).toBe(first);
    const listener = vi.fn();
    store.subscribe(listener);
    store.set(first);
    expect(listener).not.toHaveBeenCalled();
    store.patch({ n: 1 });
    expect(store.getSnapshot()).not.toBe(first);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('lets a listener unsubscribe another while being called', () => {
    const store = new Store(0);
    const second = vi.fn();
    let offSecond = () => {};
    store.subscribe(() => offSecond());
    offSecond = store.subscribe(second);
    store.set(1);
    store.set(2);
    expect(second).toHaveBeenCalledTimes(1);
  });
});
