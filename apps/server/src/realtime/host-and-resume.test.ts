import { WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { createTestApp, signIn, type TestContext } from '../../test/app.js';
import { createMeeting } from '../../test/meetings.js';
import { connect, enter, listen, postJoin } from '../../test/ws-client.js';
import { ROOM_MESSAGES } from '../modules/rooms/errors.js';

let t: TestContext;
let ws: string;
let hostCookie: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie: hostCookie, userId: hostId } = await signIn(t, {
    email: 'host@example.com',
    firstName: 'Hana',
  }));
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

const newMeeting = (extra: Partial<Parameters<typeof createMeeting>[1]> = {}) =>
  createMeeting(t, { hostId, ...extra });

describe('host powers', () => {
  it('a guest asking for host=true is not host, and its host messages are refused with nothing done', async () => {
    const m = await newMeeting();
    const victim = await enter(t, ws, m.meetingId, { name: 'Vic' });
    const faker = await enter(t, ws, m.meetingId, { name: 'Faker', isHost: true });
    expect(faker.join.isHost).toBe(false);
    expect(faker.joined?.self.isHost).toBe(false);
    const attempts = [
      { type: 'mute_all', requestId: '1', muted: true },
      { type: 'mute_participant', requestId: '2', targetParticipantId: victim.join.id, muted: true },
      { type: 'remove_participant', requestId: '3', targetParticipantId: victim.join.id },
      { type: 'admit_participant', requestId: '4', targetParticipantId: victim.join.id },
      { type: 'deny_participant', requestId: '5', targetParticipantId: victim.join.id },
    ];
    for (const a of attempts) faker.socket.send(a);
    for (const a of attempts) {
      expect(await faker.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: a.requestId });
    }
    expect(await victim.socket.none('mute_all')).toEqual([]);
    expect(await victim.socket.none('mute_participant', 0)).toEqual([]);
    expect(await victim.socket.none('removed', 0)).toEqual([]);
    victim.socket.send({ type: 'ping', requestId: 'still-here' });
    expect((await victim.socket.next('pong')).requestId).toBe('still-here');
    victim.socket.close();
    faker.socket.close();
  });

  it('a signed-in user who is not the meeting host gets no host powers either', async () => {
    const m = await newMeeting();
    const { cookie } = await signIn(t, { email: 'other@example.com' });
    const join = await postJoin(t, m.meetingId, { name: 'Other', isHost: true, cookie });
    expect(join.isHost).toBe(false);
  });

  it('the signed-in host mutes all, mutes one and removes one', async () => {
    const m = await newMeeting();
    const host = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    expect(host.join.isHost).toBe(true);
    expect(host.joined?.self.isHost).toBe(true);
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });

    host.socket.send({ type: 'mute_all', requestId: 'ma', muted: true });
    expect((await host.socket.next('ack')).requestId).toBe('ma');
    expect(await a.socket.next('mute_all')).toEqual({ type: 'mute_all', muted: true });
    expect(await b.socket.next('mute_all')).toEqual({ type: 'mute_all', muted: true });
    a.socket.send({ type: 'request_existing_connections' });
    const roster = (await a.socket.next('existing_connections')).participants;
    expect(roster.find((p) => p.id === b.join.id)?.isMuted).toBe(true);

    host.socket.send({
      type: 'mute_participant',
      requestId: 'mp',
      targetParticipantId: a.join.id,
      muted: true,
    });
    expect(await a.socket.next('mute_participant')).toEqual({
      type: 'mute_participant',
      targetParticipantId: a.join.id,
      muted: true,
    });
    expect(await b.socket.none('mute_participant')).toEqual([]);
    host.socket.send({
      type: 'mute_participant',
      requestId: 'mx',
      targetParticipantId: 'ghost',
      muted: true,
    });
    expect(await host.socket.next('error')).toMatchObject({ code: 'not_found', requestId: 'mx' });

    host.socket.send({ type: 'remove_participant', requestId: 'rm', targetParticipantId: b.join.id });
    expect((await b.socket.next('removed')).message).toMatch(/removed/);
    expect((await b.socket.closed).code).toBe(WS_CLOSE.removedByHost);
    expect(await a.socket.next('participant_left')).toEqual({
      type: 'participant_left',
      participantId: b.join.id,
      reason: 'removed',
    });
    // The removed participant's token no longer works.
    const back = await connect(ws, m.meetingId);
    back.send({ type: 'join_meeting', joinToken: b.join.joinToken });
    expect((await back.closed).code).toBe(WS_CLOSE.unauthorized);
    host.socket.close();
    a.socket.close();
  });

  it('a host join token does not work on a socket without the host session', async () => {
    const m = await newMeeting();
    const join = await postJoin(t, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    const socket = await connect(ws, m.meetingId, { isHost: true });
    socket.send({ type: 'join_meeting', joinToken: join.joinToken });
    expect((await socket.next('error')).code).toBe('invalid_token');
    expect((await socket.closed).code).toBe(WS_CLOSE.unauthorized);
  });
});

