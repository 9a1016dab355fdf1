import { describe, expect, it } from 'vitest';
import type { MediaProvider } from '../../providers/media/index.js';
import { createMediaService } from './service.js';

/** The media service over a stand-in Janus provider whose trickle Janus never acknowledges. */
function setUp() {
  const sent: { to: string; type: string }[] = [];
  const resent: string[] = [];
  const released: string[] = [];
  /** Who the room says is in it (the room slice's count, which the media asks). */
  const people = new Set<string>();
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
    activeSpeaker: () => null,
    resendOffer: (_r: string, participantId: string) => resent.push(participantId) > 0,
    leave: async (_r: string, participantId: string) => void released.push(participantId),
    closeRoom: async (roomId: string) => void released.push(`room ${roomId}`),
  } as unknown as MediaProvider;
  const log = {
    info: () => undefined,
    warn: (_o: unknown, msg: string) => void warnings.push(msg),
  } as never;
  const media = createMediaService({
    provider,
    meshCap: null,
    ice: { stunUrls: [], turnUrls: [], turnSecret: undefined },
    publish: (_roomId, to, message) =>
      void sent.push({ to: to.kind === 'one' ? to.participantId : to.kind, type: message.type }),
    admitted: async () => undefined,
    inRoom: async (_roomId, exceptId) => [...people].filter((id) => id !== exceptId).length,
    log,
  });
  /** `id`'s `joined` goes out: what the media puts before it and does right after it. */
  const enter = (id: string, resumed = false) => {
    people.add(id);
    const around = media.aroundJoined({ roomId: 'r', participantId: id, inRoom: people.size, resumed });
    const before = (around?.before ?? []).map((m) => m.type);
    around?.after();
    return before;
  };
  enter('p1');
  enter('p2');
  enter('p3'); // the third: the room is on the SFU
  return { media, people, enter, sent, resent, released, trickled, answered, warnings };
}

describe('the media service', () => {
  it('moves the room to the SFU as the third enters, telling it first and the others after', () => {
    const { media, sent } = setUp();
    // p3's joined was preceded by the SFU mode (with the bridge); then the others heard it.
    expect(sent).toEqual([{ to: 'all', type: 'media_mode' }]);
    expect(media.modeOf('r')).toBe('sfu');
    const fourth = media.aroundJoined({ roomId: 'r', participantId: 'p4', inRoom: 4, resumed: false });
    expect(fourth?.before).toEqual([{ type: 'media_mode', mode: 'sfu' }]);
  });

  it('sends a resumed page its unanswered SFU offer again, after its joined', () => {
    const { enter, resent } = setUp();
    expect(enter('p3', true)).toEqual(['media_mode']);
    expect(resent).toEqual(['p3']);
  });

  it('does nothing of the kind for a first join', () => {
    const { enter, resent } = setUp();
    enter('p4');
    expect(resent).toEqual([]);
  });

  it('takes a room back to the mesh when only two remain, and releases it when the last leaves', () => {
    const { media, people, sent, released } = setUp();
    sent.length = 0;
    people.delete('p3');
    media.left('r', 'p3', 2);
    expect(sent).toEqual([{ to: 'all', type: 'media_mode' }]);
    expect(media.modeOf('r')).toBe('p2p');
    media.left('r', 'p2', 1);
    media.left('r', 'p1', 0);
    expect(released).toEqual(['p3', 'p2', 'room r']);
  });

  it('answers a REST join the mode its joined will bring, counting it once', async () => {
    const { media } = setUp();
    expect(await media.expectedMode('r', 'p4')).toBe('sfu');
    const mesh = setUp();
    mesh.media.left('r', 'p3', 2);
    mesh.people.delete('p3');
    // A reload of p2 is still one of the two: the room stays on the mesh.
    expect(await mesh.media.expectedMode('r', 'p2')).toBe('p2p');
    expect(await mesh.media.expectedMode('r', 'p5')).toBe('sfu');
  });

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
