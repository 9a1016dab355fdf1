import { describe, expect, it } from 'vitest';
import type { MediaProvider } from '../../providers/media/index.js';
import { createMediaService } from './service.js';

/** The media service over a stand-in Janus provider whose trickle Janus never acknowledges. */
function setUp() {
  const trickled: unknown[] = [];
  const answered: unknown[] = [];
  const warnings: string[] = [];
  const provider = {
    kind: 'janus',
    available: () => true,
    recordingDir: null,
    trickle: (_r: string, _p: string, _t: string, candidate: unknown) => {
      trickled.push(candidate);
      // Janus has not acknowledged it (yet): the promise stays pending, or fails later.
      return candidate === 'fails'
        ? Promise.reject(new Error('Janus said no'))
        : new Promise(() => undefined);
    },
    answer: async (_r: string, _p: string, _offerId: number, answer: unknown) => void answered.push(answer),
  } as unknown as MediaProvider;
  const log = {
    info: () => undefined,
    warn: (_o: unknown, msg: string) => void warnings.push(msg),
  } as never;
  const media = createMediaService({
    provider,
    meshCap: null,
    announce: () => undefined,
    admitted: async () => undefined,
    log,
  });
  media.entering('r', 'p1', 1);
  media.entering('r', 'p2', 2);
  media.entering('r', 'p3', 3); // the third: the room is on the SFU
  return { media, trickled, answered, warnings };
}

describe('the media service', () => {
  it('passes a candidate on without waiting for Janus, so an answer behind it is not held', async () => {
    const { media, trickled, answered } = setUp();
    const actor = { roomId: 'r', participantId: 'p3' };
    // The socket handles its messages one at a time: each handler's promise is awaited in turn.
    await media.trickle(actor, 'subscriber', { candidate: 'a' } as never);
    await media.trickle(actor, 'subscriber', null);
    await media.answer(actor, 7, { type: 'answer', sdp: 'v=0' });
    expect(trickled).toEqual([{ candidate: 'a' }, null]);
    expect(answered).toEqual([{ type: 'answer', sdp: 'v=0' }]);
  });

  it('logs a candidate Janus refuses (nobody waits for an answer to one)', async () => {
    const { media, warnings } = setUp();
    await media.trickle({ roomId: 'r', participantId: 'p3' }, 'publisher', 'fails' as never);
    await new Promise((r) => setTimeout(r, 0));
    expect(warnings).toEqual(['sfu trickle failed']);
  });

  it('still refuses a candidate for a room on the mesh', async () => {
    const { media } = setUp();
    await expect(
      media.trickle({ roomId: 'elsewhere', participantId: 'p9' }, 'subscriber', null),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});
