import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RECORDING_LIMIT_TEXTS, type RecordingState, type ServerMessage } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { meetingAttendance, recordings, type MeetingRow } from '../../src/db/schema/index.js';
import { createRecordingsRepository } from '../../src/modules/recordings/repository.js';
import { createRecordingsService, type RecordingMedia } from '../../src/modules/recordings/service.js';
import type { RoomState } from '../../src/modules/rooms/state.js';
import { createTestApp, signIn, type TestContext } from '../app.js';
import { createMeeting } from '../meetings.js';
import {
  RECORDING_FIXTURES,
  fixturesStartedAt,
  recordingTools,
  recordingToolsInstalled,
  videoSizeOf,
} from '../recording-fixtures.js';

/**
 * Issue 34 item 9, "everything has an end", for recordings: one recording is at most
 * RECORDING_MAX_MINUTES long and a host's recordings at most RECORDING_QUOTA_PER_HOST_MB, the
 * room is told before either ends it, and processing runs in bounded jobs so one long recording
 * cannot hold the queue. Janus is stood in for by a folder the test writes raw streams into (the
 * real Janus path is e2e/tests/recording.spec.ts); the database, the files and the tools are real.
 */

const FIXTURES = RECORDING_FIXTURES;
const tools = recordingTools;
const toolsInstalled = recordingToolsInstalled;

let t: TestContext;
let host: { cookie: string; userId: string };

beforeAll(async () => {
  t = await createTestApp();
  host = await signIn(t, { email: 'rec-limits@example.com', firstName: 'Lena' });
});
afterAll(async () => {
  await t?.close();
});

