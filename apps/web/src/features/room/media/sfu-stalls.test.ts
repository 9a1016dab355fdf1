import { SFU_VIEW } from '@parley/protocol/constants';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakePC, FakeStream, offer, session } from './sfu-fakes';
import { STALL_CHECK_MS, VIEW_RESEND_MS } from './sfu-session';

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
    const { sfu, signal, view } = session({ sendsVideo: (id) => !cameraOff.has(id) });
    await sfu.start();
    view.set(['ann', 'bob', 'cy'].map((participantId) => ({ participantId, quality: 'low' as const })));
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

  it('sends the view again while a shown video is not in the subscription, and after a resume', async () => {
    const { sfu, signal, view } = session({ sendsVideo: (id) => id !== 'cy' });
    await sfu.start();
    const views = () => signal.sent.filter((m) => m.type === 'sfu_view').length;
    view.set(['ann', 'bob', 'cy'].map((participantId) => ({ participantId, quality: 'low' as const })));
    expect(views()).toBe(1);
    // The offer carries Ann's video only: Bob's never came (Cy's camera is off).
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'video', active: true },
        { mid: '1', participantId: 'bob', kind: 'audio', active: true },
      ]),
    );
    await vi.advanceTimersByTimeAsync(0);
    (sfu.subscriber as unknown as FakePC).connectionState = 'connected';
    await vi.advanceTimersByTimeAsync(VIEW_RESEND_MS - STALL_CHECK_MS);
    expect(views()).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * STALL_CHECK_MS);
    expect(views()).toBe(2);
    // Not each check: again only VIEW_RESEND_MS later.
    await vi.advanceTimersByTimeAsync(VIEW_RESEND_MS - 2 * STALL_CHECK_MS);
    expect(views()).toBe(2);
    // Bob's video is there now: nothing more is sent.
    sfu.handleOffer(
      offer([
        { mid: '0', participantId: 'ann', kind: 'video', active: true },
        { mid: '1', participantId: 'bob', kind: 'audio', active: true },
        { mid: '2', participantId: 'bob', kind: 'video', active: true },
      ]),
    );
    await vi.advanceTimersByTimeAsync(3 * VIEW_RESEND_MS);
    expect(views()).toBe(2);
    // A resume on a new socket: the same view goes again at once.
    sfu.resumed();
    expect(views()).toBe(3);
    sfu.close();
  });
});
