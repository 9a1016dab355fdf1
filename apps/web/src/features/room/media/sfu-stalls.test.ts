import { SFU_VIEW } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePC, FakeStream, offer, session } from './sfu-fakes';
import { STALL_CHECK_MS } from './sfu-session';

beforeEach(() => {
  FakePC.made = [];
  vi.stubGlobal('MediaStream', FakeStream);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('SfuSession: a shown video that decodes nothing', () => {
  it('asks for a key frame for a shown video that decodes nothing, while it lasts', async () => {
    const cameraOff = new Set(['cy']);
    const { sfu, signal } = session({ sendsVideo: (id) => !cameraOff.has(id) });
    await sfu.start();
    sfu.setView(['ann', 'bob', 'cy'].map((participantId) => ({ participantId, quality: 'low' as const })));
    sfu.handleOffer(
      offer(
        ['ann', 'bob', 'cy', 'dee'].map((id, i) => ({
          mid: String(i),
          participantId: id,
          kind: 'video',
          active: true,
        })),
      ),
    );
    await vi.advanceTimersByTimeAsync(0);
    const sub = sfu.subscriber as unknown as FakePC;
    sub.connectionState = 'connected';
    const track = (mid: string) => sub.transceivers.find((t) => t.mid === mid)!.receiver.track;
    const asked = () => signal.sent.flatMap((m) => (m.type === 'sfu_keyframe' ? [m.participantId] : []));
    // Ann decodes all along; Bob nothing (asked once stallMs has passed); Cy's camera is off and
    // Dee is not shown: neither is asked for.
    const run = async (ms: number) => {
      for (let t = 0; t < ms; t += STALL_CHECK_MS) {
        track('0').framesDecoded += 15;
        await vi.advanceTimersByTimeAsync(STALL_CHECK_MS);
      }
    };
    await run(SFU_VIEW.stallMs);
    expect(asked()).toEqual([]);
    await run(2 * STALL_CHECK_MS);
    expect(asked()).toEqual(['bob']);
    // Still nothing: asked again each stallMs, not each check.
    await run(SFU_VIEW.stallMs);
    expect(asked()).toEqual(['bob', 'bob']);
    // Bob's key frame came: no more requests while he decodes.
    for (let i = 0; i < 6; i++) {
      track('1').framesDecoded += 15;
      await run(STALL_CHECK_MS);
    }
    expect(asked()).toEqual(['bob', 'bob']);
    sfu.close();
    await run(2 * SFU_VIEW.stallMs);
    expect(asked()).toEqual(['bob', 'bob']);
  });
});
