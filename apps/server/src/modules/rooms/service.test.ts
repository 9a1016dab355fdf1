import { randomUUID } from 'node:crypto';
import { WS_CLOSE } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { roomFixture } from './testing/room-fixture.js';
import { ROOM_MESSAGES, RoomError } from './errors.js';
import type { Actor } from './transport.js';

/**
 * The RoomService's rules, without database, sockets or bus: who may act on whom, what the room's
 * state becomes, and what the room is told. API and socket behaviour are in rooms.test.ts and
 * realtime/*.test.ts.
 */

/** Resolves to the RoomError the promise was refused with (fails if it was not refused). */
async function refusal(promise: Promise<unknown>): Promise<RoomError> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RoomError);
  return err as RoomError;
}

/** A room with its host, Ann and Bob in it, and a second meeting with Otto. */
async function aRoom(extra: Parameters<ReturnType<typeof roomFixture>['meeting']>[0] = {}) {
  const f = roomFixture();
  const row = f.meeting(extra);
  const host = await f.enter(row, { name: 'Hana', userId: f.hostId, sessionId: 'host-tab' });
  const ann = await f.enter(row, { name: 'Ann' });
  const bob = await f.enter(row, { name: 'Bob' });
  for (const guest of [ann, bob])
    if (guest.admission === 'waiting') await f.rooms.admit(host.actor, guest.id);
  const otherRow = f.meeting();
  const otto = await f.enter(otherRow, { name: 'Otto' });
  f.take();
  return { f, row, host, ann, bob, otto };
}

type Room = Awaited<ReturnType<typeof aRoom>>;

/** Each host action, aimed at `target`, with a valid target for it. */
const hostActions: Array<{
  name: string;
  run: (r: Room, actor: Actor, targetId: string) => Promise<unknown>;
  target: (r: Room) => Promise<string>;
  /** False for muteAll, which names no participant. */
  targeted?: false;
}> = [
  {
    name: 'muteAll',
    run: (r, a) => r.f.rooms.muteAll(a, true),
    target: async (r) => r.ann.id,
    targeted: false,
  },
  { name: 'muteOne', run: (r, a, t) => r.f.rooms.muteOne(a, t, true), target: async (r) => r.ann.id },
  { name: 'remove', run: (r, a, t) => r.f.rooms.remove(a, t), target: async (r) => r.ann.id },
  {
    name: 'admit',
    run: (r, a, t) => r.f.rooms.admit(a, t),
    target: async (r) => (await r.f.enter(r.row, { name: 'Wendy' })).id,
  },
  {
    name: 'deny',
    run: (r, a, t) => r.f.rooms.deny(a, t),
    target: async (r) => (await r.f.enter(r.row, { name: 'Wendy' })).id,
  },
];

describe('host actions: who may act, and on whom', () => {
  for (const action of hostActions) {
    describe(action.name, () => {
      it('is refused (forbidden) to a participant who is not the host, and nothing happens', async () => {
        const r = await aRoom({ waitingRoom: action.name === 'admit' || action.name === 'deny' });
        const target = await action.target(r);
        r.f.take();
        const err = await refusal(action.run(r, r.bob.actor, target));
        expect(err).toMatchObject({ code: 'forbidden', message: ROOM_MESSAGES.hostOnly });
        expect(r.f.take()).toEqual([]);
        expect(r.f.closed).toEqual([]);
      });

      if (action.targeted !== false) {
        it('answers not_found for an unknown participant', async () => {
          const r = await aRoom();
          const err = await refusal(action.run(r, r.host.actor, randomUUID()));
          expect(err.code).toBe('not_found');
        });
      }

      it("does not reach another meeting's participant (not_found when named)", async () => {
        const r = await aRoom();
        if (action.targeted === false) await action.run(r, r.host.actor, r.otto.id);
        else expect((await refusal(action.run(r, r.host.actor, r.otto.id))).code).toBe('not_found');
        expect(r.f.closed).toEqual([]);
        expect(r.f.take().filter((p) => p.roomId !== r.row.id)).toEqual([]);
        const otto = await r.f.rooms.admitted(r.otto.actor);
        expect(otto.member.isMuted).toBe(false);
      });

      it('is refused (not_joined) to a participant of no room, or one still waiting', async () => {
        const r = await aRoom({ waitingRoom: true });
        const target = await action.target(r);
        const gone = { roomId: r.row.id, participantId: randomUUID() };
        expect((await refusal(action.run(r, gone, target))).code).toBe('not_joined');
        const waiting = await r.f.enter(r.row, { name: 'Wes' });
        expect(waiting.admission).toBe('waiting');
        const err = await refusal(action.run(r, waiting.actor, target));
        expect(err).toMatchObject({ code: 'not_joined', message: ROOM_MESSAGES.stillWaiting });
      });
    });
  }

  it('admit and deny only take participants who are waiting', async () => {
    const r = await aRoom();
    expect((await refusal(r.f.rooms.admit(r.host.actor, r.ann.id))).code).toBe('not_found');
    expect((await refusal(r.f.rooms.deny(r.host.actor, r.ann.id))).code).toBe('not_found');
  });

  it('the host cannot mute or remove itself through these actions', async () => {
    const r = await aRoom();
    expect((await refusal(r.f.rooms.muteOne(r.host.actor, r.host.id, true))).code).toBe('not_found');
    expect((await refusal(r.f.rooms.remove(r.host.actor, r.host.id))).code).toBe('not_found');
  });
});

