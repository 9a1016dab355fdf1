import { COLLABORATION_BOUNDS } from '@parley/protocol';
import { encodeAwarenessUpdate, Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { b64, Client, unb64 } from '../../../test/collab-client.js';
import { enter, listen } from '../../../test/ws-client.js';
import { createCollaborationRepository } from './repository.js';

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

async function room(names: string[]) {
  const m = await createMeeting(t, { hostId });
  const clients: Client[] = [];
  const joins = [];
  for (const name of names) {
    const e = await enter(t, ws, m.meetingId, { name });
    joins.push(e.join);
    clients.push(new Client(e.socket));
  }
  return { m, clients, joins };
}

describe('the meeting document', () => {
  it('passes an update on to the others, who converge; concurrent edits merge', async () => {
    const { clients } = await room(['Ann', 'Bob']);
    const [a, b] = clients as [Client, Client];
    await a.sync();
    await b.sync();
    a.board.set('rect-1', { id: 'rect-1', type: 'rectangle', x: 10, version: 1 });
    b.board.set('line-1', { id: 'line-1', type: 'line', x: 50, version: 1 });
    await b.receive();
    await a.receive();
    expect(a.board.toJSON()).toEqual(b.board.toJSON());
    expect(Object.keys(a.board.toJSON()).sort()).toEqual(['line-1', 'rect-1']);
    a.socket.close();
    b.socket.close();
  });

  it('gives a late joiner the current document, in parts when it is large', async () => {
    const { m, clients } = await room(['Ann']);
    const [a] = clients as [Client];
    await a.sync();
    // Five changes of ~40 KB: the answer is larger than one sync part.
    for (let i = 0; i < 5; i++) {
      a.board.set(`text-${i}`, { id: `text-${i}`, text: String(i).repeat(40_000) });
      await a.socket.sync();
    }
    expect((await a.socket.none('error', 50)).length).toBe(0);
    const late = new Client((await enter(t, ws, m.meetingId, { name: 'Late' })).socket);
    const parts = await late.sync();
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.length).toBe(
      Math.ceil(Y.encodeStateAsUpdate(a.doc).length / COLLABORATION_BOUNDS.syncPartBytes),
    );
    expect(late.board.toJSON()).toEqual(a.board.toJSON());
    a.socket.close();
    late.socket.close();
  });

  it('refuses a malformed update with an error and changes nothing', async () => {
    const { clients } = await room(['Ann', 'Bob']);
    const [a, b] = clients as [Client, Client];
    await a.sync();
    a.board.set('keep', { id: 'keep' });
    await b.receive();
    const before = Y.encodeStateAsUpdate(b.doc);
    // Garbage, a truncated real update, and a wrong shape.
    const real = Y.encodeStateAsUpdate(a.doc);
    for (const data of [
      { kind: 'update', update: b64(new Uint8Array([0xff, 0xff, 0xff, 0x07, 1, 2, 3])) },
      { kind: 'update', update: b64(real.subarray(0, real.length - 3)) },
      { kind: 'update', update: 'not base64!' },
      { kind: 'paint', update: '' },
    ]) {
      a.socket.send({ type: 'collaboration_update', data });
      const error = await a.socket.next('error');
      expect(error.code).toBe('bad_message');
      expect(error.message).toMatch(/collaboration update/i);
    }
    expect(await b.socket.none('collaboration_update', 100)).toEqual([]);
    const fresh = new Client(b.socket);
    await fresh.sync();
    expect(Y.encodeStateAsUpdate(fresh.doc)).toEqual(before);
    // The document still takes good updates.
    a.board.set('after', { id: 'after' });
    await b.receive();
    expect(b.board.get('after')).toEqual({ id: 'after' });
    a.socket.close();
    b.socket.close();
  });

  it('limits each participant’s rate of changes', async () => {
    const { clients } = await room(['Ann', 'Bob']);
    const [a, b] = clients as [Client, Client];
    const saved = { ...t.app.collaboration.settings };
    t.app.collaboration.settings.messageBurst = 5;
    t.app.collaboration.settings.messagesPerSecond = 1;
    try {
      for (let i = 0; i < 10; i++) a.board.set(`k${i}`, { i });
      const error = await a.socket.next('error');
      expect(error).toMatchObject({ code: 'rate_limited' });
      // Bob is not held back by Ann's budget.
      b.board.set('bob', { ok: true });
      await a.receive();
    } finally {
      Object.assign(t.app.collaboration.settings, saved);
    }
    a.socket.close();
    b.socket.close();
  });

  it('caps the persisted size with a clear message', async () => {
    const { clients } = await room(['Ann']);
    const [a] = clients as [Client];
    const saved = t.app.collaboration.settings.maxDocumentBytes;
    t.app.collaboration.settings.maxDocumentBytes = 60_000;
    try {
      a.board.set('one', { text: 'a'.repeat(40_000) });
      await a.socket.sync();
      a.board.set('two', { text: 'b'.repeat(40_000) });
      const error = await a.socket.next('error');
      expect(error.code).toBe('too_large');
      expect(error.message).toContain('reached their limit of 59 KB');
    } finally {
      t.app.collaboration.settings.maxDocumentBytes = saved;
    }
    a.socket.close();
  });

  it('persists a compacted snapshot, not a log of updates', async () => {
    const { m, clients } = await room(['Ann']);
    const [a] = clients as [Client];
    let sent = 0;
    a.doc.on('update', (u: Uint8Array) => (sent += u.length));
    for (let i = 0; i < 40; i++) {
      a.board.set('moving', { id: 'moving', x: i, text: 'x'.repeat(500) });
      if (i % 10 === 9) await a.socket.sync();
    }
    await a.socket.sync();
    await t.app.collaboration.flush();
    const row = await createCollaborationRepository(t.db.db).load(m.id);
    expect(row).not.toBeNull();
    expect(row!.bytes).toBe(row!.state.length);
    expect(row!.bytes).toBeLessThan(sent / 10);
    const restored = new Y.Doc();
    Y.applyUpdate(restored, row!.state);
    expect(restored.getMap('whiteboard').get('moving')).toMatchObject({ x: 39 });
    a.socket.close();
  });

  it('a participant who dropped gets what others did meanwhile, and the others get its offline edits', async () => {
    const { m, clients, joins } = await room(['Ann', 'Bob']);
    const [a, b] = clients as [Client, Client];
    await a.sync();
    await b.sync();
    b.socket.drop();
    await a.socket.next('participant_updated');
    a.board.set('while-away', { by: 'ann' });
    await a.socket.sync();
    // Bob keeps editing offline (his client queues nothing: the sync after resuming carries it).
    const offline = new Y.Doc();
    Y.applyUpdate(offline, Y.encodeStateAsUpdate(b.doc));
    offline.getMap('whiteboard').set('offline', { by: 'bob' });
    const back = await enter(t, ws, m.meetingId, { name: 'Bob', resumeToken: joins[1]!.joinToken });
    expect(back.joined?.resumed).toBe(true);
    const bob = new Client(back.socket);
    Y.applyUpdate(bob.doc, Y.encodeStateAsUpdate(offline), 'remote');
    await bob.sync();
    await a.receive();
    expect(bob.board.toJSON()).toEqual(a.board.toJSON());
    expect(Object.keys(a.board.toJSON()).sort()).toEqual(['offline', 'while-away']);
    a.socket.close();
    bob.socket.close();
  });
});

