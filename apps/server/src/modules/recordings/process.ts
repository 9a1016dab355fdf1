import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readSpeakers, speakersFileOf, type SpeakerChange } from './speaker-timeline.js';
import { enableExpression, speakerLayout, stageIntervals, usesSpeakerView } from './speaker-view.js';

/**
 * Post-processing of a recording (issue 17 item 5): Janus wrote one .mjr per publisher stream
 * (RTP packets as they came); `janus-pp-rec` turns each into a plain .opus or .webm
 * (prepareRecording), and `ffmpeg` makes the single file the host downloads: every participant's
 * audio mixed (amix), and their videos on a 1280x720 frame with each person's name on their tile
 * (the active speaker large beside a filmstrip when the recording has a speaker timeline,
 * speaker-view.ts; a grid otherwise), each stream placed on the recording's timeline at the time Janus wrote its first packet (the
 * .mjr header's `u`, printed by `janus-pp-rec -j`). A long recording is encoded in segments of a
 * bounded length (encodeSegment; each its own job, issue 34 item 9) and the segments are joined
 * without re-encoding (concatSegments).
 */

export interface RecordingTools {
  ppRec: string;
  ffmpeg: string;
  ffprobe: string;
}

/** Whether the tools run at all (Debian `janus-tools` and `ffmpeg`); the missing ones otherwise. */
export function missingTools(tools: RecordingTools): string[] {
  const missing: string[] = [];
  for (const [bin, args] of [
    [tools.ppRec, ['--help']],
    [tools.ffmpeg, ['-version']],
    [tools.ffprobe, ['-version']],
  ] as const) {
    const r = spawnSync(bin, args, { timeout: 5000, stdio: 'ignore' });
    if (r.error) missing.push(bin);
  }
  return missing;
}

/** What the .mjr header says (janus-pp-rec -j): kind, codec, created and first-written (µs). */
export interface MjrHeader {
  kind: 'audio' | 'video';
  codec: string;
  /** When Janus wrote the first packet (µs since epoch); the creation time when it has none. */
  firstPacketUs: number;
}

/** The picture of the result, and its frame rate. */
export const FRAME = { w: 1280, h: 720 };
const FPS = 15;
/** The most videos the grid shows (the first to start); audio is mixed from everyone. */
export const MAX_GRID_VIDEOS = 9;
/**
 * The longest one tool may run. janus-pp-rec only remuxes; ffmpeg encodes one segment at a time
 * (RECORDING_SEGMENT_SECONDS, 10 minutes by default: about 2 minutes of work here), so a run
 * that takes longer than this is stuck, and is killed.
 */