describe('mute all is room state', () => {
  it('late joiners come in muted, everyone sees who was muted, and the host sees it after a reload', async () => {
    const m = await newMeeting();
    const hostTab = { name: 'Hana', isHost: true, cookie: hostCookie, sessionId: 'host-tab' };
    const host = await enter(t, ws, m.meetingId, hostTab);
    expect(host.joined?.allMuted).toBe(false);
    const ann = await enter(t, ws, m.meetingId, { name: 'Ann', isMuted: false });
    expect(ann.joined?.allMuted).toBe(false);

    host.socket.send({ type: 'mute_all', requestId: 'on', muted: true });
    await host.socket.next('ack');
    expect(await ann.socket.next('mute_all')).toEqual({ type: 'mute_all', muted: true });
    const seen = await host.socket.next('participant_updated');
    expect(seen.participant).toMatchObject({ id: ann.join.id, isMuted: true });

    const late = await enter(t, ws, m.meetingId, { name: 'Lou', isMuted: false });
    expect(late.joined).toMatchObject({ allMuted: true, self: { isMuted: true } });
    expect((await ann.socket.next('participant_joined')).participant).toMatchObject({
      id: late.join.id,
      isMuted: true,
    });

    const reloaded = await enter(t, ws, m.meetingId, hostTab);
    expect(reloaded.joined).toMatchObject({ allMuted: true, resumed: true, self: { isMuted: false } });

    reloaded.socket.send({ type: 'mute_all', requestId: 'off', muted: false });
    expect(await ann.socket.next('mute_all')).toEqual({ type: 'mute_all', muted: false });
    const after = await enter(t, ws, m.meetingId, { name: 'Max', isMuted: false });
    expect(after.joined).toMatchObject({ allMuted: false, self: { isMuted: false } });
    for (const p of [reloaded, ann, late, after]) p.socket.close();
  });
});

