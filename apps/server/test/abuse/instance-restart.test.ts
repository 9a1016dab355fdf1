import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { meetings } from '../../src/db/schema/index.js';
import { ROOM_HEARTBEAT } from '../../src/modules/rooms/plugin.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting, meetingStatus } from '../meetings.js';
import { enter, listen, type TestSocket } from '../ws-client.js';

/**
 * Security review, item 10 (restart): every instance finished every `live` meeting at its
 * start-up, so starting a second instance on the same database ended the meetings the first one
 * was running. Now a live meeting records the instance holding its room and a heartbeat, and
 * only meetings whose instance stopped beating are finished.
 */
const saved = { ...ROOM_HEARTBEAT };
let t: TestContext;
let ws: string;
let host: { cookie: string; userId: string };
const sockets: TestSocket[] = [];
const others: App[] = [];

beforeAll(async () => {
  ROOM_HEARTBEAT.everyMs = 100;
  t = await createTestApp();
  ws = (await listen(t)).ws;
  host = await signIn(t, { email: 'host@example.com', firstName: 'Hana' });
});
afterAll(async () => {
  for (const s of sockets) s.close();
  for (const app of others) await app.close();
  await t?.close();
  Object.assign(ROOM_HEARTBEAT, saved);
});

const row = async (id: string) => (await t.db.db.select().from(meetings).where(eq(meetings.id, id)))[0]!;

describe('a second instance starting on the same database', () => {
  it('leaves the meetings the first instance is running live, and they keep working', async () => {
    const m = await createMeeting(t, { hostId: host.userId, meetingType: 'scheduled' });
    const h = await enter(t, ws, m.meetingId, { name: 'Hana', isHost: true, cookie: host.cookie });
    sockets.push(h.socket);
    await expect.poll(() => meetingStatus(t, m.id)).toBe('live');
    const claimed = await row(m.id);
    expect(claimed.liveInstance).toEqual(expect.any(String));
    // The first instance keeps beating.
    await expect
      .poll(async () => (await row(m.id)).liveHeartbeatAt!.getTime())
      .toBeGreaterThan(claimed.liveHeartbeatAt!.getTime());

    const second = await buildApp(t.config, { db: t.db });
    others.push(second);
    await second.ready();
    expect(await meetingStatus(t, m.id)).toBe('live');
    // The first instance's room is untouched: a guest still joins it there.
    const guest = await enter(t, ws, m.meetingId, { name: 'Gus' });
    sockets.push(guest.socket);
    expect(guest.joined?.participants.map((p) => p.name)).toContain('Hana');
  });

  it('finishes the meetings of an instance that stopped beating (crashed)', async () => {
    const instant = await createMeeting(t, { hostId: host.userId });
    const scheduled = await createMeeting(t, {
      hostId: host.userId,
      meetingType: 'scheduled',
      status: 'live',
    });
    const long = new Date(Date.now() - ROOM_HEARTBEAT.staleMs - 60_000);
    for (const id of [instant.id, scheduled.id]) {
      await t.db.db
        .update(meetings)
        .set({ liveInstance: 'crashed-instance', liveHeartbeatAt: long })
        .where(eq(meetings.id, id));
    }
    const third = await buildApp(t.config, { db: t.db });
    others.push(third);
    await third.ready();
    expect(await meetingStatus(t, instant.id)).toBe('ended');
    expect(await meetingStatus(t, scheduled.id)).toBe('scheduled');
  });

  it("an instance shutting down finishes its own meetings, not another's", async () => {
    const mine = await createMeeting(t, { hostId: host.userId });
    const theirs = await createMeeting(t, { hostId: host.userId });
    const fourth = await buildApp(t.config, { db: t.db });
    await fourth.ready();
    const address = await fourth.listen({ port: 0, host: '127.0.0.1' });
    const on4 = await enter({ ...t, app: fourth }, address.replace(/^http/, 'ws'), mine.meetingId, {
      name: 'Hana',
      isHost: true,
      cookie: host.cookie,
    });
    sockets.push(on4.socket);
    await expect.poll(async () => (await row(mine.id)).liveInstance).toEqual(expect.any(String));
    await t.db.db
      .update(meetings)
      .set({ liveInstance: 'another-running-instance', liveHeartbeatAt: new Date() })
      .where(eq(meetings.id, theirs.id));
    await fourth.close();
    expect(await meetingStatus(t, mine.id)).toBe('ended');
    expect(await meetingStatus(t, theirs.id)).toBe('live');
  });
});
