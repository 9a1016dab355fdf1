import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen } from '../../../test/ws-client.js';
import { chatMessages } from '../../db/schema/index.js';

let t: TestContext;
let ws: string;
let hostId: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ userId: hostId } = await signIn(t, { email: 'host@example.com' }));
  ({ ws } = await listen(t));
});
afterAll(async () => t.close());

describe('chat_message', () => {
  it('persists with a server id and timestamp, the sender from the socket, and shows history to later joiners', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    const before = Date.now();
    a.socket.send({
      type: 'chat_message',
      requestId: 'c1',
      content: '  <b>hello</b> https://example.com  ',
      senderId: b.join.id,
      senderName: 'Bob',
      id: 'client-id',
    });
    const mine = await a.socket.next('chat_message');
    const theirs = await b.socket.next('chat_message');
    expect(mine.requestId).toBe('c1');
    expect(theirs.requestId).toBeUndefined();
    expect(theirs).toMatchObject({
      content: '<b>hello</b> https://example.com',
      senderId: a.join.id,
      senderName: 'Ann',
    });
    expect(theirs.id).not.toBe('client-id');
    expect(theirs.id).toBe(mine.id);
    expect(Date.parse(theirs.timestamp)).toBeGreaterThanOrEqual(before - 1000);

    const rows = await t.db.db.select().from(chatMessages).where(eq(chatMessages.meetingId, m.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: theirs.id, senderId: a.join.id, senderName: 'Ann' });

    b.socket.send({ type: 'chat_message', content: 'second' });
    await a.socket.next('chat_message');
    const c = await enter(t, ws, m.meetingId, { name: 'Cid' });
    expect(c.joined?.chatHistory.map((h) => [h.senderName, h.content])).toEqual([
      ['Ann', '<b>hello</b> https://example.com'],
      ['Bob', 'second'],
    ]);
    for (const p of [a, b, c]) p.socket.close();
  });

  it('refuses blank messages with bad_message and keeps a duplicate within 1 s once', async () => {
    const m = await createMeeting(t, { hostId });
    const a = await enter(t, ws, m.meetingId, { name: 'Ann' });
    const b = await enter(t, ws, m.meetingId, { name: 'Bob' });
    for (const content of ['', '   ', '\n\t']) {
      a.socket.send({ type: 'chat_message', requestId: 'blank', content });
      expect(await a.socket.next('error')).toMatchObject({ code: 'bad_message', requestId: 'blank' });
    }
    a.socket.send({ type: 'chat_message', content: 'same' });
    a.socket.send({ type: 'chat_message', requestId: 'dup', content: 'same' });
    expect((await a.socket.next('ack')).requestId).toBe('dup');
    expect((await a.socket.next('chat_message')).content).toBe('same');
    await b.socket.next('chat_message');
    expect(await b.socket.none('chat_message')).toEqual([]);
    // Another sender may say the same thing; the same sender may repeat after the window.
    b.socket.send({ type: 'chat_message', content: 'same' });
    expect((await a.socket.next('chat_message')).senderId).toBe(b.join.id);
    expect((await b.socket.next('chat_message')).senderId).toBe(b.join.id);
    await new Promise((r) => setTimeout(r, 1050));
    a.socket.send({ type: 'chat_message', content: 'same' });
    expect((await b.socket.next('chat_message')).senderId).toBe(a.join.id);
    const rows = await t.db.db.select().from(chatMessages).where(eq(chatMessages.meetingId, m.id));
    expect(rows).toHaveLength(3);
    a.socket.send({ type: 'chat_message', requestId: 'long', content: 'x'.repeat(4001) });
    expect(await a.socket.next('error')).toMatchObject({ code: 'bad_message', requestId: 'long' });
    a.socket.close();
    b.socket.close();
  });
});