describe('joining', () => {
  it('refuses a new participant when the room is full (409), but lets a reload back in', async () => {
    const f = roomFixture();
    const row = f.meeting({ maxParticipants: 2 });
    const ann = await f.join(row, { sessionId: 'ann' });
    await f.join(row, { sessionId: 'bob' });
    const err = await refusal(f.join(row, { sessionId: 'cid' }));
    expect(err).toMatchObject({ statusCode: 409, message: ROOM_MESSAGES.full });
    expect((await f.join(row, { sessionId: 'ann', resumeToken: ann.joinToken })).id).toBe(ann.id);
  });

  it('a knock lands in the waiting room; the hosts hear of it when its socket arrives', async () => {
    const f = roomFixture();
    const row = f.meeting({ waitingRoom: true });
    const host = await f.enter(row, { userId: f.hostId });
    expect(host.admission).toBe('admitted');
    const wes = await f.join(row, { name: 'Wes' });
    expect(wes.admission).toBe('waiting');
    f.take();
    await f.rooms.resume(wes.joinToken, f.socketFor(row.meetingId));
    expect(f.take().map((p) => [p.to, p.message.type])).toEqual([
      [{ kind: 'one', participantId: wes.id }, 'waiting'],
      [{ kind: 'hosts' }, 'waiting_room'],
    ]);
  });

  it('refuses a join token of another meeting, or an unknown one', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const other = f.meeting();
    const ann = await f.join(row);
    const elsewhere = f.socketFor(other.meetingId);
    expect((await refusal(f.rooms.resume(ann.joinToken, elsewhere))).code).toBe('invalid_token');
    const socket = f.socketFor(row.meetingId);
    expect((await refusal(f.rooms.resume('x'.repeat(43), socket))).code).toBe('invalid_token');
    expect(socket.bound).toBeNull();
  });
});

describe('mute all is room state', () => {
  it('marks every non-host muted, tells the room once per changed participant, and the others get mute_all', async () => {
    const r = await aRoom();
    await r.f.rooms.muteOne(r.host.actor, r.bob.id, true);
    r.f.take();
    await r.f.rooms.muteAll(r.host.actor, true);
    const sent = r.f.take();
    expect(sent[0]).toMatchObject({
      to: { kind: 'all', except: r.host.id },
      message: { type: 'mute_all', muted: true },
    });
    // Bob was already muted: only Ann changed.
    const updated = sent.filter((p) => p.message.type === 'participant_updated');
    expect(updated.map((p) => p.message)).toEqual([
      { type: 'participant_updated', participant: expect.objectContaining({ id: r.ann.id, isMuted: true }) },
    ]);
    const roster = await r.f.rooms.participants(r.ann.actor);
    expect(roster.find((p) => p.id === r.host.id)?.isMuted).toBe(false);
  });

  it('a late joiner joins muted and is told allMuted; the host after a reload is told too', async () => {
    const r = await aRoom();
    await r.f.rooms.muteAll(r.host.actor, true);
    r.f.take();
    const late = await r.f.enter(r.row, { name: 'Lou', isMuted: false });
    const joined = r.f.take().find((p) => p.message.type === 'joined')?.message;
    expect(joined).toMatchObject({ allMuted: true, self: { id: late.id, isMuted: true } });

    const reload = await r.f.enter(r.row, { userId: r.f.hostId, name: 'Hana', sessionId: 'host-tab' });
    expect(reload.id).toBe(r.host.id);
    const hostJoined = r.f.take().find((p) => p.message.type === 'joined')?.message;
    expect(hostJoined).toMatchObject({
      allMuted: true,
      resumed: true,
      self: { id: r.host.id, isHost: true },
    });
  });

  it('a guest admitted from the waiting room while it is on comes in muted', async () => {
    const r = await aRoom({ waitingRoom: true });
    const wes = await r.f.enter(r.row, { name: 'Wes', isMuted: false });
    await r.f.rooms.muteAll(r.host.actor, true);
    r.f.take();
    await r.f.rooms.admit(r.host.actor, wes.id);
    const joined = r.f.take().find((p) => p.message.type === 'joined')?.message;
    expect(joined).toMatchObject({ allMuted: true, self: { id: wes.id, isMuted: true } });
  });

  it('off clears the state and leaves everyone muted until they unmute themselves', async () => {
    const r = await aRoom();
    await r.f.rooms.muteAll(r.host.actor, true);
    await r.f.rooms.muteAll(r.host.actor, false);
    const sent = r.f.take();
    expect(sent.at(-1)?.message).toEqual({ type: 'mute_all', muted: false });
    const late = await r.f.enter(r.row, { name: 'Lou', isMuted: false });
    expect(r.f.take().find((p) => p.message.type === 'joined')?.message).toMatchObject({
      allMuted: false,
      self: { id: late.id, isMuted: false },
    });
    expect((await r.f.rooms.admitted(r.ann.actor)).member.isMuted).toBe(true);
    await r.f.rooms.setMediaState(r.ann.actor, { isMuted: false, isVideoOn: true });
    expect((await r.f.rooms.admitted(r.ann.actor)).member.isMuted).toBe(false);
  });
});

