import { inArray } from 'drizzle-orm';
import * as Y from 'yjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetings } from '../../src/db/schema/index.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { Client } from '../collab-client.js';
import { createMeeting } from '../meetings.js';
import { enter, listen } from '../ws-client.js';

/**
 * Security review (issue 34, item 9): notes, whiteboards and attendance were never deleted by the
 * 30-day retention job, so a meeting's notes and who was there outlived everything else. Now the
 * job deletes every artefact of a meeting that ended more than 30 days ago, and the host's Save
 * keeps all of them.
 */
const DAY = 86_400_000;
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp();
  ({ ws } = await listen(t));
  host = await signIn(t, { email: 'retention-host@example.com', firstName: 'Hana' });
});
afterAll(async () => t?.close());

/** A meeting where Hana hosts, Gus writes the notes and draws, and both leave. */
async function heldMeeting(title: string) {
  const m = await createMeeting(t, { hostId: host.userId, title });
  const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
  const g = await enter(t, ws, m.meetingId, { name: 'Gus' });
  const gus = new Client(g.socket);
  await gus.sync();
  const p = new Y.XmlElement('paragraph');
  p.insert(0, [new Y.XmlText(`Notes of ${title}`)]);
  gus.doc.getXmlFragment('notes').insert(0, [p]);
  gus.board.set('rect-1', { id: 'rect-1', type: 'rectangle', version: 1 });
  await g.socket.sync();
  for (const s of [g.socket, h.socket]) {
    s.send({ type: 'leave_meeting' });
    await s.closed;
  }
  await t.app.attendance.settled();
  await t.app.collaboration.flush();
  return m;
}

const get = (url: string) => t.app.inject({ url, headers: { cookie: host.cookie } });

describe('retention covers every meeting artefact', () => {
  it('deletes the notes, whiteboard and attendance of an old meeting; Save keeps them', async () => {
    const kept = await heldMeeting('Kept review');
    const gone = await heldMeeting('Old review');
    for (const m of [kept, gone]) {
      expect((await get(`/api/meetings/${m.meetingId}/notes`)).json<{ text: string }>().text).toContain(
        'Notes of',
      );
      expect(
        (await get(`/api/meetings/${m.meetingId}/report`)).json<{ attendance: unknown[] }>().attendance,
      ).toHaveLength(2);
    }
    const save = await t.app.inject({
      method: 'PUT',
      url: `/api/meetings/${kept.meetingId}/retention`,
      headers: { cookie: host.cookie },
      payload: { keep: true },
    });
    expect(save.json()).toEqual({ keep: true });

    // Not yet due: ended 29 days ago, nothing goes.
    const endedAgo = (days: number) =>
      t.db.db
        .update(meetings)
        .set({ status: 'ended', updatedAt: new Date(Date.now() - days * DAY) })
        .where(inArray(meetings.id, [kept.id, gone.id]));
    await endedAgo(29);
    const early = await t.app.retention.runOnce(new Date());
    expect(early['notes and whiteboard']).toEqual({ meetings: 0, items: 0, failed: 0 });
    expect(early.attendance).toEqual({ meetings: 0, items: 0, failed: 0 });

    await endedAgo(31);
    const run = await t.app.retention.runOnce(new Date());
    expect(run['notes and whiteboard']).toEqual({ meetings: 1, items: 1, failed: 0 });
    expect(run.attendance).toEqual({ meetings: 1, items: 2, failed: 0 });

    const notes = (id: string) => get(`/api/meetings/${id}/notes`).then((r) => r.json<{ text: string }>());
    expect((await notes(gone.meetingId)).text).toBe('');
    expect((await notes(kept.meetingId)).text).toBe('Notes of Kept review');
    const attendance = (id: string) =>
      get(`/api/meetings/${id}/report`).then((r) => r.json<{ attendance: unknown[] }>().attendance);
    expect(await attendance(gone.meetingId)).toEqual([]);
    expect(await attendance(kept.meetingId)).toHaveLength(2);

    // A second run finds nothing more to delete.
    const again = await t.app.retention.runOnce(new Date());
    expect(again['notes and whiteboard']?.meetings).toBe(0);
    expect(again.attendance?.meetings).toBe(0);
  });
});
