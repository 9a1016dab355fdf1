import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RECORDING_TEXTS } from '@parley/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, makePro, signIn, type TestContext } from '../../../test/app.js';
import { createMeeting } from '../../../test/meetings.js';
import { enter, listen } from '../../../test/ws-client.js';
import {
  RECORDING_FIXTURES,
  fixturesStartedAt,
  recordingTools,
  recordingToolsInstalled,
  videoSizeOf,
} from '../../../test/recording-fixtures.js';
import { meetings, recordings } from '../../db/schema/index.js';
import {
  NAME_FONT,
  encodeSegment,
  ffmpegArgs,
  gridOf,
  participantOf,
  processRecording,
  readMjrHeader,
  segmentsOf,
} from './process.js';

const FIXTURES = RECORDING_FIXTURES;
const tools = recordingTools;
const toolsInstalled = recordingToolsInstalled;
const sizeOf = videoSizeOf;

describe.skipIf(!toolsInstalled)('post-processing real Janus recordings', () => {
  // test/fixtures/recording: .mjr files Janus 1.1.2 wrote in e2e/tests/recording.spec.ts (the
  // recording id replaced by `rec`): one person's audio (about 20 s), and a second person's
  // first, short connection (audio and video) before a reload.
  it('reads the header Janus wrote: kind, codec and the first packet’s time', async () => {
    const video = readdirSync(FIXTURES).find((f) => f.endsWith('-video-1.mjr'))!;
    const h = await readMjrHeader(tools, path.join(FIXTURES, video));
    expect(h.kind).toBe('video');
    expect(h.codec).toBe('vp8');
    expect(h.firstPacketUs).toBeGreaterThan(1.7e15);
    expect(participantOf(video)).toBe('b7b32816-57fa-43d1-8885-cdca35844795');
  });

  it('makes one file of the recorded length, with one audio and one video stream', async () => {
    const startedAt = await fixturesStartedAt();
    const endedAt = new Date(startedAt.getTime() + 8_000);
    const outFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-rec-test-')), 'out.mp4');
    const result = await processRecording({
      rawDir: FIXTURES,
      name: 'rec',
      outFile,
      startedAt,
      endedAt,
      tools,
    });
    expect(result.streams).toEqual({ audio: 2, video: 1 });
    expect(Math.abs(result.durationMs - 8_000)).toBeLessThan(400);
    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', outFile],
      { encoding: 'utf8' },
    );
    expect(probe.stdout.trim().split('\n').sort()).toEqual(['audio', 'video']);
    expect(sizeOf(outFile)).toBe('1280x720');
    // The fixtures stay (the job removes raw files only after a success of its own).
    expect(readdirSync(FIXTURES)).toHaveLength(3);
  }, 60_000);

  it('makes the same file from bounded segments joined together, with names on the tiles', async () => {
    const startedAt = await fixturesStartedAt();
    const endedAt = new Date(startedAt.getTime() + 8_000);
    const outFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'parley-rec-test-')), 'out.mp4');
    const video = readdirSync(FIXTURES).find((f) => f.endsWith('-video-1.mjr'))!;
    const result = await processRecording({
      rawDir: FIXTURES,
      name: 'rec',
      outFile,
      startedAt,
      endedAt,
      tools,
      // Three jobs' worth: 3 s, 3 s and 2 s.
      segmentMs: 3_000,
      names: new Map([[participantOf(video), 'Gus Guest']]),
      fontFile: NAME_FONT,
    });
    expect(Math.abs(result.durationMs - 8_000)).toBeLessThan(400);
    expect(sizeOf(outFile)).toBe('1280x720');
    const packets = spawnSync(
      'ffprobe',
      ['-v', 'error', '-select_streams', 'a', '-show_entries', 'format=duration', '-of', 'csv=p=0', outFile],
      { encoding: 'utf8' },
    );
    expect(Math.abs(Number(packets.stdout.trim()) * 1000 - 8_000)).toBeLessThan(400);
  }, 90_000);

  it('fails with a reason when Janus wrote nothing for the recording', async () => {
    const outFile = path.join(os.tmpdir(), 'parley-never.mp4');
    await expect(
      processRecording({
        rawDir: FIXTURES,
        name: 'no-such-recording',
        outFile,
        startedAt: new Date(),
        endedAt: new Date(Date.now() + 1000),
        tools,
      }),
    ).rejects.toThrow('Janus wrote no media');
  });
});

