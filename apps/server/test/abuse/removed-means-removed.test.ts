import { WS_CLOSE } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_MESSAGES } from '../../src/modules/rooms/errors.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, item 7: after remove_participant the same person rejoined at once and was
 * admitted. The deny list (by user when signed in, by browser otherwise) keeps them out until a
 * host lifts it: the hosts see who is on it (`removed_list`) and `allow_rejoin` lets one back.
 */
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };
const sockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ws = (await listen(t)).ws;
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.close();
});

const rejoin = (meetingId: string, sessionId: string, cookie?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/meetings/${meetingId}/join`,
    headers: cookie ? { cookie } : {},
    payload: { name: 'Mal', isHost: false, isMuted: true, isVideoOn: true, sessionId },
  });

describe('a removed participant', () => {
  it('cannot come back, again and again, until the host lifts it; then it can', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    const mal = await enter(t, ws, m.meetingId, { name: 'Mal', sessionId: 'mal-browser' });
    sockets.push(h.socket, mal.socket);
    h.socket.send({ type: 'remove_participant', targetParticipantId: mal.join.id });
    expect((await mal.socket.closed).code).toBe(WS_CLOSE.removedByHost);
    expect((await h.socket.next('removed_list')).removed).toEqual([{ id: mal.join.id, name: 'Mal' }]);

    // The review's attack: rejoin at once, repeatedly.
    for (let i = 0; i < 20; i++) {
      const again = await rejoin(m.meetingId, 'mal-browser');
      expect(again.statusCode).toBe(403);
      expect(again.json()).toEqual({ message: ROOM_MESSAGES.removedCannotRejoin });
    }
    // Only a host may lift it.
    const bystander = await enter(t, ws, m.meetingId, { name: 'Bea' });
    sockets.push(bystander.socket);
    bystander.socket.send({ type: 'allow_rejoin', requestId: 'lift', removedId: mal.join.id });
    expect(await bystander.socket.next('error')).toMatchObject({ code: 'forbidden', requestId: 'lift' });
    expect((await rejoin(m.meetingId, 'mal-browser')).statusCode).toBe(403);

    h.socket.send({ type: 'allow_rejoin', requestId: 'lift', removedId: mal.join.id });
    let ack = await h.socket.next('ack');
    while (ack.requestId !== 'lift') ack = await h.socket.next('ack');
    expect((await h.socket.next('removed_list')).removed).toEqual([]);
    expect((await rejoin(m.meetingId, 'mal-browser')).statusCode).toBe(200);
  });

  it('a signed-in user stays out from any browser; a host who reloads sees the list', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const sam = await signIn(t, { email: 'sam@example.com', firstName: 'Sam' });
    const h = await enter(t, ws, m.meetingId, {
      name: 'Hana',
      isHost: true,
      cookie: host.cookie,
      sessionId: 'host-tab',
    });
    const s = await enter(t, ws, m.meetingId, { name: 'Sam', cookie: sam.cookie, sessionId: 'laptop' });
    sockets.push(h.socket, s.socket);
    h.socket.send({ type: 'remove_participant', targetParticipantId: s.join.id });
    await s.socket.closed;
    expect((await rejoin(m.meetingId, 'phone', sam.cookie)).statusCode).toBe(403);

    const reload = await enter(t, ws, m.meetingId, {
      name: 'Hana',
      isHost: true,
      cookie: host.cookie,
      sessionId: 'host-tab',
    });
    sockets.push(reload.socket);
    expect((await reload.socket.next('removed_list')).removed).toEqual([{ id: s.join.id, name: 'Sam' }]);
    reload.socket.send({ type: 'allow_rejoin', requestId: 'x', removedId: 'not-on-the-list' });
    expect(await reload.socket.next('error')).toMatchObject({ code: 'not_found', requestId: 'x' });
  });
});
