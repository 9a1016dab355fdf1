import { WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createTestDb } from '../../../test/db.js';
import { createMeeting } from '../../../test/meetings.js';
import {
  redisReachable,
  redisRequired,
  startInstance as startOne,
  type Instance,
} from '../../../test/instances.js';
import { connect, enter, postJoin, type TestSocket } from '../../../test/ws-client.js';
import type { DbHandle } from '../../db/index.js';

/** Short presence for the test: an instance that stops beating is swept within ~2 s. */
const PRESENCE_TTL_MS = 1000;
const startInstance = (db: DbHandle, id: string) =>
  startOne(db, id, { PRESENCE_TTL_MS: String(PRESENCE_TTL_MS) });

const run = Math.random().toString(36).slice(2, 8);

describe.skipIf(!redisReachable && !redisRequired)('one meeting across two instances (Redis)', () => {
  let db: DbHandle;
  let a: Instance;
  let b: Instance;
  let hostId: string;
  let hostCookie: string;
  const opened: TestSocket[] = [];
  const track = <T extends { socket: TestSocket }>(x: T): T => {
    opened.push(x.socket);
    return x;
  };

  beforeAll(async () => {
    if (!redisReachable) throw new Error('Redis is not listening on 127.0.0.1:6379');
    db = await createTestDb();
    a = await startInstance(db, `a-${run}`);
    b = await startInstance(db, `b-${run}`);
    ({ userId: hostId, cookie: hostCookie } = await signIn(a.t, { email: 'host@example.com' }));
  });
  afterAll(async () => {
    for (const s of opened) s.drop();
    await a?.t.close().catch(() => undefined);
    await b?.t.close().catch(() => undefined);
    await db?.close();
  });

  it('shares the roster, signaling and chat between participants on different instances', async () => {
    expect(a.t.app.bus.kind).toBe('redis');
    const m = await createMeeting(a.t, { hostId });
    const ann = track(await enter(a.t, a.ws, m.meetingId, { name: 'Ann' }));
    const bob = track(await enter(b.t, b.ws, m.meetingId, { name: 'Bob' }));
    // Bob, on B, got a roster built by B from the shared state: Ann (on A) is in it.
    expect(bob.joined?.participants.map((p) => p.name)).toEqual(['Ann']);
    expect((await ann.socket.next('participant_joined')).participant.id).toBe(bob.join.id);

    ann.socket.send({ type: 'offer', targetParticipant: bob.join.id, offer: { type: 'offer', sdp: 'v=0' } });
    const offer = await bob.socket.next('offer');
    expect(offer.fromParticipant).toBe(ann.join.id);
    bob.socket.send({
      type: 'answer',
      targetParticipant: ann.join.id,
      answer: { type: 'answer', sdp: 'v=0' },
    });
    expect((await ann.socket.next('answer')).fromParticipant).toBe(bob.join.id);

    bob.socket.send({ type: 'chat_message', content: 'hello from B' });
    const chat = await ann.socket.next('chat_message');
    expect([chat.content, chat.senderId]).toEqual(['hello from B', bob.join.id]);
    // A double send (a client retrying) is one message, also with the room in Redis.
    bob.socket.send({ type: 'chat_message', content: 'hello from B', requestId: 'again' });
    expect((await bob.socket.next('ack')).requestId).toBe('again');
    expect(await ann.socket.none('chat_message', 200)).toEqual([]);

    // A REST read on either instance answers the same roster.
    const list = await b.t.app.inject({
      method: 'GET',
      url: `/api/meetings/${m.meetingId}/participants`,
      headers: { cookie: hostCookie },
    });
    expect(
      list
        .json<Array<{ name: string }>>()
        .map((p) => p.name)
        .sort(),
    ).toEqual(['Ann', 'Bob']);
  });

  it('never exceeds the capacity when joins race on both instances', async () => {
    const m = await createMeeting(a.t, { hostId, maxParticipants: 3 });
    const joins = Array.from({ length: 12 }, (_, i) =>
      (i % 2 ? a : b).t.app.inject({
        method: 'POST',
        url: `/api/meetings/${m.meetingId}/join`,
        payload: {
          name: `P${i}`,
          isHost: false,
          isMuted: false,
          isVideoOn: true,
          sessionId: `race-${run}-${i}`,
        },
      }),
    );
    const codes = (await Promise.all(joins)).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 409)).toHaveLength(9);
    const room = await b.t.app.rooms.room(m.id);
    expect(room?.members.size).toBe(3);
  });

  it('carries the host’s mute-all and removal to participants on the other instance', async () => {
    const m = await createMeeting(a.t, { hostId });
    const host = track(
      await enter(a.t, a.ws, m.meetingId, { name: 'Host', isHost: true, cookie: hostCookie }),
    );
    const guest = track(await enter(b.t, b.ws, m.meetingId, { name: 'Gus' }));
    await host.socket.next('participant_joined');

    host.socket.send({ type: 'mute_all', muted: true });
    expect((await guest.socket.next('mute_all')).muted).toBe(true);
    const updated = await host.socket.next('participant_updated');
    expect([updated.participant.id, updated.participant.isMuted]).toEqual([guest.join.id, true]);
    // A late joiner on B comes in muted: mute-all is room state, shared.
    const late = track(await enter(b.t, b.ws, m.meetingId, { name: 'Lee' }));
    expect(late.joined?.allMuted).toBe(true);
    expect(late.joined?.self.isMuted).toBe(true);

    // The host on A removes Gus on B: B closes Gus's socket with 4006 after `removed`.
    host.socket.send({ type: 'remove_participant', targetParticipantId: guest.join.id });
    await guest.socket.next('removed');
    expect((await guest.socket.closed).code).toBe(WS_CLOSE.removedByHost);
    expect((await host.socket.next('participant_left')).participantId).toBe(guest.join.id);
  });

  it('a newer socket through the other instance replaces the older one (4009)', async () => {
    const m = await createMeeting(a.t, { hostId });
    const ann = track(await enter(a.t, a.ws, m.meetingId, { name: 'Ann' }));
    const second = await connect(b.ws, m.meetingId, { name: 'Ann' });
    opened.push(second);
    second.send({ type: 'join_meeting', joinToken: ann.join.joinToken });
    expect((await second.next('joined')).self.id).toBe(ann.join.id);
    expect((await ann.socket.closed).code).toBe(WS_CLOSE.replaced);
  });

  it('a session ended on one instance closes its sockets on the other (4010)', async () => {
    const m = await createMeeting(a.t, { hostId });
    const ann = track(await enter(a.t, a.ws, m.meetingId, { name: 'Ann' }));
    const { cookie } = await signIn(a.t, { email: 'sue@example.com' });
    const sue = track(await enter(b.t, b.ws, m.meetingId, { name: 'Sue', cookie }));
    await ann.socket.next('participant_joined');
    const session = await a.t.app.sessions.resolve(cookie.split('=')[1]);
    await a.t.app.sessions.end(session!.idHash); // what logout through A does
    expect((await sue.socket.closed).code).toBe(WS_CLOSE.sessionEnded);
    expect(await ann.socket.next('participant_left')).toMatchObject({
      participantId: sue.join.id,
      reason: 'left',
    });
  });

  // The last two tests end instances: b crashes here, and a third one drains in the next.
  it('sweeps a crashed instance’s participants within the TTL; they come back as themselves', async () => {
    const m = await createMeeting(a.t, { hostId });
    const ann = await enter(a.t, a.ws, m.meetingId, { name: 'Ann' });
    const bob = await enter(b.t, b.ws, m.meetingId, { name: 'Bob' });
    const cat = await enter(b.t, b.ws, m.meetingId, { name: 'Cat' });
    opened.push(ann.socket, bob.socket, cat.socket);
    await ann.socket.next('participant_joined');
    await ann.socket.next('participant_joined');
    // Bob says something through B before it crashes: it is kept (the database), not lost with B.
    bob.socket.send({ type: 'chat_message', content: 'before the crash' });
    expect((await ann.socket.next('chat_message')).content).toBe('before the crash');

    // B "crashes": it stops beating and its sockets die without it telling anyone.
    b.t.app.roomPresence?.stop();
    await b.t.app.rooms.shutdown();
    const crashedAt = Date.now();
    bob.socket.drop();
    cat.socket.drop();

    // Bob's client reconnects at once, through A, with its join token: the same participant.
    const bobAgain = await connect(a.ws, m.meetingId, { name: 'Bob' });
    opened.push(bobAgain);
    bobAgain.send({ type: 'join_meeting', joinToken: bob.join.joinToken });
    const back = await bobAgain.next('joined');
    expect([back.self.id, back.resumed]).toEqual([bob.join.id, true]);
    expect(back.chatHistory.map((c) => c.content)).toEqual(['before the crash']);
    expect(back.participants.map((p) => p.name).sort()).toEqual(['Ann', 'Cat']);

    // Cat does not come back: gone from Ann's roster once B's beat expired, Bob stays.
    const left = await ann.socket.next('participant_left', 5000);
    const sweptMs = Date.now() - crashedAt;
    expect(left).toMatchObject({ participantId: cat.join.id, reason: 'timeout' });
    expect(sweptMs).toBeLessThan(PRESENCE_TTL_MS * 3);
    expect(await ann.socket.none('participant_left', PRESENCE_TTL_MS)).toEqual([]);
    const room = await a.t.app.rooms.room(m.id);
    expect([...(room?.members.values() ?? [])].map((p) => p.name).sort()).toEqual(['Ann', 'Bob']);

    // Cat's browser rejoins through A with its previous join token: the same participant id.
    const catBack = await postJoin(a.t, m.meetingId, { name: 'Cat', resumeToken: cat.join.joinToken });
    expect(catBack.id).toBe(cat.join.id);
    await b.t.close();
    console.info(`crashed instance's participant swept after ${sweptMs} ms (TTL ${PRESENCE_TTL_MS} ms)`);
  });

  it('on shutdown (SIGTERM) tells its clients to reconnect; they resume on another instance unseen', async () => {
    const c = await startInstance(db, `drain-${run}`);
    const m = await createMeeting(a.t, { hostId });
    const ann = await enter(a.t, a.ws, m.meetingId, { name: 'Ann' });
    const bob = await enter(c.t, c.ws, m.meetingId, { name: 'Bob' });
    opened.push(ann.socket, bob.socket);
    await ann.socket.next('participant_joined');

    // What main.ts does on SIGTERM: app.close() (scripts/topology.sh --smoke sends a real one).
    const closing = c.t.close();
    const closed = await bob.socket.closed;
    expect(closed.code).toBe(WS_CLOSE.goingAway);
    const started = Date.now();
    const again = await connect(a.ws, m.meetingId, { name: 'Bob' });
    opened.push(again);
    again.send({ type: 'join_meeting', joinToken: bob.join.joinToken });
    const back = await again.next('joined');
    const resumeMs = Date.now() - started;
    expect([back.self.id, back.resumed]).toEqual([bob.join.id, true]);
    await closing;

    // Ann never saw Bob leave, and the drained instance's end did not end the meeting.
    expect(await ann.socket.none('participant_left', 3 * PRESENCE_TTL_MS)).toEqual([]);
    const room = await a.t.app.rooms.room(m.id);
    expect(room?.members.size).toBe(2);
    again.send({ type: 'chat_message', content: 'still here' });
    expect((await ann.socket.next('chat_message')).content).toBe('still here');
    console.info(`drained instance's client back in the meeting ${resumeMs} ms after the close`);
  });
});

// The in-process default is unchanged: without REDIS_URL the rooms are this instance's memory.
describe('without REDIS_URL', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());
  it('keeps rooms in process, with no presence across instances', () => {
    expect(t.app.bus.kind).toBe('in-process');
    expect(t.app.sharedState).toBeNull();
    expect(t.app.roomPresence).toBeNull();
  });
});
