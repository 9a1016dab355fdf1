import * as Y from 'yjs';
import { COLLABORATION_LIMITS, clientMessageSchema } from '@parley/protocol';
import { simpleParser } from 'mailparser';
import * as ical from 'node-ical';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema/index.js';
import { createTestApp, makePro, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import { enter, listen } from '../ws-client.js';

/**
 * Security review, item 9: a host name containing `"` rewrote the ORGANIZER of the `.ics`
 * (ical-generator writes `\"`, which RFC 5545 does not have), and a 20,000-level nested
 * `collaboration_update` passed validation and then failed in JSON.stringify, once per frame.
 */
let t: TestContext;
let ws: string;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://meet.example.com' });
  ({ ws } = await listen(t));
});
afterAll(async () => t?.close());

describe('the organizer of the calendar invitation', () => {
  it('stays the host when the host name carries quotes and parameters', async () => {
    const host = await signIn(t, {
      email: 'eve@example.com',
      firstName: 'Eve" :mailto:boss@corp.example;X-FAKE="',
      lastName: null,
    });
    await makePro(t, host.userId);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/meetings',
      headers: { cookie: host.cookie },
      payload: {
        meetingType: 'scheduled',
        title: 'Budget',
        hostEmail: 'eve@example.com',
        scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
        duration: 30,
        timezone: 'UTC',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/meetings/invitations',
      headers: { cookie: host.cookie },
      payload: {
        meetingId: created.json().meetingId,
        invitees: [{ email: 'ann@example.com', name: 'Ann "the boss" <ceo@corp.example>' }],
      },
    });
    expect(res.statusCode, res.body).toBe(200);

    await t.app.jobs.idle(); // mail goes out through the job queue
    const [mail] = await t.db.db.select().from(mailOutbox);
    const parsed = await simpleParser(mail!.raw);
    const text = parsed.attachments.find((a) => a.contentType === 'text/calendar')!.content.toString('utf8');
    // node-ical, a parser outside our code, reads the organizer and the attendee as intended.
    const event = Object.values(ical.sync.parseICS(text)).find((e) => e?.type === 'VEVENT') as ical.VEvent;
    const organizer = event.organizer as unknown as { val: string; params: Record<string, string> };
    expect(organizer.val.toLowerCase()).toBe('mailto:eve@example.com');
    // The whole name is the one quoted CN; node-ical itself splits quoted values at `;`, so the
    // exact line is checked too.
    const unfolded = text.replace(/\r\n[ \t]/g, '');
    expect(unfolded).toContain(
      `ORGANIZER;CN="Eve' :mailto:boss@corp[.]example;X-FAKE='":mailto:eve@example.com\r\n`,
    );
    const attendee = event.attendee as unknown as { val: string; params: Record<string, string> };
    expect(attendee.val.toLowerCase()).toBe('mailto:ann@example.com');
    // No quote inside a quoted parameter value: every CN is one quoted string.
    for (const line of text
      .replace(/\r\n[ \t]/g, '')
      .split('\r\n')
      .filter((l) => /^(ORGANIZER|ATTENDEE)/.test(l))) {
      expect(line).toMatch(/CN="[^"]*"[;:]/);
      expect(line).not.toContain('\\"');
    }
  });
});

describe('a deeply nested collaboration_update', () => {
  const deepFrame = (levels: number) =>
    `{"type":"collaboration_update","data":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}}`;

  it('is refused as bad_message at the schema, and the room goes on', async () => {
    const { userId } = await signIn(t, { email: 'room-host@example.com', firstName: 'Rho' });
    const m = await createMeeting(t, { hostId: userId });
    const sender = await enter(t, ws, m.meetingId, { name: 'Sender' });
    const peer = await enter(t, ws, m.meetingId, { name: 'Peer' });
    await sender.socket.next('participant_joined');

    const frame = deepFrame(20_000);
    expect(frame.length).toBeLessThan(64 * 1024); // it fits in one frame: the frame limit alone let it in
    for (let i = 0; i < 5; i++) sender.socket.send(frame);
    for (let i = 0; i < 5; i++) {
      const error = await sender.socket.next('error');
      expect(error.code).toBe('bad_message');
      expect(error.message).toContain(`nest at most ${COLLABORATION_LIMITS.maxDepth} levels`);
    }
    // A whiteboard stroke (a real Yjs update) still goes through, and the peer never saw the deep one.
    const doc = new Y.Doc();
    doc.getMap('whiteboard').set('stroke-1', { points: [1, 2, 3, 4], color: '#f00' });
    const stroke = Buffer.from(Y.encodeStateAsUpdate(doc)).toString('base64');
    sender.socket.send({ type: 'collaboration_update', data: { kind: 'update', update: stroke } });
    const update = await peer.socket.next('collaboration_update');
    expect(update.data).toMatchObject({ kind: 'update' });
    const seen = new Y.Doc();
    Y.applyUpdate(seen, Buffer.from((update.data as { update: string }).update, 'base64'));
    expect(seen.getMap('whiteboard').get('stroke-1')).toEqual({ points: [1, 2, 3, 4], color: '#f00' });
    expect(peer.socket.received.filter((x) => x.type === 'collaboration_update')).toHaveLength(1);
    sender.socket.close();
    peer.socket.close();
  });

  it('is bounded by depth and by serialized size in the shared schema', () => {
    const parse = (text: string) => clientMessageSchema.safeParse(JSON.parse(text));
    expect(parse(deepFrame(COLLABORATION_LIMITS.maxDepth - 1)).success).toBe(true);
    expect(parse(deepFrame(COLLABORATION_LIMITS.maxDepth)).success).toBe(false);
    const big = { type: 'collaboration_update', data: { text: 'x'.repeat(COLLABORATION_LIMITS.maxBytes) } };
    expect(clientMessageSchema.safeParse(big).success).toBe(false);
  });
});