export const TOOL_TIMEOUT_MS = 30 * 60_000;
/** A font for the names on the tiles (Debian fonts-dejavu-core); without it, no names. */
export const NAME_FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(bin: string, args: string[], timeoutMs = TOOL_TIMEOUT_MS): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < 1_000_000) stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      // The tail is what says why it failed.
      stderr = (stderr + d.toString()).slice(-20_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lastLines = (s: string, n = 3) => s.trim().split('\n').slice(-n).join(' | ');

/** The header of one .mjr (janus-pp-rec -j prints it as JSON). */
export async function readMjrHeader(tools: RecordingTools, file: string): Promise<MjrHeader> {
  const r = await run(tools.ppRec, ['-j', file], 30_000);
  const line = `${r.stdout}\n${r.stderr}`.split('\n').find((l) => l.trim().startsWith('{'));
  if (!line) throw new Error(`janus-pp-rec printed no header for ${path.basename(file)}`);
  const h = JSON.parse(line) as { t?: string; c?: string; s?: number; u?: number };
  if ((h.t !== 'a' && h.t !== 'v') || typeof h.s !== 'number')
    throw new Error(`Not an audio or video recording: ${path.basename(file)}`);
  return {
    kind: h.t === 'a' ? 'audio' : 'video',
    codec: h.c ?? '',
    firstPacketUs: typeof h.u === 'number' && h.u > 0 ? h.u : h.s,
  };
}

export interface ProcessResult {
  /** As ffprobe measures the file. */
  durationMs: number;
  size: number;
  streams: { audio: number; video: number };
}

export interface Track {
  file: string;
  kind: 'audio' | 'video';
  offsetMs: number;
  /** Whose stream it is (from the file name), so one person's segments share a grid cell. */
  participant: string;
  /** How long the stream is (ffprobe), null when it could not say: a segment then reads it anyway. */
  durationMs?: number | null;
}

/** What ffmpeg draws besides the streams: names on the tiles (a text file per person). */
export interface Decorations {
  /** A file holding each participant's name (drawtext reads it, so no escaping is needed). */
  nameFiles?: Map<string, string>;
  /** The font of the names (NAME_FONT). */
  fontFile?: string | null;
  /**
   * The speaker timeline of the whole recording (speaker-timeline.ts): with it and two cameras or
   * more, the speaker view; without it (recordings made before it), the grid.
   */
  speakers?: SpeakerChange[] | null;
}

/** A video segment as a tile's input: its filter label and its delay (s); `fps` when not yet applied. */
interface Source {
  label: string;
  at: string;
  fps?: boolean;
}
const viaFps = (s: { index: number; at: string }): Source => ({ label: `${s.index}:v`, at: s.at, fps: true });
/** The outline of the speaker's thumbnail. */
const OUTLINE = '0x8ab4f8';

/** The participant part of a raw file's name (`<name>-<n>-p<participant>-video-1.mjr`). */
export function participantOf(file: string): string {
  return (
    /-\d+-p([A-Za-z0-9-]+)-(?:audio|video)-\d+\.mjr$/.exec(path.basename(file))?.[1] ?? path.basename(file)
  );
}

/** The raw files of a recording in Janus's folder. */
export async function rawFilesOf(rawDir: string, name: string): Promise<string[]> {
  const all = await readdir(rawDir).catch(() => [] as string[]);
  return all.filter((f) => f.startsWith(`${name}-`) && f.endsWith('.mjr')).map((f) => path.join(rawDir, f));
}

const even = (n: number) => Math.floor(n / 2) * 2;

/**
 * The grid's cells for n videos in the 1280x720 frame: the columns × rows that give each camera
 * (16:9) the largest picture, filled row by row, the whole grid centred. One person fills the
 * frame; two sit side by side.
 */
export function gridOf(n: number): {
  cols: number;
  rows: number;
  cell: { w: number; h: number };
  origin: { x: number; y: number };
} {
  let best = { cols: 1, rows: Math.max(1, n), area: -1 };
  for (let cols = 1; cols <= Math.max(1, n); cols++) {
    const rows = Math.ceil(Math.max(1, n) / cols);
    const w = FRAME.w / cols;
    const h = FRAME.h / rows;
    const fit = Math.min(w, (h * 16) / 9);
    // On a tie the wider grid wins: two people sit side by side.
    if (fit >= best.area - 0.5) best = { cols, rows, area: fit };
  }
  const cell = { w: even(Math.min(FRAME.w / best.cols, best.area)), h: even(FRAME.h / best.rows) };
  if (cell.h > (cell.w * 9) / 16) cell.h = even((cell.w * 9) / 16);
  return {
    cols: best.cols,
    rows: best.rows,
    cell,
    origin: {
      x: even((FRAME.w - cell.w * best.cols) / 2),
      y: even((FRAME.h - cell.h * best.rows) / 2),
    },
  };
}

/** The parts of a recording's timeline each job encodes: [fromMs, toMs) of at most `segmentMs`. */
export function segmentsOf(totalMs: number, segmentMs: number): { fromMs: number; toMs: number }[] {
  const out: { fromMs: number; toMs: number }[] = [];
  const step = Math.max(1000, segmentMs);
  for (let from = 0; from < totalMs; from += step)
    out.push({ fromMs: from, toMs: Math.min(totalMs, from + step) });
  // A sliver under a second at the end joins the segment before it.
  if (out.length > 1 && out[out.length - 1]!.toMs - out[out.length - 1]!.fromMs < 1000) {
    const last = out.pop()!;
    out[out.length - 1]!.toMs = last.toMs;
  }
  return out;
}

/** One person per grid cell, in the order they first appear (at most MAX_GRID_VIDEOS). */
export function cellsOf(tracks: Track[]): string[] {
  const cells: string[] = [];
  for (const t of tracks.filter((x) => x.kind === 'video').sort((a, b) => a.offsetMs - b.offsetMs)) {
    if (!cells.includes(t.participant) && cells.length < MAX_GRID_VIDEOS) cells.push(t.participant);
  }
  return cells;
}

/** The part of the timeline one ffmpeg run encodes (the whole recording by default). */
export interface Window {
  fromMs: number;
  toMs: number;
}

/**
 * ffmpeg's arguments for the tracks: audio delayed to its offset and mixed; each person's video
 * segments laid over a black cell at their offsets (black before and after), with their name,
 * the cells placed on a 1280x720 frame: a grid, or with a speaker timeline (decorations.speakers)
 * the speaker view, each person's stage picture shown while they are the speaker (their
 * intervals clipped to the window, speaker-view.ts); the whole cut to the window of the timeline asked for
 * (the recording's length by default). A track that starts before the window is read from the
 * window's start (input seek), one that does not reach into it is left out. The cells are those
 * of the whole recording (cellsOf), so every segment has the same layout. No audio: silence; no
 * video: a black picture.
 */
export function ffmpegArgs(
  tracks: Track[],
  totalMs: number,
  outFile: string,
  window: Window = { fromMs: 0, toMs: totalMs },
  decorations: Decorations = {},
): string[] {
  const { fromMs, toMs } = window;
  const lengthMs = toMs - fromMs;
  const seconds = (lengthMs / 1000).toFixed(3);
  /** Whether a track has anything in the window. */
  const inWindow = (t: Track) =>
    t.offsetMs < toMs && (t.durationMs == null || t.offsetMs + t.durationMs > fromMs);
  const inputs: string[] = [];
  const filters: string[] = [];
  let i = 0;
  /** Adds the track as an input, read from the window's start; answers its delay in the window. */
  const input = (t: Track): number => {
    const local = t.offsetMs - fromMs;
    if (local < 0) inputs.push('-ss', (-local / 1000).toFixed(3));
    inputs.push('-i', t.file);
    return Math.max(0, local);
  };

  const audioLabels: string[] = [];
  for (const t of tracks.filter((x) => x.kind === 'audio' && inWindow(x))) {
    const ms = Math.round(input(t));
    filters.push(`[${i}:a]aresample=48000,aformat=channel_layouts=stereo,adelay=${ms}:all=1,apad[a${i}]`);
    audioLabels.push(`[a${i}]`);
    i++;
  }

  const cells = cellsOf(tracks);
  filters.push(`color=c=black:s=${FRAME.w}x${FRAME.h}:r=${FPS}:d=${seconds}[frame0]`);
  let frame = 'frame0';
  let step = 0;
  /** Draws a filter over the frame so far. */
  const onFrame = (filter: string) => {
    const next = `frame${++step}`;
    filters.push(`[${frame}]${filter}[${next}]`);
    frame = next;
  };
  /** Each person's video segments in the window: their input and delay (s) in it, in order. */
  const segments = cells.map((participant) =>
    tracks
      .filter((t) => t.kind === 'video' && t.participant === participant && inWindow(t))
      .sort((a, b) => a.offsetMs - b.offsetMs)
      .map((t) => {
        const at = (input(t) / 1000).toFixed(3);
        return { index: i++, at };
      }),
  );
  /**
   * One person's picture of the size: their segments over a dark tile at their delays (empty
   * again after each ends: eof_action=pass), their name on it. Answers its label.
   */
  const tile = (id: string, participant: string, size: { w: number; h: number }, sources: Source[]) => {
    const { w, h } = size;
    let base = `${id}b`;
    filters.push(`color=c=0x202124:s=${w}x${h}:r=${FPS}:d=${seconds}[${base}]`);
    sources.forEach((s, k) => {
      filters.push(
        `[${s.label}]${s.fps ? `fps=${FPS},` : ''}scale=${w}:${h}:force_original_aspect_ratio=decrease,` +
          `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p,setpts=PTS-STARTPTS+${s.at}/TB[${id}s${k}]`,
      );
      const out = `${id}o${k}`;
      filters.push(`[${base}][${id}s${k}]overlay=eof_action=pass:eval=init[${out}]`);
      base = out;
    });
    const nameFile = decorations.nameFiles?.get(participant);
    if (nameFile && decorations.fontFile) {
      const named = `${id}n`;
      const size = Math.max(14, Math.round(h / 18));
      filters.push(
        `[${base}]drawtext=fontfile=${decorations.fontFile}:textfile=${nameFile}:expansion=none:` +
          `fontsize=${size}:fontcolor=white:box=1:boxcolor=black@0.55:boxborderw=${Math.round(size / 3)}:` +
          `x=${Math.round(size / 2)}:y=h-th-${Math.round(size / 2)}[${named}]`,
      );
      base = named;
    }
    return base;
  };

  if (usesSpeakerView(decorations.speakers, cells)) {
    // The speaker view: each person's video split in two, a thumbnail in the filmstrip all along
    // and a stage picture shown (enable) while they are the speaker; the speaker's thumbnail outlined.
    const layout = speakerLayout(cells.length, FRAME);
    const onStage = stageIntervals(decorations.speakers!, cells, window);
    const thumbs: string[] = [];
    const stages: { label: string; when: string; c: number }[] = [];
    cells.forEach((participant, c) => {
      const intervals = onStage.get(participant);
      if (!intervals) {
        thumbs.push(tile(`t${c}`, participant, layout.tiles[c]!, segments[c]!.map(viaFps)));
        return;
      }
      for (const s of segments[c]!)
        filters.push(`[${s.index}:v]fps=${FPS},split=2[v${s.index}t][v${s.index}g]`);
      const from = (suffix: string) => segments[c]!.map((s) => ({ label: `v${s.index}${suffix}`, at: s.at }));
      thumbs.push(tile(`t${c}`, participant, layout.tiles[c]!, from('t')));
      stages.push({
        label: tile(`g${c}`, participant, layout.stage, from('g')),
        when: enableExpression(intervals),
        c,
      });
    });
    for (const s of stages)
      onFrame(`[${s.label}]overlay=x=${layout.stage.x}:y=${layout.stage.y}:eval=init:enable='${s.when}'`);
    thumbs.forEach((label, c) =>
      onFrame(`[${label}]overlay=x=${layout.tiles[c]!.x}:y=${layout.tiles[c]!.y}:eval=init`),
    );
    for (const s of stages) {
      const b = layout.tiles[s.c]!;
      onFrame(`drawbox=x=${b.x}:y=${b.y}:w=${b.w}:h=${b.h}:color=${OUTLINE}:t=4:enable='${s.when}'`);
    }
  } else {
    // The grid: one cell per person (old recordings, one camera, nobody spoke).
    const grid = gridOf(cells.length);
    cells.forEach((participant, c) => {
      const label = tile(`c${c}`, participant, grid.cell, segments[c]!.map(viaFps));
      const x = grid.origin.x + (c % grid.cols) * grid.cell.w;
      const y = grid.origin.y + Math.floor(c / grid.cols) * grid.cell.h;
      onFrame(`[${label}]overlay=x=${x}:y=${y}:eval=init`);
    });
  }
  filters.push(`[${frame}]null[vout]`);

  if (audioLabels.length === 0) {
    filters.push(`anullsrc=r=48000:cl=stereo[aout]`);
  } else if (audioLabels.length === 1) {
    filters.push(`${audioLabels[0]}anull[aout]`);
  } else {
    // normalize=0: each voice at its own level (amix would otherwise divide by the inputs).
    filters.push(`${audioLabels.join('')}amix=inputs=${audioLabels.length}:normalize=0[aout]`);
  }
  return [
    '-hide_banner',
    '-nostdin',
    '-y',
    ...inputs,
    '-filter_complex',
    filters.join(';'),
    '-map',
    '[vout]',
    '-map',
    '[aout]',
    '-t',
    seconds,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-crf',
    '26',
    '-pix_fmt',
    'yuv420p',
    '-r',
    String(FPS),
    // A key frame every 2 s: the file seeks well in the player.
    '-g',
    String(FPS * 2),
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-ar',
    '48000',
    '-movflags',
    '+faststart',
    outFile,
  ];
}

/** The file's duration in ms (ffprobe). */
export async function probeDurationMs(tools: RecordingTools, file: string): Promise<number> {
  const r = await run(
    tools.ffprobe,
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', file],
    60_000,
  );
  const s = Number(r.stdout.trim());
  if (r.code !== 0 || !Number.isFinite(s))
    throw new Error(`ffprobe could not read the file: ${lastLines(r.stderr)}`);
  return Math.round(s * 1000);
}

/** A recording made ready for encoding: its streams as plain files, placed on its timeline. */
export interface Prepared {
  tracks: Track[];
  totalMs: number;
  /** Streams that could not be read (they are left out). */
  problems: string[];
  /** Who spoke when (`<name>-speakers.json` beside the raw files); null: none kept (the grid). */
  speakers?: SpeakerChange[] | null;
}

export interface PrepareInput {
  /** Janus's rec_dir. */
  rawDir: string;
  /** The recording's file name prefix (its id): `<name>-<n>-{audio,video}-<mindex>.mjr`. */
  name: string;
  /** Where the plain files go (kept until the file is made). */
  workDir: string;
  startedAt: Date;
  endedAt: Date;
  tools: RecordingTools;
}

/**
 * Turns every raw stream into a plain file (janus-pp-rec only remuxes: fast) and measures it.
 * Streams Janus opened but wrote no packet to (a camera that never sent) are skipped; a
 * recording with no stream at all fails.
 */
export async function prepareRecording(input: PrepareInput): Promise<Prepared> {
  const { tools } = input;
  const raw = await rawFilesOf(input.rawDir, input.name);
  if (raw.length === 0) throw new Error('Janus wrote no media for this recording');
  const totalMs = input.endedAt.getTime() - input.startedAt.getTime();
  if (totalMs <= 0) throw new Error('The recording has no length');
  await mkdir(input.workDir, { recursive: true });
  const tracks: Track[] = [];
  const problems: string[] = [];
  for (const file of raw.sort()) {
    let header: MjrHeader;
    try {
      header = await readMjrHeader(tools, file);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    const ext = header.kind === 'audio' ? (header.codec === 'opus' ? 'opus' : 'wav') : 'webm';
    const out = path.join(input.workDir, `${path.basename(file, '.mjr')}.${ext}`);
    const r = await run(tools.ppRec, [file, out]);
    const made = await stat(out).catch(() => null);
    if (r.code !== 0 || !made || made.size === 0) {
      problems.push(`${path.basename(file)}: ${lastLines(r.stdout + r.stderr, 1)}`);
      continue;
    }
    tracks.push({
      file: out,
      kind: header.kind,
      participant: participantOf(file),
      offsetMs: header.firstPacketUs / 1000 - input.startedAt.getTime(),
      durationMs: await probeDurationMs(tools, out).catch(() => null),
    });
  }
  if (tracks.length === 0)
    throw new Error(`No stream of the recording could be read (${problems.join('; ')})`);
  const speakers = await readSpeakers(speakersFileOf(input.rawDir, input.name), totalMs);
  return { tracks, totalMs, problems, speakers };
}

/**
 * Writes each participant's name to a file of its own for drawtext (no escaping needed); names
 * missing from `names` get none.
 */
export async function writeNameFiles(
  workDir: string,
  names: Map<string, string>,
  participants: string[],
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [k, participant] of participants.entries()) {
    const name = names.get(participant)?.trim();
    if (!name) continue;
    const file = path.join(workDir, `name-${k}.txt`);
    await writeFile(file, name.slice(0, 60));
    files.set(participant, file);
  }
  return files;
}

/** Encodes one window of the timeline to its own MP4 (one bounded job's work). */
export async function encodeSegment(
  prepared: Prepared,
  window: Window,
  outFile: string,
  tools: RecordingTools,
  decorations: Decorations = {},
): Promise<void> {
  const r = await run(
    tools.ffmpeg,
    ffmpegArgs(prepared.tracks, prepared.totalMs, outFile, window, {
      speakers: prepared.speakers ?? null,
      ...decorations,
    }),
  );
  if (r.code !== 0) throw new Error(`ffmpeg failed: ${lastLines(r.stderr)}`);
}

/** Joins the segments, in order, into the one file without encoding again; measures it. */
export async function concatSegments(
  parts: string[],
  outFile: string,
  tools: RecordingTools,
): Promise<{ durationMs: number; size: number }> {
  if (parts.length === 1) {
    // One segment is the file (the work folder may be on another disk: then it is copied).
    await rename(parts[0]!, outFile).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EXDEV') throw err;
      await copyFile(parts[0]!, outFile);
    });
  } else {
    const list = `${outFile}.parts.txt`;
    await writeFile(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
    const r = await run(tools.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      outFile,
    ]);
    await rm(list, { force: true });
    if (r.code !== 0) throw new Error(`ffmpeg could not join the segments: ${lastLines(r.stderr)}`);
  }
  const durationMs = await probeDurationMs(tools, outFile);
  const { size } = await stat(outFile);
  return { durationMs, size };
}

