import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createRoomEvents, type RoomEventMap } from './events.js';
import { roomFixture } from './testing/room-fixture.js';

/** The events a room emitted, as `kind participant` (ended: `ended n`; left: with its count). */
function told(f: ReturnType<typeof roomFixture>): string[] {
  return f.emitted.splice(0).map((e) => {
    if (e.kind === 'entered') return `entered ${e.participant.id}${e.resumed ? ' again' : ''}`;
    if (e.kind === 'left') return `left ${e.participantId} ${e.reason}, ${e.inRoom} in`;
    if (e.kind === 'ended') return `ended ${e.participantIds.length}`;
    return `${e.kind} ${e.participantId}`;
  });
}

describe('the room’s events', () => {
  it('say who entered, went away, came back and left, with how many are still in', async () => {
    const f = roomFixture({
      resumeGraceMs: 60_000,
      closedGraceMs: 5_000,
      joinTimeoutMs: 10_000,
      knockTimeoutMs: 600_000,
    });
    const row = f.meeting();
    const host = await f.enter(row, { name: 'Hana', userId: f.hostId });
    const ann = await f.enter(row, { name: 'Ann' });
    expect(told(f)).toEqual([`entered ${host.id}`, `entered ${ann.id}`]);

    await f.rooms.disconnected(ann.actor, ann.socket.id);
    await f.rooms.resume(ann.joinToken, f.socketFor(row.meetingId));
    expect(told(f)).toEqual([`away ${ann.id}`, `entered ${ann.id} again`]);

    await f.rooms.leave(ann.actor);
    expect(told(f)).toEqual([`left ${ann.id} left, 1 in`]);
  });

  it('say who is shown muted, by itself or by the host', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const host = await f.enter(row, { name: 'Hana', userId: f.hostId });
    const ann = await f.enter(row, { name: 'Ann' });
    const bob = await f.enter(row, { name: 'Bob' });
    told(f);
    await f.rooms.setMediaState(ann.actor, { isMuted: true, isVideoOn: true });
    await f.rooms.setMediaState(ann.actor, { isMuted: false, isVideoOn: true });
    await f.rooms.muteOne(host.actor, bob.id, true);
    expect(told(f)).toEqual([`muted ${ann.id}`, `muted ${bob.id}`]);
  });

  it('say who the host removed, and that the room ended, without a left for each', async () => {
    const f = roomFixture();
    const row = f.meeting();
    const host = await f.enter(row, { name: 'Hana', userId: f.hostId });
    const ann = await f.enter(row, { name: 'Ann' });
    await f.enter(row, { name: 'Bob' });
    told(f);
    await f.rooms.remove(host.actor, ann.id);
    expect(told(f)).toEqual([`left ${ann.id} removed, 2 in`]);
    await f.rooms.end(host.actor.roomId);
    expect(told(f)).toEqual(['ended 2']);
  });

  it('say nothing of a guest who only knocked and was sent away', async () => {
    const f = roomFixture();
    const row = f.meeting({ waitingRoom: true });
    const host = await f.enter(row, { name: 'Hana', userId: f.hostId });
    const kim = await f.enter(row, { name: 'Kim' });
    told(f);
    await f.rooms.deny(host.actor, kim.id);
    expect(told(f)).toEqual([]);
  });

  it('run the features’ hooks around joined: before it, to the newcomer, and after it', async () => {
    const f = roomFixture();
    f.rooms.events.aroundJoined((j) => ({
      before: [{ type: 'media_mode', mode: j.inRoom >= 2 ? 'sfu' : 'p2p' }],
      after: () => f.published.push({ roomId: j.roomId, to: { kind: 'all' }, message: { type: 'admitted' } }),
    }));
    const row = f.meeting();
    await f.enter(row, { name: 'Hana', userId: f.hostId });
    f.take();
    await f.enter(row, { name: 'Ann' });
    const sent = f.take().map((p) => `${p.to.kind === 'one' ? 'to her' : p.to.kind}: ${p.message.type}`);
    expect(sent.slice(0, 4)).toEqual([
      'to her: media_mode',
      'to her: joined',
      'all: admitted',
      'all: participant_joined',
    ]);
    expect(f.published).toEqual([]);
  });
});

describe('the event port', () => {
  const quiet = () => {
    const errors: string[] = [];
    const log = {
      error: (_o: unknown, msg: string) => void errors.push(msg),
    } as unknown as FastifyBaseLogger;
    return { events: createRoomEvents(log), errors };
  };

  it('hands each follower its kind only, in the order they registered', () => {
    const { events } = quiet();
    const heard: string[] = [];
    events.on('left', (e) => void heard.push(`a left ${e.participantId}`));
    events.on('left', (e) => void heard.push(`b left ${e.participantId}`));
    events.on('away', (e) => void heard.push(`away ${e.participantId}`));
    events.dispatch({ kind: 'left', roomId: 'r', participantId: 'p', reason: 'left', inRoom: 0 }, false);
    expect(heard).toEqual(['a left p', 'b left p']);
  });

  it('tells an entered follower whether the socket is on this instance, not which socket', () => {
    const { events } = quiet();
    const heard: RoomEventMap['entered'][] = [];
    events.on('entered', (e) => void heard.push(e));
    const participant = { id: 'p', name: 'Ann', isHost: false };
    events.dispatch({ kind: 'entered', roomId: 'r', participant, resumed: false, socketId: 's1' }, true);
    expect(heard).toEqual([{ roomId: 'r', participant, resumed: false, local: true }]);
  });

  it('keeps a failing follower from the others, and logs it', async () => {
    const { events, errors } = quiet();
    const heard: string[] = [];
    events.on('muted', () => {
      throw new Error('boom');
    });
    events.on('muted', async () => Promise.reject(new Error('later boom')));
    events.on('muted', (e) => void heard.push(e.participantId));
    events.dispatch({ kind: 'muted', roomId: 'r', participantId: 'p' }, false);
    await new Promise((r) => setTimeout(r, 0));
    expect(heard).toEqual(['p']);
    expect(errors).toEqual(['a room event follower failed', 'a room event follower failed']);
  });
});
