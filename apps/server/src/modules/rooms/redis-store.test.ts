import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, redisReachable, redisRequired } from '../../../test/instances.js';
import { createRedisSharedState, type SharedState } from '../../providers/bus/index.js';
import { ROOM_KEYS, createRedisRoomStore } from './redis-store.js';
import { hashJoinToken, type MemberState, type RoomMeeting } from './state.js';
import type { RoomStateStore } from './store.js';

const meeting = (id: string): RoomMeeting => ({
  id,
  meetingId: '111-222-333',
  title: 'Store test',
  meetingType: 'instant',
  isRecurring: false,
  maxParticipants: 100,
  waitingRoom: false,
  hostId: null,
  ephemeral: false,
});

const member = (id: string, token: string): MemberState => ({
  id,
  name: id,
  email: null,
  isHost: false,
  isMuted: false,
  isVideoOn: true,
  isScreenSharing: false,
  admission: 'admitted',
  userId: null,
  sessionKey: `guest:${id}`,
  denyKey: `session:${id}`,
  tokenHash: hashJoinToken(token),
  socketId: null,
  announced: false,
  everConnected: false,
  waitingSince: null,
  captionLanguage: null,
  awaySince: 0,
});

describe.skipIf(!redisReachable && !redisRequired)('the Redis room store', () => {
  // Two connections, as two server instances would have.
  let sharedA: SharedState;
  let sharedB: SharedState;
  let a: RoomStateStore;
  let b: RoomStateStore;
  const log = pino({ level: 'silent' });

  beforeAll(async () => {
    sharedA = await createRedisSharedState(REDIS_URL, log);
    sharedB = await createRedisSharedState(REDIS_URL, log);
    a = createRedisRoomStore(sharedA);
    b = createRedisRoomStore(sharedB);
  });
  afterAll(async () => {
    await sharedA?.close();
    await sharedB?.close();
  });

  it('loses no change when two instances change one room at the same time', async () => {
    const roomId = `store-race-${Math.random()}`;
    await a.open(meeting(roomId), (room) => room.members.set('m0', member('m0', `t0-${roomId}`)));
    // Each change reads the deny list and writes it back one entry longer: without the lock,
    // interleaved read-change-write cycles would drop entries.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).update(roomId, (room) => {
          room?.denied.set(`k${i}`, { id: `p${i}`, name: `P${i}` });
        }),
      ),
    );
    const room = await b.get(roomId);
    expect(room?.denied.size).toBe(40);
    await a.delete(roomId);
  });

  it('runs the changes waiting on one instance under one take of the lock, each settled as its own', async () => {
    const roomId = `store-batch-${Math.random()}`;
    await a.open(meeting(roomId), (room) => room.members.set('m0', member('m0', `b0-${roomId}`)));
    const results = await Promise.allSettled([
      a.update(roomId, (room) => room?.denied.set('k1', { id: 'p1', name: 'P1' }).size),
      a.update(roomId, () => {
        throw new Error('refused');
      }),
      a.update(roomId, (room) => room?.denied.set('k2', { id: 'p2', name: 'P2' }).size),
      a.delete(roomId),
      a.update(roomId, (room) => room === undefined),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as Error).message))).toEqual([
      'ok',
      'refused',
      'ok',
      'ok',
      'ok',
    ]);
    expect(results[0]).toMatchObject({ value: 1 });
    expect(results[2]).toMatchObject({ value: 2 });
    expect(results[3]).toMatchObject({ value: { id: roomId } });
    expect(results[4]).toMatchObject({ value: true });
    expect(await b.get(roomId)).toBeUndefined();
  });

  it('keeps maps, dates and tokens; forgets tokens and rooms that are gone', async () => {
    const roomId = `store-keep-${Math.random()}`;
    const startedAt = await a.open(meeting(roomId), (room) => {
      room.members.set('ann', member('ann', `ann-${roomId}`));
      room.members.set('bob', member('bob', `bob-${roomId}`));
      room.bySession.set('u:1', 'ann');
      room.allMuted = true;
      return room.startedAt;
    });
    const read = await b.get(roomId);
    expect(read?.startedAt.toISOString()).toBe(startedAt.toISOString());
    expect([...(read?.members.keys() ?? [])]).toEqual(['ann', 'bob']);
    expect(read?.bySession.get('u:1')).toBe('ann');
    expect(read?.allMuted).toBe(true);
    expect((await b.byToken(hashJoinToken(`bob-${roomId}`)))?.member.id).toBe('bob');
    expect(await b.roomIds?.()).toContain(roomId);

    // A view is a copy: changing it changes nothing.
    read?.members.delete('ann');
    expect((await a.get(roomId))?.members.size).toBe(2);

    // A new token replaces the old one; a refused change (it throws) keeps what it did before.
    await expect(
      a.update(roomId, (room) => {
        const bob = room?.members.get('bob');
        if (bob) bob.tokenHash = hashJoinToken(`bob2-${roomId}`);
        throw new Error('refused after the change');
      }),
    ).rejects.toThrow('refused after the change');
    expect(await b.byToken(hashJoinToken(`bob-${roomId}`))).toBeUndefined();
    expect((await b.byToken(hashJoinToken(`bob2-${roomId}`)))?.member.id).toBe('bob');

    // The last member gone: the room, its tokens and its place in the index go.
    await b.update(roomId, (room) => {
      room?.members.clear();
    });
    expect(await a.get(roomId)).toBeUndefined();
    expect(await sharedA.get(ROOM_KEYS.token(hashJoinToken(`ann-${roomId}`)))).toBeNull();
    expect(await a.roomIds?.()).not.toContain(roomId);
  });

  it('puts back what each instance holds when Redis lost the room, and nothing twice', async () => {
    const roomId = `store-restore-${Math.random()}`;
    const ann = { ...member('ann', `ann-${roomId}`), socketId: 'inst-a:1' };
    const bob = { ...member('bob', `bob-${roomId}`), socketId: 'inst-b:1' };
    await a.open(meeting(roomId), (room) => {
      room.members.set('ann', ann);
      room.bySession.set('u:ann', 'ann');
      room.denied.set('user:mallory', { id: 'mallory', name: 'Mallory' });
    });
    await b.update(roomId, (room) => {
      room?.members.set('bob', bob);
    });
    await a.touch?.(roomId); // instance a's copy now has Bob too (its beat reads the room)
    // Redis loses everything about the room.
    await sharedA.del(ROOM_KEYS.room(roomId));
    await sharedA.del(ROOM_KEYS.token(hashJoinToken(`ann-${roomId}`)));
    expect(await a.get(roomId)).toBeUndefined();

    const onA = (m: MemberState) => m.socketId?.startsWith('inst-a:') === true;
    const onB = (m: MemberState) => m.socketId?.startsWith('inst-b:') === true;
    expect(await a.restore?.(roomId, onA)).toBe(1);
    let room = await b.get(roomId);
    expect([...(room?.members.keys() ?? [])]).toEqual(['ann']);
    expect(room?.meeting.title).toBe('Store test');
    expect(room?.bySession.get('u:ann')).toBe('ann');
    expect(room?.denied.has('user:mallory')).toBe(true);
    expect((await b.byToken(hashJoinToken(`ann-${roomId}`)))?.member.id).toBe('ann');

    // Instance b read the room as a put back without Bob before its own restore: its copy keeps him.
    expect([...((await b.get(roomId))?.members.keys() ?? [])]).toEqual(['ann']);
    expect(await b.restore?.(roomId, onB)).toBe(1);
    expect(await a.restore?.(roomId, onA)).toBe(0);
    room = await a.get(roomId);
    expect([...(room?.members.keys() ?? [])].sort()).toEqual(['ann', 'bob']);
    await a.delete(roomId);
  });
});
