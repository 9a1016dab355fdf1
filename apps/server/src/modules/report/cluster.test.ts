/**
 * Attendance with one meeting across two server instances (REDIS_URL): each instance keeps the
 * entries of the sockets it holds, and hears the room's events whichever instance emitted them.
 */
import { describe, expect, it } from 'vitest';
import { redisReachable, redisRequired, twoInstances } from '../../../test/instances.js';
import { createMeeting } from '../../../test/meetings.js';
import { connect, enter } from '../../../test/ws-client.js';
import { createReportRepository } from './repository.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!redisReachable && !redisRequired)('attendance across two instances', () => {
  const pair = twoInstances('report');

  /** The meeting's rows once both instances' writes are done. */
  async function rows(meetingId: string) {
    await Promise.all([pair.a.t.app.attendance.settled(), pair.b.t.app.attendance.settled()]);
    return (await createReportRepository(pair.db.db).attendance(meetingId)).map((r) => ({
      name: r.name,
      open: r.leftAt === null,
    }));
  }

  async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const value = await read();
      if (ok(value) || Date.now() > deadline) return value;
      await sleep(50);
    }
  }

  it('keeps one row for a participant who moves to the other instance, and closes it when it leaves', async () => {
    const m = await createMeeting(pair.a.t, { hostId: pair.hostId });
    const ann = await enter(pair.a.t, pair.a.ws, m.meetingId, { name: 'Ann' });
    const bob = await enter(pair.b.t, pair.b.ws, m.meetingId, { name: 'Bob' });
    pair.opened.push(ann.socket, bob.socket);
    expect(
      await until(
        () => rows(m.id),
        (r) => r.length === 2,
      ),
    ).toEqual([
      { name: 'Ann', open: true },
      { name: 'Bob', open: true },
    ]);

    // Bob's connection to B drops; his client comes back through A as himself.
    bob.socket.drop();
    await until(
      () => rows(m.id),
      (r) => r.some((x) => x.name === 'Bob' && !x.open),
    );
    const back = await connect(pair.a.ws, m.meetingId, { name: 'Bob' });
    pair.opened.push(back);
    back.send({ type: 'join_meeting', joinToken: bob.join.joinToken });
    expect((await back.next('joined')).self.id).toBe(bob.join.id);
    expect(
      await until(
        () => rows(m.id),
        (r) => r.every((x) => x.open),
      ),
    ).toEqual([
      { name: 'Ann', open: true },
      { name: 'Bob', open: true },
    ]);

    // Bob leaves through A; Ann, on A, leaves too: every row is closed, still one each.
    back.send({ type: 'leave_meeting' });
    ann.socket.send({ type: 'leave_meeting' });
    expect(
      await until(
        () => rows(m.id),
        (r) => r.every((x) => !x.open),
      ),
    ).toEqual([
      { name: 'Ann', open: false },
      { name: 'Bob', open: false },
    ]);
  });

  it('closes the row of someone whose instance is gone when the room says it left', async () => {
    const m = await createMeeting(pair.a.t, { hostId: pair.hostId });
    // A row left open by an instance that crashed: no instance holds an entry for it.
    const repo = createReportRepository(pair.db.db);
    await repo.openAttendance({
      meetingId: m.id,
      participantId: 'gone-with-its-instance',
      name: 'Cy',
      isHost: false,
      joinedAt: new Date(),
    });
    expect(await rows(m.id)).toEqual([{ name: 'Cy', open: true }]);
    // The presence sweep says Cy left (participant_left): whichever instance hears it closes it.
    await pair.b.t.app.attendance.gone('gone-with-its-instance', m.id);
    expect(await rows(m.id)).toEqual([{ name: 'Cy', open: false }]);
  });
});
