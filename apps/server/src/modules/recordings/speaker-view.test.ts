import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { RoomState } from '../rooms/state.js';
import { ffmpegArgs } from './process.js';
import type { RecordingsRepository } from './repository.js';
import { createRecordingsService } from './service.js';
import {
  MAX_SPEAKER_CHANGES,
  SpeakerTimeline,
  readSpeakers,
  speakersFileOf,
  writeSpeakers,
} from './speaker-timeline.js';
import {
  MAX_STAGE_INTERVALS,
  enableExpression,
  mergeIntervals,
  speakerLayout,
  stageIntervals,
  usesSpeakerView,
} from './speaker-view.js';

describe('the speaker timeline kept while recording', () => {
  it('keeps a new speaker only once they held the floor 1.5 s, from when they started', () => {
    const t = new SpeakerTimeline();
    t.start('ann');
    t.heard('bob', 10_000);
    // Ann again after 0.8 s: Bob's turn was too short to move the stage.
    t.heard('ann', 10_800);
    t.heard('bob', 20_000);
    t.heard('cat', 21_000); // Bob held only 1 s
    t.heard('bob', 30_000); // Cat held 9 s
    t.heard(null, 40_000); // the last one left: the stage stays theirs
    expect(t.changes).toEqual([
      { participant: 'ann', atMs: 0 },
      { participant: 'cat', atMs: 21_000 },
      { participant: 'bob', atMs: 30_000 },
    ]);
    expect(t.pending).toBeNull();
  });

  it('is bounded: after the cap, changes are ignored', () => {
    const t = new SpeakerTimeline(1500, 3);
    for (let k = 0; k < 10; k++) t.heard(k % 2 ? 'ann' : 'bob', k * 5000);
    expect(t.changes).toHaveLength(3);
    expect(t.pending).toBeNull();
    expect(MAX_SPEAKER_CHANGES).toBeGreaterThan(1000);
  });

  it('survives on disk: the pending change counts when it held until the end', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-speakers-'));
    const file = speakersFileOf(dir, 'rec');
    const t = new SpeakerTimeline();
    t.start('p-ann');
    t.heard('p/bob', 5000);
    await writeSpeakers(file, t);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      version: 1,
      pending: { participant: 'pbob' },
    });
    expect(await readSpeakers(file, 6000)).toEqual([{ participant: 'p-ann', atMs: 0 }]);
    expect(await readSpeakers(file, 7000)).toEqual([
      { participant: 'p-ann', atMs: 0 },
      { participant: 'pbob', atMs: 5000 },
    ]);
    // An old recording has no file; a broken file is no timeline either: the grid.
    expect(await readSpeakers(path.join(dir, 'none.json'), 7000)).toBeNull();
    writeFileSync(file, '{"version":1,"changes":');
    expect(await readSpeakers(file, 7000)).toBeNull();
  });
});

describe('the stage over a segment', () => {
  const changes = [
    { participant: 'ann', atMs: 2000 },
    { participant: 'bob', atMs: 5000 },
    { participant: 'nocam', atMs: 7000 },
    { participant: 'ann', atMs: 12_000 },
  ];
  const cells = ['ann', 'bob'];

  it('gives the first speaker the stage from the start, clips at the window, skips those without a camera', () => {
    expect(stageIntervals(changes, cells, { fromMs: 0, toMs: 20_000 })).toEqual(
      new Map([
        [
          'ann',
          [
            [0, 5],
            [12, 20],
          ],
        ],
        ['bob', [[5, 12]]],
      ]),
    );
    // The second segment: times from its start, Bob's turn cut at its edge.
    expect(stageIntervals(changes, cells, { fromMs: 10_000, toMs: 20_000 })).toEqual(
      new Map([
        ['bob', [[0, 2]]],
        ['ann', [[2, 10]]],
      ]),
    );
    // A window inside one turn: one interval for the whole window, nobody else.
    expect(stageIntervals(changes, cells, { fromMs: 6000, toMs: 8000 })).toEqual(
      new Map([['bob', [[0, 2]]]]),
    );
  });

  it('merges touching turns, and caps the intervals by merging the shortest gaps', () => {
    expect(
      mergeIntervals([
        [4, 5],
        [0, 1],
        [1, 2],
      ]),
    ).toEqual([
      [0, 2],
      [4, 5],
    ]);
    expect(
      mergeIntervals(
        [
          [0, 1],
          [1.5, 2],
          [5, 6],
          [6.1, 7],
        ],
        2,
      ),
    ).toEqual([
      [0, 2],
      [5, 7],
    ]);
    const many = Array.from({ length: 500 }, (_, k): [number, number] => [k * 2, k * 2 + 1]);
    expect(mergeIntervals(many)).toHaveLength(MAX_STAGE_INTERVALS);
  });

  it('writes the enable expression, and uses the speaker view only with two cameras and a speaker', () => {
    expect(
      enableExpression([
        [0, 5],
        [12, 20.5],
      ]),
    ).toBe('between(t,0.000,5.000)+between(t,12.000,20.500)');
    expect(usesSpeakerView(changes, cells)).toBe(true);
    expect(usesSpeakerView(changes, ['ann'])).toBe(false);
    expect(usesSpeakerView(null, cells)).toBe(false);
    expect(usesSpeakerView([{ participant: 'nocam', atMs: 0 }], cells)).toBe(false);
  });

  it('lays out a 16:9 stage and a filmstrip that fit the frame', () => {
    expect(speakerLayout(2)).toEqual({
      stage: { x: 0, y: 90, w: 960, h: 540 },
      tiles: [
        { x: 960, y: 180, w: 320, h: 180 },
        { x: 960, y: 360, w: 320, h: 180 },
      ],
    });
    for (let n = 2; n <= 9; n++) {
      const { stage, tiles } = speakerLayout(n);
      expect(stage.x + stage.w).toBeLessThanOrEqual(tiles[0]!.x);
      expect(stage.y + stage.h).toBeLessThanOrEqual(720);
      expect(tiles[n - 1]!.y + tiles[n - 1]!.h).toBeLessThanOrEqual(720);
      expect(tiles[0]!.x + tiles[0]!.w).toBeLessThanOrEqual(1280);
    }
  });

  it('asks ffmpeg for a split per camera and a stage shown while its owner speaks', () => {
    const at = (participant: string, offsetMs: number) => ({
      file: `${participant}.webm`,
      kind: 'video' as const,
      participant,
      offsetMs,
    });
    const args = ffmpegArgs(
      [at('ann', 0), at('bob', 0)],
      20_000,
      'o.mp4',
      { fromMs: 10_000, toMs: 20_000 },
      { speakers: changes },
    );
    const graph = args[args.indexOf('-filter_complex') + 1]!;
    expect(graph.match(/split=2/g)).toHaveLength(2);
    expect(graph).toContain("overlay=x=0:y=90:eval=init:enable='between(t,2.000,10.000)'");
    expect(graph).toContain("enable='between(t,0.000,2.000)'");
    expect(graph).toContain('drawbox=x=960:y=180:w=320:h=180');
    // Without a timeline: the grid as before.
    const grid = ffmpegArgs([at('ann', 0), at('bob', 0)], 20_000, 'o.mp4');
    expect(grid[grid.indexOf('-filter_complex') + 1]).not.toContain('split');
  });
});