describe('the deny list', () => {
  it('a guest the host removed cannot join the meeting again from that browser (403)', async () => {
    const m = await newMeeting();
    const host = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    const guest = await enter(t, ws, m.meetingId, { name: 'Gus', sessionId: 'gus-browser' });
    host.socket.send({ type: 'remove_participant', requestId: 'rm', targetParticipantId: guest.join.id });
    expect((await guest.socket.closed).code).toBe(WS_CLOSE.removedByHost);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/join`,
      payload: { name: 'Gus', isHost: false, isMuted: true, isVideoOn: true, sessionId: 'gus-browser' },
    });
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ message: ROOM_MESSAGES.removedCannotRejoin });
    const registration = await t.app.inject({
      method: 'POST',
      url: `/api/meetings/${m.meetingId}/participants`,
      payload: { name: 'Gus', sessionId: 'gus-browser' },
    });
    expect(registration.statusCode).toBe(403);
    host.socket.close();
  });
});

describe('media state, collaboration and leaving', () => {
  it('tells the others about media state and collaboration updates; leave_meeting says left', async () => {
    const m = await newMeeting();
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    b.socket.send({ type: 'media_state', isMuted: true, isVideoOn: false, isScreenSharing: true });
    expect((await a.socket.next('participant_updated')).participant).toMatchObject({
      id: b.join.id,
      isMuted: true,
      isVideoOn: false,
      isScreenSharing: true,
    });
    // A Yjs update of the meeting's document (modules/collaboration has the document's own tests).
    const doc = new Y.Doc();
    doc.getMap('whiteboard').set('note', { text: 'hello' });
    const update = Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64');
    b.socket.send({ type: 'collaboration_update', data: { kind: 'update', update } });
    expect(await a.socket.next('collaboration_update')).toEqual({
      type: 'collaboration_update',
      fromParticipant: b.join.id,
      data: { kind: 'update', update },
    });
    b.socket.send({ type: 'leave_meeting' });
    expect((await b.socket.closed).code).toBe(WS_CLOSE.normal);
    expect(await a.socket.next('participant_left')).toMatchObject({
      participantId: b.join.id,
      reason: 'left',
    });
    a.socket.close();
  });

  it('a leave_meeting sent right before the client closes still leaves at once (no ghost)', async () => {
    const m = await newMeeting();
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    b.socket.send({ type: 'leave_meeting' });
    b.socket.ws.close();
    const left = await a.socket.next('participant_left', 2000);
    expect(left).toMatchObject({ participantId: b.join.id, reason: 'left' });
    expect(await a.socket.none('participant_updated', 200)).toEqual([]);
    a.socket.close();
  });
});

describe('dropped sockets and reloads', () => {
  it('resumes the same participant with the same token after a drop, without a duplicate', async () => {
    const m = await newMeeting();
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    await a.socket.next('participant_joined');
    b.socket.drop();
    const away = await a.socket.next('participant_updated');
    expect(away.participant).toMatchObject({ id: b.join.id, isConnected: false });

    const again = await connect(ws, m.meetingId, { name: 'Bob' });
    again.send({ type: 'join_meeting', joinToken: b.join.joinToken });
    const joined = await again.next('joined');
    expect(joined.resumed).toBe(true);
    expect(joined.self.id).toBe(b.join.id);
    const back = await a.socket.next('participant_updated');
    expect(back.participant).toMatchObject({ id: b.join.id, isConnected: true });
    expect(await a.socket.none('participant_joined')).toEqual([]);
    a.socket.send({ type: 'request_existing_connections' });
    const roster = (await a.socket.next('existing_connections')).participants;
    expect(roster.map((p) => p.id)).toEqual([b.join.id]);
    a.socket.close();
    again.close();
  });

  it('removes a participant whose socket stays gone past the grace period (participant_left timeout)', async () => {
    const saved = t.app.rooms.timings.resumeGraceMs;
    t.app.rooms.timings.resumeGraceMs = 300;
    try {
      const m = await newMeeting();
      const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
      const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
      b.socket.drop();
      expect(await a.socket.next('participant_left')).toEqual({
        type: 'participant_left',
        participantId: b.join.id,
        reason: 'timeout',
      });
      const late = await connect(ws, m.meetingId);
      late.send({ type: 'join_meeting', joinToken: b.join.joinToken });
      expect((await late.closed).code).toBe(WS_CLOSE.unauthorized);
      a.socket.close();
    } finally {
      t.app.rooms.timings.resumeGraceMs = saved;
    }
  });

  it('a reload (same sessionId and its previous join token) returns the same participant and replaces the old socket (4009)', async () => {
    const m = await newMeeting();
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const first = await enter(t, ws, m.meetingId, { name: 'Bob', sessionId: 'tab-1' });
    const second = await enter(t, ws, m.meetingId, {
      name: 'Bob',
      sessionId: 'tab-1',
      resumeToken: first.join.joinToken,
    });
    expect(second.join.id).toBe(first.join.id);
    expect(second.join.joinToken).not.toBe(first.join.joinToken);
    expect((await first.socket.closed).code).toBe(WS_CLOSE.replaced);
    expect(second.joined?.resumed).toBe(true);
    a.socket.send({ type: 'request_existing_connections' });
    const roster = (await a.socket.next('existing_connections')).participants;
    expect(roster.filter((p) => p.name === 'Bob')).toHaveLength(1);
    // The old token stopped working.
    const stale = await connect(ws, m.meetingId);
    stale.send({ type: 'join_meeting', joinToken: first.join.joinToken });
    expect((await stale.closed).code).toBe(WS_CLOSE.unauthorized);
    a.socket.close();
    second.socket.close();
  });

  it("closes a signed-in session's sockets with 4010 when the session ends", async () => {
    const m = await newMeeting();
    const watcher = await enter(t, ws, m.meetingId, { name: 'Wat' });
    const host = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: hostCookie });
    const session = await t.app.sessions.resolve(hostCookie.split('=')[1]);
    await t.app.sessions.end(session!.idHash); // what logout does
    expect((await host.socket.closed).code).toBe(WS_CLOSE.sessionEnded);
    expect(await watcher.socket.next('participant_left')).toMatchObject({
      participantId: host.join.id,
      reason: 'left',
    });
    watcher.socket.close();
    ({ cookie: hostCookie } = await signIn(t, { email: 'host@example.com', firstName: 'Hana' }));
  });
});