/**
 * Makes the one playable file of a recording in one go (prepare, every segment, join): for a
 * short recording, and for tests; the job (service.ts) runs the same steps as separate jobs.
 */
export async function processRecording(
  input: Omit<PrepareInput, 'workDir'> & {
    outFile: string;
    segmentMs?: number;
    names?: Map<string, string>;
    fontFile?: string | null;
  },
): Promise<ProcessResult> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'parley-rec-'));
  try {
    const prepared = await prepareRecording({ ...input, workDir });
    const nameFiles = await writeNameFiles(workDir, input.names ?? new Map(), cellsOf(prepared.tracks));
    const parts: string[] = [];
    for (const [k, w] of segmentsOf(prepared.totalMs, input.segmentMs ?? prepared.totalMs).entries()) {
      const part = path.join(workDir, `part-${String(k).padStart(4, '0')}.mp4`);
      await encodeSegment(prepared, w, part, input.tools, { nameFiles, fontFile: input.fontFile ?? null });
      parts.push(part);
    }
    const { durationMs, size } = await concatSegments(parts, input.outFile, input.tools);
    return {
      durationMs,
      size,
      streams: {
        audio: prepared.tracks.filter((t) => t.kind === 'audio').length,
        video: prepared.tracks.filter((t) => t.kind === 'video').length,
      },
    };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
