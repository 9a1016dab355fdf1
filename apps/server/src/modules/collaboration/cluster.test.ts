/**
 * One meeting's whiteboard and notes across two server instances (REDIS_URL): each instance
 * keeps a copy of the document, and the copies stay the same, so a participant who syncs through
 * either instance gets everything, whichever instance took it and before anyone saved it.
 */
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../../test/collab-client.js';
import { createTestDb } from '../../../test/db.js';
import { redisReachable, redisRequired, startInstance, type Instance } from '../../../test/instances.js';
import { signIn } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, type TestSocket } from '../../../test/ws-client.js';
import type { DbHandle } from '../../db/index.js';
import { createCollaborationRepository } from './repository.js';

const run = Math.random().toString(36).slice(2, 8);

describe.skipIf(!redisReachable && !redisRequired)('the collaboration document across two instances', () => {
  let db: DbHandle;
  let a: Instance;
  let b: Instance;
  let hostId: string;
  const opened: TestSocket[] = [];

  beforeAll(async () => {
    if (!redisReachable) throw new Error('Redis is not listening on 127.0.0.1:6379');
    db = await createTestDb();
    a = await startInstance(db, `ca-${run}`);
    b = await startInstance(db, `cb-${run}`);
    ({ userId: hostId } = await signIn(a.t, { email: 'collab-host@example.com' }));
  });
  afterAll(async () => {
    for (const s of opened) s.drop();
    await a?.t.close().catch(() => undefined);
    await b?.t.close().catch(() => undefined);
    await db?.close();
  });

  async function client(on: Instance, meetingId: string, name: string): Promise<Client> {
    const { socket } = await enter(on.t, on.ws, meetingId, { name });
    opened.push(socket);
    return new Client(socket);
  }

  it('gives a late joiner on either instance what the other took, unsaved; the saved state holds both', async () => {
    const m = await createMeeting(a.t, { hostId });
    const ann = await client(a, m.meetingId, 'Ann');
    await ann.sync();
    ann.board.set('rect-a', { id: 'rect-a', type: 'rectangle', x: 10, version: 1 });
    await ann.socket.sync();

    // Cy joins through B with nothing: B opens the document (nothing is saved yet: the save
    // comes 2 s after a change) and gets A's copy before it answers.
    const cy = await client(b, m.meetingId, 'Cy');
    await cy.sync();
    expect(Object.keys(cy.board.toJSON())).toEqual(['rect-a']);

    // Cy draws through B; Ann hears it live, and A's copy takes it too.
    cy.board.set('line-b', { id: 'line-b', type: 'line', x: 50, version: 1 });
    await ann.receive();
    expect(Object.keys(ann.board.toJSON()).sort()).toEqual(['line-b', 'rect-a']);
    const dee = await client(a, m.meetingId, 'Dee');
    await dee.sync();
    expect(Object.keys(dee.board.toJSON()).sort()).toEqual(['line-b', 'rect-a']);

    // Each instance saves its own copy; the stored document holds what both took, in either order.
    await b.t.app.collaboration.flush();
    await a.t.app.collaboration.flush();
    const stored = await createCollaborationRepository(db.db).load(m.id);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, stored!.state);
    expect(Object.keys(doc.getMap('whiteboard').toJSON()).sort()).toEqual(['line-b', 'rect-a']);
    doc.destroy();
  });
});