async function until<T>(fn: () => T | Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A recordings service for one meeting, with Janus replaced by a folder of raw streams. */
function setUp(
  meeting: MeetingRow,
  limits: { maxMs: number; hostQuotaBytes: number; segmentMs: number },
  dir = mkdtempSync(path.join(os.tmpdir(), 'parley-rec-limits-')),
) {
  const rawDir = path.join(dir, 'raw');
  mkdirSync(rawDir, { recursive: true });
  const published: RecordingState[] = [];
  const queued: { recordingId: string; step: number }[] = [];
  const room = {
    id: meeting.id,
    meeting: { id: meeting.id, meetingId: meeting.meetingId, hostId: meeting.hostId, ephemeral: false },
    members: new Map([['h', { id: 'h', isHost: true, admission: 'admitted' }]]),
    ended: false,
  } as unknown as RoomState;
  const media: RecordingMedia = {
    canRecord: () => true,
    recordingDir: rawDir,
    moveToSfu: async () => true,
    startRecording: async () => undefined,
    stopRecording: async () => undefined,
  };
  const service = createRecordingsService({
    repo: createRecordingsRepository(t.db.db),
    media,
    admitted: async () => ({ room, member: { isHost: true, id: 'h' } }),
    isPro: async () => true,
    room: async () => room,
    publish: (_roomId, _to, message: ServerMessage) => {
      if (message.type === 'recording_state') published.push(message.recording);
    },
    enqueue: async (recordingId, step) => {
      queued.push({ recordingId, step });
    },
    limits,
    checkEveryMs: 50,
    dir: path.join(dir, 'files'),
    tools,
    missingTools: [],
    log: t.app.log,
  });
  const actor = { roomId: meeting.id, participantId: 'h' };
  return { service, published, queued, rawDir, dir, actor, room };
}

const rowOf = async (meetingId: string) =>
  (await t.db.db.select().from(recordings).where(eq(recordings.meetingId, meetingId)))[0];

describe('a recording has an end', () => {
  it('warns the room before the length limit, then stops and processes what it has', async () => {
    const meeting = await createMeeting(t, { hostId: host.userId, title: 'Long talk' });
    const { service, published, queued, actor } = setUp(meeting, {
      maxMs: 1_500,
      hostQuotaBytes: 1024 ** 3,
      segmentMs: 600_000,
    });
    expect(await service.setRecording(actor, true)).toBe(true);
    const started = published.at(-1)!;
    expect(started.active).toBe(true);
    // Everyone sees when it will stop.
    expect(Date.parse(started.stopsAt!) - Date.parse(started.startedAt!)).toBe(1_500);

    const warned = await until(
      () => published.at(-1)!,
      (s) => s.limitNotice !== null,
    );
    expect(warned.active).toBe(true);
    expect(warned.limitNotice).toBe(RECORDING_LIMIT_TEXTS.lengthSoon(500, 1_500));
    expect(warned.limitNotice).toBe('Recording stops in 1 second: recordings are limited to 2 seconds');

    const stopped = await until(
      () => published.at(-1)!,
      (s) => !s.active,
    );
    expect(stopped.limitNotice).toBe(RECORDING_LIMIT_TEXTS.lengthReached(1_500));
    const row = await rowOf(meeting.id);
    expect(row?.status).toBe('processing');
    expect(row!.endedAt!.getTime() - row!.startedAt.getTime()).toBeGreaterThanOrEqual(1_400);
    expect(queued).toEqual([{ recordingId: row!.id, step: 0 }]);
    // The host may start a new one, which says nothing of the old limit.
    expect(await service.setRecording(actor, true)).toBe(true);
    expect(published.at(-1)).toMatchObject({ active: true, limitNotice: null });
    await service.setRecording(actor, false);
  });

  it('stops at the host’s storage, counts unfinished recordings, and a deleted one frees it', async () => {
    const meeting = await createMeeting(t, { hostId: host.userId, title: 'Storage' });
    const MB = 1024 * 1024;
    // An earlier, finished recording of 0.5 MB (the host's only one so far).
    const [earlier] = await t.db.db
      .insert(recordings)
      .values({
        meetingId: meeting.id,
        startedBy: 'h',
        startedAt: new Date(Date.now() - 3_600_000),
        endedAt: new Date(Date.now() - 3_000_000),
        status: 'ready',
        size: MB / 2,
        filePath: path.join(meeting.id, 'earlier.mp4'),
      })
      .returning();
    const { service, published, rawDir, actor } = setUp(meeting, {
      maxMs: 3_600_000,
      hostQuotaBytes: MB,
      segmentMs: 600_000,
    });
    expect(await service.setRecording(actor, true)).toBe(true);
    const id = (
      await rowOf(meeting.id).then(() =>
        t.db.db.select().from(recordings).where(eq(recordings.status, 'recording')),
      )
    )[0]!.id;
    // Janus writes: past 90% of the quota the room is warned, at 100% it stops.
    const raw = path.join(rawDir, `${id}-001-ph-audio-0.mjr`);
    writeFileSync(raw, Buffer.alloc(0.42 * MB));
    const soon = await until(
      () => published.at(-1)!,
      (s) => s.limitNotice !== null,
    );
    expect(soon).toMatchObject({ active: true, limitNotice: RECORDING_LIMIT_TEXTS.storageSoon });
    appendFileSync(raw, Buffer.alloc(0.1 * MB));
    const full = await until(
      () => published.at(-1)!,
      (s) => !s.active,
    );
    expect(full.limitNotice).toBe(RECORDING_LIMIT_TEXTS.storageReached);

    // Starting again is refused: the stopped recording's raw streams still count while it waits
    // for processing (start, stop and start again does not escape the quota).
    await expect(service.setRecording(actor, true)).rejects.toMatchObject({
      statusCode: 409,
      message: RECORDING_LIMIT_TEXTS.storageFull(1),
    });
    expect(RECORDING_LIMIT_TEXTS.storageFull(1)).toBe(
      'Your recordings use all of the 1 MB this server keeps per host. Delete recordings you no longer need in My Meetings.',
    );

    // The host deletes the earlier one through the running server: there is room again.
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/recordings/${earlier!.id}`,
      headers: { cookie: host.cookie },
    });
    expect(del.statusCode).toBe(204);
    expect(await service.setRecording(actor, true)).toBe(true);
    await service.setRecording(actor, false);
  });

  it('deleting: only the host, never while it records, unknown ids 404, bad ids 400', async () => {
    const stranger = await signIn(t, { email: 'rec-limits-stranger@example.com' });
    const meeting = await createMeeting(t, { hostId: host.userId });
    const [live] = await t.db.db
      .insert(recordings)
      .values({ meetingId: meeting.id, startedBy: 'h', startedAt: new Date(), status: 'recording' })
      .returning();
    const del = (id: string, cookie?: string) =>
      t.app.inject({ method: 'DELETE', url: `/api/recordings/${id}`, headers: cookie ? { cookie } : {} });
    expect((await del(live!.id, stranger.cookie)).statusCode).toBe(403);
    const recording = await del(live!.id, host.cookie);
    expect(recording.statusCode).toBe(409);
    expect(recording.json<{ message: string }>().message).toBe(
      'Stop the recording in the meeting before deleting it',
    );
    expect((await del(crypto.randomUUID(), host.cookie)).statusCode).toBe(404);
    expect((await del('nope', host.cookie)).statusCode).toBe(400);
    expect((await del(live!.id)).statusCode).toBe(401);
  });
});

describe.skipIf(!toolsInstalled)('processing runs in bounded jobs', () => {
  it('encodes segments as separate jobs, another recording’s jobs run between, names on tiles', async () => {
    const meeting = await createMeeting(t, { hostId: host.userId, title: 'Two recordings' });
    const env = setUp(meeting, { maxMs: 3_600_000, hostQuotaBytes: 1024 ** 3, segmentMs: 3_000 });
    const { service, queued, rawDir } = env;
    // Two finished recordings of 8 s each, with the streams Janus wrote (the fixtures).
    const startedAt = await fixturesStartedAt();
    const ids: string[] = [];
    for (let k = 0; k < 2; k++) {
      const [row] = await t.db.db
        .insert(recordings)
        .values({
          meetingId: meeting.id,
          startedBy: 'h',
          startedAt,
          endedAt: new Date(startedAt.getTime() + 8_000),
          status: 'processing',
        })
        .returning();
      ids.push(row!.id);
      for (const f of readdirSync(FIXTURES))
        copyFileSync(path.join(FIXTURES, f), path.join(rawDir, f.replace(/^rec-/, `${row!.id}-`)));
    }
    await t.db.db.insert(meetingAttendance).values({
      meetingId: meeting.id,
      participantId: 'b7b32816-57fa-43d1-8885-cdca35844795',
      name: 'Gus Guest',
      joinedAt: startedAt,
    });

    // The queue, first in first out, as pg-boss serves one queue: both recordings were queued.
    const order: string[] = [];
    queued.push({ recordingId: ids[0]!, step: 0 }, { recordingId: ids[1]!, step: 0 });
    while (queued.length > 0) {
      const job = queued.shift()!;
      order.push(`${ids.indexOf(job.recordingId) === 0 ? 'A' : 'B'}${job.step}`);
      await service.process(job.recordingId, job.step, true);
    }
    // Each recording's 8 s is 3 segments of at most 3 s, each its own job, taking turns.
    expect(order).toEqual(['A0', 'B0', 'A1', 'B1', 'A2', 'B2', 'A3', 'B3']);
    for (const id of ids) {
      const [row] = await t.db.db.select().from(recordings).where(eq(recordings.id, id));
      expect(row).toMatchObject({ status: 'ready', error: null });
      expect(Math.abs(row!.durationMs! - 8_000)).toBeLessThan(400);
      const file = path.join(env.dir, 'files', row!.filePath!);
      expect(videoSizeOf(file)).toBe('1280x720');
      // The work folder and the raw streams are gone once the file is made.
      expect(existsSync(path.join(env.dir, 'files', meeting.id, `${id}.parts`))).toBe(false);
      expect(readdirSync(rawDir).filter((f) => f.startsWith(id))).toEqual([]);
    }
  }, 120_000);

  it('a failure on the last try marks the recording failed with the reason and clears its work', async () => {
    const meeting = await createMeeting(t, { hostId: host.userId });
    const { service } = setUp(meeting, { maxMs: 3_600_000, hostQuotaBytes: 1024 ** 3, segmentMs: 3_000 });
    const [row] = await t.db.db
      .insert(recordings)
      .values({
        meetingId: meeting.id,
        startedBy: 'h',
        startedAt: new Date(Date.now() - 5_000),
        endedAt: new Date(),
        status: 'processing',
      })
      .returning();
    // Not the last try: it throws, so the queue retries it.
    await expect(service.process(row!.id, 0, false)).rejects.toThrow('Janus wrote no media');
    await service.process(row!.id, 0, true);
    const [after] = await t.db.db.select().from(recordings).where(eq(recordings.id, row!.id));
    expect(after).toMatchObject({ status: 'failed', error: 'Janus wrote no media for this recording' });
  });
});