describe('mute one', () => {
  it('tells only the target, and the room sees the change once', async () => {
    const r = await aRoom();
    await r.f.rooms.muteOne(r.host.actor, r.ann.id, true);
    expect(r.f.take().map((p) => [p.to, p.message.type])).toEqual([
      [{ kind: 'one', participantId: r.ann.id }, 'mute_participant'],
      [{ kind: 'all' }, 'participant_updated'],
    ]);
    await r.f.rooms.muteOne(r.host.actor, r.ann.id, true);
    expect(r.f.take().map((p) => p.message.type)).toEqual(['mute_participant']);
  });
});

describe('remove and the deny list', () => {
  it('closes the removed socket (4006), tells the room, and the guest cannot join again from that browser', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const host = await f.enter(row, { userId: f.hostId });
    const ann = await f.enter(row, { name: 'Ann', sessionId: 'ann-browser' });
    f.take();
    await f.rooms.remove(host.actor, ann.id);
    expect(f.closed).toEqual([
      {
        participantId: ann.id,
        code: WS_CLOSE.removedByHost,
        reason: 'Removed by the host',
        last: { type: 'removed', message: ROOM_MESSAGES.removed },
      },
    ]);
    expect(f.take().map((p) => p.message)).toEqual([
      { type: 'participant_left', participantId: ann.id, reason: 'removed' },
      // The hosts see the deny list (allow_rejoin lifts it).
      { type: 'removed_list', removed: [{ id: ann.id, name: 'Ann' }] },
    ]);
    const again = await refusal(f.join(row, { name: 'Ann', sessionId: 'ann-browser' }));
    expect(again).toMatchObject({ statusCode: 403, message: ROOM_MESSAGES.removedCannotRejoin });
    // The old token opens nothing either.
    expect((await refusal(f.rooms.resume(ann.joinToken, f.socketFor(row.meetingId)))).code).toBe(
      'invalid_token',
    );
    // Another browser is another guest.
    expect((await f.join(row, { name: 'Ann', sessionId: 'another-browser' })).admission).toBe('admitted');
  });

  it('keeps a removed signed-in user out from any browser, but never the meeting owner', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const host = await f.enter(row, { userId: f.hostId, sessionId: 'tab-1' });
    const secondTab = await f.enter(row, { userId: f.hostId, sessionId: 'tab-2' });
    const userId = randomUUID();
    const sam = await f.enter(row, { name: 'Sam', userId, sessionId: 'laptop' });
    await f.rooms.remove(host.actor, sam.id);
    await refusal(f.join(row, { name: 'Sam', userId, sessionId: 'phone' }));
    await f.rooms.remove(host.actor, secondTab.id);
    expect((await f.join(row, { userId: f.hostId, sessionId: 'tab-2' })).isHost).toBe(true);
  });

  it('the deny list ends with the room', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const host = await f.enter(row, { userId: f.hostId });
    const ann = await f.enter(row, { sessionId: 'ann' });
    await f.rooms.remove(host.actor, ann.id);
    await f.rooms.leave(host.actor);
    expect(await f.rooms.room(row.id)).toBeUndefined();
    expect((await f.join(row, { sessionId: 'ann' })).admission).toBe('admitted');
  });
});