describe('a recording in the room keeps its speaker timeline', () => {
  it('writes the changes beside the raw files, from the speaker at the start, until it stops', async () => {
    const rawDir = mkdtempSync(path.join(os.tmpdir(), 'parley-speakers-room-'));
    let clock = Date.parse('2026-01-01T10:00:00Z');
    let listener: ((roomId: string, participantId: string | null) => void) | null = null;
    const repo = {
      allowsRecording: async () => true,
      usedBytesForHost: async () => 0,
      unfinishedForHost: async () => [],
      create: async () => ({ id: 'rec1' }),
      finish: async () => ({ id: 'rec1' }),
    } as unknown as RecordingsRepository;
    const room = {
      id: 'room1',
      meeting: { id: 'm1', hostId: 'host', ephemeral: false },
      members: new Map(),
      ended: false,
    } as unknown as RoomState;
    const queued: number[] = [];
    const service = createRecordingsService({
      repo,
      media: {
        canRecord: () => true,
        recordingDir: rawDir,
        moveToSfu: async () => true,
        startRecording: async () => undefined,
        stopRecording: async () => undefined,
        activeSpeaker: () => 'ann',
        onSpeakerChanged: (l) => (listener = l),
      },
      admitted: async () => ({ room, member: { isHost: true, id: 'host' } }),
      isPro: async () => true,
      room: async () => room,
      publish: () => undefined,
      enqueue: async (_id, step) => void queued.push(step),
      limits: { maxMs: 3_600_000, hostQuotaBytes: 1e12, segmentMs: 600_000 },
      dir: rawDir,
      tools: { ppRec: 'janus-pp-rec', ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' },
      missingTools: [],
      log: { warn: () => undefined, info: () => undefined } as unknown as FastifyBaseLogger,
      now: () => new Date(clock),
    });
    const speak = (who: string, atMs: number) => {
      clock = Date.parse('2026-01-01T10:00:00Z') + atMs;
      listener!('room1', who);
    };
    expect(await service.setRecording({ roomId: 'room1', participantId: 'host' }, true)).toBe(true);
    speak('bob', 4000);
    speak('ann', 4500); // too short a turn for Bob
    speak('cat', 9000);
    listener!('another-room', 'dan'); // not recorded here
    speak('bob', 20_000);
    clock += 10_000;
    await service.setRecording({ roomId: 'room1', participantId: 'host' }, false);
    expect(queued).toEqual([0]);
    // What the processing reads, even after a restart of the server.
    expect(await readSpeakers(speakersFileOf(rawDir, 'rec1'), 30_000)).toEqual([
      { participant: 'ann', atMs: 0 },
      { participant: 'cat', atMs: 9000 },
      { participant: 'bob', atMs: 20_000 },
    ]);
    speak('cat', 31_000); // after the stop: nothing more
    expect(JSON.parse(readFileSync(speakersFileOf(rawDir, 'rec1'), 'utf8')).pending).toMatchObject({
      participant: 'bob',
    });
  });
});
