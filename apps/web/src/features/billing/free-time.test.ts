import type { FreeTimeState } from '@parley/protocol/billing';
import { describe, expect, it } from 'vitest';
import { FreeTimeClient, formatCountdown, freeTimeView } from './free-time';

const base: FreeTimeState = {
  mode: 'free',
  reason: null,
  elapsedMs: 40 * 60_000,
  freeMs: 45 * 60_000,
  remainingMs: 5 * 60_000,
  graceRemainingMs: null,
  graceMs: 30_000,
  minuteMs: 60_000,
  prompt: true,
  warning: true,
  upgradeHint: true,
  overageMinutes: 0,
  overageCents: 0,
  running: true,
};

describe('free-time view', () => {
  it('counts down from what the server said, and never below zero', () => {
    const v = freeTimeView({ state: base, receivedAt: 1000 }, 1000 + 61_000);
    expect(v.remainingMs).toBe(4 * 60_000 - 1000);
    expect(formatCountdown(v.remainingMs)).toBe('3:59');
    expect(freeTimeView({ state: base, receivedAt: 0 }, 10 * 60_000).remainingMs).toBe(0);
  });

  it('shows nothing for Pro, a covered meeting, or before the server spoke', () => {
    expect(freeTimeView({ state: null, receivedAt: 0 }, 0).hidden).toBe(true);
    expect(
      freeTimeView({ state: { ...base, mode: 'unlimited', reason: 'pro' }, receivedAt: 0 }, 0).hidden,
    ).toBe(true);
  });

  it('the grace counts down; the phase itself only changes with the server', () => {
    const grace = { ...base, mode: 'grace' as const, remainingMs: 0, graceRemainingMs: 30_000 };
    const v = freeTimeView({ state: grace, receivedAt: 0 }, 12_500);
    expect(v.mode).toBe('grace');
    expect(formatCountdown(v.graceRemainingMs)).toBe('0:18');
    expect(freeTimeView({ state: grace, receivedAt: 0 }, 60_000).mode).toBe('grace');
  });

  it('a stopped clock does not count down', () => {
    const v = freeTimeView({ state: { ...base, running: false }, receivedAt: 0 }, 60_000);
    expect(v.remainingMs).toBe(5 * 60_000);
  });

  it('the client keeps the latest free_time from the socket', () => {
    let handler: ((m: { type: 'free_time'; freeTime: FreeTimeState }) => void) | null = null;
    const client = new FreeTimeClient(
      {
        on: (_type, h) => {
          handler = h;
          return () => (handler = null);
        },
      },
      () => 42,
    );
    handler!({ type: 'free_time', freeTime: base });
    expect(client.getSnapshot()).toEqual({ state: base, receivedAt: 42 });
    client.dispose();
    expect(handler).toBeNull();
  });
});
