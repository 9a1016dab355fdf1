/**
 * One meeting's whiteboard and notes across two server instances (REDIS_URL): each instance
 * keeps a copy of the document, and the copies stay the same, so a participant who syncs through
 * either instance gets everything, whichever instance took it and before anyone saved it.
 */
import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { Client } from '../../../test/collab-client.js';
import { redisReachable, redisRequired, twoInstances, type Instance } from '../../../test/instances.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter } from '../../../test/ws-client.js';
import { createCollaborationRepository } from './repository.js';

describe.skipIf(!redisReachable && !redisRequired)('the collaboration document across two instances', () => {
  const pair = twoInstances('collab');

  async function client(on: Instance, meetingId: string, name: string): Promise<Client> {
    const { socket } = await enter(on.t, on.ws, meetingId, { name });
    pair.opened.push(socket);
    return new Client(socket);
  }

  it('gives a late joiner on either instance what the other took, unsaved; the saved state holds both', async () => {
    const m = await createMeeting(pair.a.t, { hostId: pair.hostId });
    const ann = await client(pair.a, m.meetingId, 'Ann');
    await ann.sync();
    ann.board.set('rect-a', { id: 'rect-a', type: 'rectangle', x: 10, version: 1 });
    await ann.socket.sync();

    // Cy joins through B with nothing: B opens the document (nothing is saved yet: the save
    // comes 2 s after a change) and gets A's copy before it answers.
    const cy = await client(pair.b, m.meetingId, 'Cy');
    await cy.sync();
    expect(Object.keys(cy.board.toJSON())).toEqual(['rect-a']);

    // Cy draws through B; Ann hears it live, and A's copy takes it too.
    cy.board.set('line-b', { id: 'line-b', type: 'line', x: 50, version: 1 });
    await ann.receive();
    expect(Object.keys(ann.board.toJSON()).sort()).toEqual(['line-b', 'rect-a']);
    const dee = await client(pair.a, m.meetingId, 'Dee');
    await dee.sync();
    expect(Object.keys(dee.board.toJSON()).sort()).toEqual(['line-b', 'rect-a']);

    // Each instance saves its own copy; the stored document holds what both took, in either order.
    await pair.b.t.app.collaboration.flush();
    await pair.a.t.app.collaboration.flush();
    const stored = await createCollaborationRepository(pair.db.db).load(m.id);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, stored!.state);
    expect(Object.keys(doc.getMap('whiteboard').toJSON()).sort()).toEqual(['line-b', 'rect-a']);
    doc.destroy();
  });
});