const ffmpegInstalled = !spawnSync('ffmpeg', ['-version'], { stdio: 'ignore' }).error;

describe.skipIf(!ffmpegInstalled)('the speaker view, encoded by ffmpeg', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-speaker-view-'));
  /** A 6 s camera of one colour (VP8 WebM, as janus-pp-rec makes them). */
  const camera = (colour: string) => {
    const file = path.join(dir, `${colour}.webm`);
    const r = spawnSync('ffmpeg', [
      ...['-hide_banner', '-nostdin', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=640x360:r=15:d=6`],
      ...['-c:v', 'libvpx', '-b:v', '300k', file],
    ]);
    expect(r.status).toBe(0);
    return { file, kind: 'video' as const, participant: colour, offsetMs: 0, durationMs: 6000 };
  };
  /** The RGB of a pixel of the file's frame at `seconds`. */
  const pixel = (file: string, seconds: number, x: number, y: number): number[] => {
    const r = spawnSync(
      'ffmpeg',
      [
        '-v',
        'error',
        '-ss',
        String(seconds),
        '-i',
        file,
        '-frames:v',
        '1',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ],
      { maxBuffer: 8_000_000 },
    );
    const at = (y * 1280 + x) * 3;
    return [...r.stdout.subarray(at, at + 3)];
  };
  const isRed = ([r, g, b]: number[]) => r! > 180 && g! < 70 && b! < 70;
  const isBlue = ([r, g, b]: number[]) => b! > 180 && r! < 70 && g! < 70;
  // The stage's centre (960x540 at 0,90), and the two thumbnails' (320x180 at 960,180 and 960,360).
  const stage = [480, 360] as const;
  const thumbs = [
    [1120, 270],
    [1120, 450],
  ] as const;

  it('puts the speaker on the stage, switching when the other speaks, with both in the filmstrip', async () => {
    const prepared = {
      tracks: [camera('red'), camera('blue')],
      totalMs: 6000,
      problems: [],
      // Red speaks first, blue from 3 s (as the recording's speaker timeline says).
      speakers: [
        { participant: 'red', atMs: 0 },
        { participant: 'blue', atMs: 3000 },
      ],
    };
    const names = new Map([
      ['red', path.join(dir, 'red.txt')],
      ['blue', path.join(dir, 'blue.txt')],
    ]);
    writeFileSync(names.get('red')!, 'Rita Red');
    writeFileSync(names.get('blue')!, 'Bo Blue');
    const whole = path.join(dir, 'whole.mp4');
    await encodeSegment(prepared, { fromMs: 0, toMs: 6000 }, whole, tools, {
      nameFiles: names,
      fontFile: existsSync(NAME_FONT) ? NAME_FONT : null,
    });
    expect(sizeOf(whole)).toBe('1280x720');
    expect(isRed(pixel(whole, 1.5, ...stage))).toBe(true);
    expect(isBlue(pixel(whole, 4.5, ...stage))).toBe(true);
    for (const t of [1.5, 4.5]) {
      expect(isRed(pixel(whole, t, ...thumbs[0]))).toBe(true);
      expect(isBlue(pixel(whole, t, ...thumbs[1]))).toBe(true);
    }
    // A later segment: its times start at its window's start (red until 1 s into it, then blue).
    const later = path.join(dir, 'later.mp4');
    await encodeSegment(prepared, { fromMs: 2000, toMs: 6000 }, later, tools);
    expect(isRed(pixel(later, 0.5, ...stage))).toBe(true);
    expect(isBlue(pixel(later, 2.5, ...stage))).toBe(true);
    expect(isRed(pixel(later, 2.5, ...thumbs[0]))).toBe(true);
  }, 90_000);
});

describe('the mix ffmpeg is asked for', () => {
  const at = (participant: string, kind: 'audio' | 'video', offsetMs: number) => ({
    file: `${participant}-${kind}-${offsetMs}`,
    kind,
    participant,
    offsetMs,
  });

  it('delays each voice to its start, mixes them, and keeps one grid cell per person', () => {
    const args = ffmpegArgs(
      [
        at('ann', 'audio', 0),
        at('bob', 'audio', 1500),
        at('ann', 'video', 20),
        at('bob', 'video', 1600),
        at('bob', 'video', 9000),
      ],
      12_000,
      'out.mp4',
    );
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph).toContain('adelay=1500:all=1');
    expect(graph).toContain('amix=inputs=2');
    // Bob's second connection (a reload) lands in his own cell at 9 s: two cells, not three,
    // side by side in the 1280x720 frame.
    expect(graph.match(/\[c\d+b\]/g)?.filter((_, k, a) => a.indexOf(_) === k)).toHaveLength(2);
    expect(graph).toContain('overlay=x=0:y=180');
    expect(graph).toContain('overlay=x=640:y=180');
    expect(graph).toContain('setpts=PTS-STARTPTS+9.000/TB');
    expect(args[args.indexOf('-t') + 1]).toBe('12.000');
  });

  it('encodes a window of the timeline: tracks before it are read from its start, later ones wait', () => {
    const tracks = [
      { ...at('ann', 'audio', 0), durationMs: 700_000 },
      { ...at('bob', 'audio', 650_000), durationMs: 10_000 },
      { ...at('cat', 'audio', 0), durationMs: 60_000 },
      { ...at('ann', 'video', 0), durationMs: 700_000 },
    ];
    const args = ffmpegArgs(tracks, 700_000, 'o.mp4', { fromMs: 600_000, toMs: 700_000 });
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    // Ann's streams are read from 600 s on; Bob's voice starts 50 s into the window; Cat left
    // before it and is not read at all.
    expect(args.filter((a) => a === '-ss')).toHaveLength(2);
    expect(args[args.indexOf('-ss') + 1]).toBe('600.000');
    expect(args.filter((a) => a === '-i')).toHaveLength(3);
    expect(graph).toContain('adelay=50000:all=1');
    expect(args[args.indexOf('-t') + 1]).toBe('100.000');
  });

  it('splits the timeline into bounded segments, and fits the grid to 1280x720', () => {
    expect(segmentsOf(25 * 60_000, 10 * 60_000)).toEqual([
      { fromMs: 0, toMs: 600_000 },
      { fromMs: 600_000, toMs: 1_200_000 },
      { fromMs: 1_200_000, toMs: 1_500_000 },
    ]);
    // A sliver under a second joins the segment before it.
    expect(segmentsOf(20 * 60_000 + 400, 10 * 60_000)).toHaveLength(2);
    expect(gridOf(1)).toMatchObject({ cols: 1, rows: 1, cell: { w: 1280, h: 720 } });
    expect(gridOf(4)).toMatchObject({ cols: 2, rows: 2, cell: { w: 640, h: 360 } });
    for (let n = 1; n <= 9; n++) {
      const g = gridOf(n);
      expect(g.cols * g.rows).toBeGreaterThanOrEqual(n);
      expect(g.origin.x * 2 + g.cols * g.cell.w).toBeLessThanOrEqual(1280);
      expect(g.origin.y * 2 + g.rows * g.cell.h).toBeLessThanOrEqual(720);
    }
  });

  it('gives a recording without cameras a black picture, and without voices silence', () => {
    const graph = (a: string[]) => a[a.indexOf('-filter_complex') + 1]!;
    expect(graph(ffmpegArgs([at('ann', 'audio', 0)], 5000, 'o.mp4'))).toContain('color=c=black');
    expect(graph(ffmpegArgs([at('ann', 'video', 0)], 5000, 'o.mp4'))).toContain('anullsrc');
  });
});

describe('recordings for the host', () => {
  let t: TestContext;
  let ws: string;
  let owner: { cookie: string; userId: string };
  let stranger: { cookie: string; userId: string };
  let meetingRow: { id: string; meetingId: string };
  let ready: string;
  let processing: string;

  async function insertRecording(meetingId: string, status: 'ready' | 'processing') {
    const [row] = await t.db.db
      .insert(recordings)
      .values({ meetingId, startedBy: 'host', startedAt: new Date('2025-03-04T10:05:00Z'), status })
      .returning();
    if (status === 'ready') {
      const rel = path.join(meetingId, `${row!.id}.mp4`);
      mkdirSync(path.join(t.config.recordings.dir, meetingId), { recursive: true });
      writeFileSync(path.join(t.config.recordings.dir, rel), Buffer.alloc(2048, 7));
      await t.db.db
        .update(recordings)
        .set({ filePath: rel, size: 2048, durationMs: 61_000, endedAt: new Date('2025-03-04T10:06:01Z') })
        .where(eq(recordings.id, row!.id));
    }
    return row!.id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    ws = (await listen(t)).ws;
    owner = await signIn(t, { email: 'rec-owner@example.com', firstName: 'Rita' });
    // Recording is the host's Pro feature (spec §1).
    await makePro(t, owner.userId);
    stranger = await signIn(t, { email: 'rec-stranger@example.com', firstName: 'Sam' });
    meetingRow = await createMeeting(t, { hostId: owner.userId, title: 'Weekly sync' });
    ready = await insertRecording(meetingRow.id, 'ready');
    processing = await insertRecording(meetingRow.id, 'processing');
  });
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, cookie?: string) =>
    t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('lists the host’s own recordings with their state, and nobody else’s', async () => {
    const mine = await get('/api/recordings', owner.cookie);
    expect(mine.statusCode).toBe(200);
    const list =
      mine.json<
        { id: string; status: string; downloadUrl: string | null; durationSeconds: number | null }[]
      >();
    expect(list.map((r) => r.status).sort()).toEqual(['processing', 'ready']);
    expect(list.find((r) => r.id === ready)).toMatchObject({
      meetingId: meetingRow.meetingId,
      meetingTitle: 'Weekly sync',
      durationSeconds: 61,
      size: 2048,
      downloadUrl: `/api/recordings/${ready}/download`,
    });
    expect(list.find((r) => r.id === processing)?.downloadUrl).toBeNull();
    expect((await get('/api/recordings', stranger.cookie)).json()).toEqual([]);
    expect((await get('/api/recordings')).statusCode).toBe(401);
  });

  it('streams the file to its host as an MP4 attachment with a readable name', async () => {
    const res = await get(`/api/recordings/${ready}/download`, owner.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['content-disposition']).toContain(
      `parley-recording-${meetingRow.meetingId}-2025-03-04-1005.mp4`,
    );
    expect(res.rawPayload.length).toBe(2048);
  });

  it('plays inline for the app’s player, with byte ranges', async () => {
    const play = (range?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/recordings/${ready}/play`,
        headers: { cookie: owner.cookie, ...(range ? { range } : {}) },
      });
    const whole = await play();
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-disposition']).toBeUndefined();
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(2048);
    const part = await play('bytes=100-199');
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/2048');
    expect(part.rawPayload.length).toBe(100);
    expect((await play('bytes=-48')).headers['content-range']).toBe('bytes 2000-2047/2048');
    expect((await play('bytes=2000-')).rawPayload.length).toBe(48);
    const past = await play('bytes=5000-');
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe('bytes */2048');
    // Several ranges at once are not served as such: the whole file.
    expect((await play('bytes=0-1,5-6')).statusCode).toBe(200);
    const theirs = await t.app.inject({
      method: 'GET',
      url: `/api/recordings/${ready}/play`,
      headers: { cookie: stranger.cookie },
    });
    expect(theirs.statusCode).toBe(403);
    const list = (await get('/api/recordings', owner.cookie)).json<
      { id: string; playUrl: string | null }[]
    >();
    expect(list.find((r) => r.id === ready)?.playUrl).toBe(`/api/recordings/${ready}/play`);
  });

  it('answers 4xx, never 500: unknown, malformed, someone else’s, not ready, signed out', async () => {
    expect((await get(`/api/recordings/${crypto.randomUUID()}/download`, owner.cookie)).statusCode).toBe(404);
    expect((await get('/api/recordings/not-an-id/download', owner.cookie)).statusCode).toBe(400);
    const theirs = await get(`/api/recordings/${ready}/download`, stranger.cookie);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json<{ message: string }>().message).toMatch(/host/);
    const notYet = await get(`/api/recordings/${processing}/download`, owner.cookie);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json<{ message: string }>().message).toBe('The recording is still being processed');
    expect((await get(`/api/recordings/${ready}/download`)).statusCode).toBe(401);
  });

  it('in the room: a non-host is refused, and without Janus the host is told why', async () => {
    const room = await createMeeting(t, { hostId: owner.userId });
    const host = await enter(t, ws, room.meetingId, { name: 'Rita', isHost: true, cookie: owner.cookie });
    const guest = await enter(t, ws, room.meetingId, { name: 'Gabe' });
    try {
      // Everyone hears the room's recording state after `joined`.
      const state = await guest.socket.next('recording_state');
      expect(state.recording).toEqual({
        active: false,
        startedAt: null,
        available: false,
        unavailableReason: RECORDING_TEXTS.noSfu,
        stopsAt: null,
        limitNotice: null,
      });
      guest.socket.send({ type: 'set_recording', requestId: 'g1', on: true });
      const refused = await guest.socket.next('error');
      expect(refused).toMatchObject({
        requestId: 'g1',
        code: 'forbidden',
        message: RECORDING_TEXTS.hostOnly,
      });
      host.socket.send({ type: 'set_recording', requestId: 'h1', on: true });
      const noSfu = await host.socket.next('error');
      expect(noSfu).toMatchObject({ requestId: 'h1', code: 'forbidden', message: RECORDING_TEXTS.noSfu });
      host.socket.send({ type: 'set_recording', requestId: 'h2', on: 'yes' });
      expect(await host.socket.next('error')).toMatchObject({ code: 'bad_message' });
    } finally {
      host.socket.close();
      guest.socket.close();
    }
  });

  it('in the room: a host without Pro is told recording is part of Pro', async () => {
    const free = await signIn(t, { email: 'rec-free@example.com', firstName: 'Fay' });
    const room = await createMeeting(t, { hostId: free.userId });
    const host = await enter(t, ws, room.meetingId, { name: 'Fay', isHost: true, cookie: free.cookie });
    try {
      const state = await host.socket.next('recording_state');
      expect(state.recording).toMatchObject({
        available: false,
        unavailableReason: RECORDING_TEXTS.needsPro,
      });
      host.socket.send({ type: 'set_recording', requestId: 'h1', on: true });
      expect(await host.socket.next('error')).toMatchObject({
        requestId: 'h1',
        code: 'subscription_required',
        message: RECORDING_TEXTS.needsPro,
      });
    } finally {
      host.socket.close();
    }
  });

  it('retention deletes rows and files 30 days after the meeting, unless the host saved it', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const gone = await createMeeting(t, { hostId: owner.userId, status: 'ended' });
    const kept = await createMeeting(t, { hostId: owner.userId, status: 'ended' });
    const goneRec = await insertRecording(gone.id, 'ready');
    const keptRec = await insertRecording(kept.id, 'ready');
    await t.db.db.update(meetings).set({ updatedAt: old }).where(eq(meetings.id, gone.id));
    await t.db.db.update(meetings).set({ updatedAt: old, keepContent: true }).where(eq(meetings.id, kept.id));
    const goneFile = path.join(t.config.recordings.dir, gone.id, `${goneRec}.mp4`);
    expect(existsSync(goneFile)).toBe(true);

    const run = await t.app.retention.runOnce(new Date());
    expect(run.recordings).toMatchObject({ meetings: 1, items: 1, failed: 0 });
    expect(existsSync(goneFile)).toBe(false);
    expect(await t.db.db.select().from(recordings).where(eq(recordings.id, goneRec))).toEqual([]);
    expect(existsSync(path.join(t.config.recordings.dir, kept.id, `${keptRec}.mp4`))).toBe(true);
    expect((await get(`/api/recordings/${keptRec}/download`, owner.cookie)).statusCode).toBe(200);
  });
});