describe('awareness', () => {
  it('passes cursors on with the server’s name for the sender, and refuses another’s cursor', async () => {
    const { clients } = await room(['Ann', 'Bob']);
    const [a, b] = clients as [Client, Client];
    const awareness = new Awareness(a.doc);
    awareness.setLocalState({ user: { name: 'Not Ann', color: '#f00' }, cursor: { x: 1, y: 2 } });
    const update = encodeAwarenessUpdate(awareness, [a.doc.clientID]);
    a.socket.send({ type: 'collaboration_update', data: { kind: 'awareness', update: b64(update) } });
    const got = await b.socket.next('collaboration_update');
    const seen = new Awareness(new Y.Doc());
    const { applyAwarenessUpdate } = await import('y-protocols/awareness');
    applyAwarenessUpdate(seen, unb64((got.data as { update: string }).update), 'test');
    expect(seen.getStates().get(a.doc.clientID)).toMatchObject({ user: { name: 'Ann', color: '#f00' } });
    // Bob sends a state for Ann's client id.
    b.socket.send({ type: 'collaboration_update', data: { kind: 'awareness', update: b64(update) } });
    expect(await b.socket.next('error')).toMatchObject({ code: 'forbidden' });
    awareness.destroy();
    seen.destroy();
    a.socket.close();
    b.socket.close();
  });
});

describe('GET /api/meetings/{id}/notes', () => {
  it('gives the owner the notes as ProseMirror JSON and text; nobody else', async () => {
    const { m, clients } = await room(['Ann']);
    const [a] = clients as [Client];
    const notes = a.doc.getXmlFragment('notes');
    const heading = new Y.XmlElement('heading');
    heading.setAttribute('level', '2' as never);
    heading.insert(0, [new Y.XmlText('Decisions')]);
    const p = new Y.XmlElement('paragraph');
    const text = new Y.XmlText();
    text.insert(0, 'Ship on ');
    text.insert(8, 'Friday', { bold: true });
    p.insert(0, [text]);
    notes.insert(0, [heading, p]);
    await a.socket.sync();
    const res = await t.app.inject({
      url: `/api/meetings/${m.meetingId}/notes`,
      headers: { cookie: hostCookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ text: string; doc: { content: unknown[] }; bytes: number }>();
    expect(body.text).toBe('Decisions\nShip on Friday');
    expect(body.doc.content[1]).toEqual({
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Ship on ' },
        { type: 'text', text: 'Friday', marks: [{ type: 'bold' }] },
      ],
    });
    expect(body.bytes).toBeGreaterThan(0);
    expect((await t.app.inject({ url: `/api/meetings/${m.meetingId}/notes` })).statusCode).toBe(401);
    const { cookie } = await signIn(t, { email: 'stranger@example.com' });
    const other = await t.app.inject({ url: `/api/meetings/${m.meetingId}/notes`, headers: { cookie } });
    expect(other.statusCode).toBe(404);
    a.socket.close();
    // After the room, from the database.
    await t.app.collaboration.flush();
    const later = await t.app.inject({
      url: `/api/meetings/${m.meetingId}/notes`,
      headers: { cookie: hostCookie },
    });
    expect(later.json<{ text: string }>().text).toBe('Decisions\nShip on Friday');
  });
});