describe('leaving and ending', () => {
  it('leave closes the socket (1000), tells the room, and the last one out finishes the meeting', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const ann = await f.enter(row, { name: 'Ann' });
    const bob = await f.enter(row, { name: 'Bob' });
    f.take();
    await f.rooms.leave(ann.actor);
    expect(f.closed.at(-1)).toMatchObject({ participantId: ann.id, code: WS_CLOSE.normal });
    expect(f.take().map((p) => p.message)).toEqual([
      { type: 'participant_left', participantId: ann.id, reason: 'left' },
    ]);
    expect((await refusal(f.rooms.leave(ann.actor))).code).toBe('not_joined');
    await f.rooms.leave(bob.actor);
    await expect.poll(() => f.statuses).toEqual([`live ${row.id}`, `ended ${row.id}`]);
  });

  it('end closes every socket with 4005 and forgets the room and its tokens', async () => {
    const r = await aRoom();
    expect(await r.f.rooms.end(r.row.id)).toBe(3);
    expect(r.f.closed.map((c) => c.code)).toEqual(Array(3).fill(WS_CLOSE.meetingEnded));
    expect(await r.f.rooms.room(r.row.id)).toBeUndefined();
    const socket = r.f.socketFor(r.row.meetingId);
    expect((await refusal(r.f.rooms.resume(r.ann.joinToken, socket))).code).toBe('invalid_token');
  });

  it('endForEveryone (host): acknowledged, then every socket closes with 4005 and the meeting ends', async () => {
    const r = await aRoom();
    const order: string[] = [];
    const acked = () => order.push(`ack, ${r.f.closed.length} closed`);
    expect(await r.f.rooms.endForEveryone(r.host.actor, acked)).toBe(3);
    expect(order).toEqual(['ack, 0 closed']);
    expect(r.f.closed).toEqual(
      [r.host, r.ann, r.bob].map((p) =>
        expect.objectContaining({ participantId: p.id, code: WS_CLOSE.meetingEnded }),
      ),
    );
    expect(await r.f.rooms.room(r.row.id)).toBeUndefined();
    await expect.poll(() => r.f.statuses).toContain(`ended ${r.row.id}`);
    const socket = r.f.socketFor(r.row.meetingId);
    expect((await refusal(r.f.rooms.resume(r.ann.joinToken, socket))).code).toBe('invalid_token');
    // Another meeting's room goes on.
    expect((await r.f.rooms.admitted(r.otto.actor)).member.name).toBe('Otto');
  });

  it('endForEveryone is refused (403 forbidden) to a participant who is not the host; nothing ends', async () => {
    const r = await aRoom();
    let acked = false;
    const err = await refusal(r.f.rooms.endForEveryone(r.bob.actor, () => (acked = true)));
    expect(err).toMatchObject({ statusCode: 403, code: 'forbidden', message: ROOM_MESSAGES.hostOnly });
    expect(acked).toBe(false);
    expect(r.f.closed).toEqual([]);
    expect(await r.f.rooms.inRoom(r.row.id)).toBe(3);
    expect(r.f.statuses).not.toContain(`ended ${r.row.id}`);
  });

  it('a dropped socket is shown disconnected, then the participant leaves after the grace period', async () => {
    const f = roomFixture({
      resumeGraceMs: 50,
      closedGraceMs: 50,
      joinTimeoutMs: 50,
      knockTimeoutMs: 600_000,
    });
    const row = f.meeting();
    const ann = await f.enter(row, { name: 'Ann' });
    const bob = await f.enter(row, { name: 'Bob' });
    f.take();
    // A socket that no longer speaks for Bob changes nothing.
    await f.rooms.disconnected(bob.actor, 'an-old-socket');
    expect(f.take()).toEqual([]);
    await f.rooms.disconnected(bob.actor, bob.socket.id);
    expect(f.take().map((p) => p.message)).toEqual([
      {
        type: 'participant_updated',
        participant: expect.objectContaining({ id: bob.id, isConnected: false }),
      },
    ]);
    await expect
      .poll(() => f.published.map((p) => p.message))
      .toEqual([{ type: 'participant_left', participantId: bob.id, reason: 'timeout' }]);
    expect((await f.rooms.participants(ann.actor)).map((p) => p.id)).toEqual([]);
  });
});
