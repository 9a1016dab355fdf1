import { WS_LIMITS } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, enter, listen } from '../../../test/ws-client.js';

/**
 * Issue 37 item 7: a guest who closed the tab stayed a frozen "Reconnecting..." tile for ~50 s,
 * and a knocker who gave up stayed listed ("Kim, Kim"). A page that closes its socket (1000/1001)
 * leaves after the closed grace, unseen as reconnecting; only a dropped connection gets the
 * resume grace; a knocker leaves the list as soon as its socket goes.
 */
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp();
  ({ ws } = await listen(t));
  host = await signIn(t, { email: 'ghost-host@example.com', firstName: 'Hana' });
});
afterAll(async () => t?.close());

describe('no ghosts', () => {
  it('a closed tab (1001) leaves within the closed grace and is never shown reconnecting', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    const t0 = Date.now();
    b.socket.close(1001);
    const left = await a.socket.next('participant_left', WS_LIMITS.closedGraceMs + 2_000);
    expect(left).toEqual({ type: 'participant_left', participantId: b.join.id, reason: 'timeout' });
    const after = Date.now() - t0;
    expect(after).toBeLessThan(WS_LIMITS.resumeGraceMs);
    expect(
      a.socket.received.filter((x) => x.type === 'participant_updated' && x.participant.id === b.join.id),
    ).toEqual([]);
    a.socket.close();
  });

  it('a reload within the closed grace comes back as itself, and nobody saw it go', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    expect((await a.socket.next('participant_joined')).participant.id).toBe(b.join.id);
    b.socket.close(1000);
    await b.socket.closed;
    const again = await connect(ws, m.meetingId);
    again.send({ type: 'join_meeting', joinToken: b.join.joinToken });
    const joined = await again.next('joined');
    expect(joined.resumed).toBe(true);
    expect(joined.self.id).toBe(b.join.id);
    expect(await a.socket.none('participant_left', WS_LIMITS.closedGraceMs + 500)).toEqual([]);
    expect(await a.socket.none('participant_joined', 0)).toEqual([]);
    a.socket.close();
    again.close();
  });

  it('a dropped connection keeps the resume grace and is shown reconnecting', async () => {
    const m = await createMeeting(t, { hostId: host.userId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    b.socket.drop();
    const away = await a.socket.next('participant_updated');
    expect(away.participant).toMatchObject({ id: b.join.id, isConnected: false });
    expect(await a.socket.none('participant_left', WS_LIMITS.closedGraceMs + 500)).toEqual([]);
    const again = await connect(ws, m.meetingId);
    again.send({ type: 'join_meeting', joinToken: b.join.joinToken });
    expect((await again.next('joined')).self.id).toBe(b.join.id);
    a.socket.close();
    again.close();
  });

  it('a knocker who gives up leaves the waiting list at once; one who comes back is listed once', async () => {
    const m = await createMeeting(t, { hostId: host.userId, waitingRoom: true });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    const kim = await enter(t, ws, m.meetingId, { name: 'Kim' });
    expect((await h.socket.next('waiting_room')).waiting).toEqual([{ id: kim.join.id, name: 'Kim' }]);
    kim.socket.drop();
    expect((await h.socket.next('waiting_room', 1_000)).waiting).toEqual([]);
    // Knocking again (a new tab): listed once, and admitted it leaves the list.
    const kim2 = await enter(t, ws, m.meetingId, { name: 'Kim' });
    expect((await h.socket.next('waiting_room')).waiting).toEqual([{ id: kim2.join.id, name: 'Kim' }]);
    h.socket.send({ type: 'admit_participant', targetParticipantId: kim2.join.id });
    await kim2.socket.next('joined');
    expect((await h.socket.next('waiting_room')).waiting).toEqual([]);
    h.socket.close();
    kim2.socket.close();
  });
});
