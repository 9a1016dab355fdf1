import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Post-processing of a recording (issue 17 item 5): Janus wrote one .mjr per publisher stream
 * (RTP packets as they came); `janus-pp-rec` turns each into a plain .opus or .webm, and one
 * `ffmpeg` run makes the single file the host downloads: every participant's audio mixed (amix),
 * and their videos as a grid (xstack), each stream placed on the recording's timeline at the time
 * Janus wrote its first packet (the .mjr header's `u`, printed by `janus-pp-rec -j`).
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

/** One grid cell's size, and the frame rate of the result. */
const CELL = { w: 320, h: 240 };
const SINGLE = { w: 640, h: 480 };
const FPS = 15;
/** The most videos the grid shows (the first to start); audio is mixed from everyone. */
export const MAX_GRID_VIDEOS = 9;
/** The longest one tool may run: a long meeting takes a while to encode on 2 cores. */
const TOOL_TIMEOUT_MS = 3 * 60 * 60_000;

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

export interface ProcessInput {
  /** Janus's rec_dir. */
  rawDir: string;
  /** The recording's file name prefix (its id): `<name>-<n>-{audio,video}-<mindex>.mjr`. */
  name: string;
  outFile: string;
  startedAt: Date;
  endedAt: Date;
  tools: RecordingTools;
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
}

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

/** The grid's cells for n videos: columns × rows, filled row by row. */
export function gridOf(n: number): { cols: number; rows: number; cell: { w: number; h: number } } {
  if (n <= 1) return { cols: 1, rows: 1, cell: SINGLE };
  const cols = Math.ceil(Math.sqrt(n));
  return { cols, rows: Math.ceil(n / cols), cell: CELL };
}

/**
 * ffmpeg's arguments for the tracks: audio delayed to its offset and mixed; each person's video
 * segments laid over a black cell at their offsets (black before and after), the cells stacked;
 * the whole cut to the recording's length. No audio: silence; no video: a black picture.
 */
export function ffmpegArgs(tracks: Track[], totalMs: number, outFile: string): string[] {
  const audio = tracks.filter((t) => t.kind === 'audio');
  // One cell per person, in the order they first appear; their segments (a reload publishes
  // again) are laid over a black cell at their own offsets.
  const cells = new Map<string, Track[]>();
  for (const t of tracks.filter((x) => x.kind === 'video').sort((a, b) => a.offsetMs - b.offsetMs)) {
    const list = cells.get(t.participant);
    if (list) list.push(t);
    else if (cells.size < MAX_GRID_VIDEOS) cells.set(t.participant, [t]);
  }
  const seconds = (totalMs / 1000).toFixed(3);
  const inputs: string[] = [];
  const filters: string[] = [];
  let i = 0;
  const audioLabels: string[] = [];
  for (const t of audio) {
    inputs.push('-i', t.file);
    const ms = Math.max(0, Math.round(t.offsetMs));
    filters.push(`[${i}:a]aresample=48000,aformat=channel_layouts=stereo,adelay=${ms}:all=1,apad[a${i}]`);
    audioLabels.push(`[a${i}]`);
    i++;
  }
  const grid = gridOf(cells.size);
  const { w, h } = grid.cell;
  const videoLabels: string[] = [];
  let c = 0;
  for (const segments of cells.values()) {
    let base = `c${c}b`;
    filters.push(`color=c=black:s=${w}x${h}:r=${FPS}:d=${seconds}[${base}]`);
    segments.forEach((t, k) => {
      inputs.push('-i', t.file);
      const at = (Math.max(0, t.offsetMs) / 1000).toFixed(3);
      filters.push(
        `[${i}:v]fps=${FPS},scale=${w}:${h}:force_original_aspect_ratio=decrease,` +
          `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p,setpts=PTS-STARTPTS+${at}/TB[s${i}]`,
      );
      const out = k === segments.length - 1 ? `v${c}` : `c${c}o${k}`;
      // eof_action=pass: after the segment ends the cell is black again (they left).
      filters.push(`[${base}][s${i}]overlay=eof_action=pass:eval=init[${out}]`);
      base = out;
      i++;
    });
    videoLabels.push(`[v${c}]`);
    c++;
  }
  if (audioLabels.length === 0) {
    filters.push(`anullsrc=r=48000:cl=stereo[aout]`);
  } else if (audioLabels.length === 1) {
    filters.push(`${audioLabels[0]}anull[aout]`);
  } else {
    // normalize=0: each voice at its own level (amix would otherwise divide by the inputs).
    filters.push(`${audioLabels.join('')}amix=inputs=${audioLabels.length}:normalize=0[aout]`);
  }
  if (videoLabels.length === 0) {
    filters.push(`color=c=black:s=${SINGLE.w}x${SINGLE.h}:r=${FPS}[vout]`);
  } else if (videoLabels.length === 1) {
    filters.push(`${videoLabels[0]}null[vout]`);
  } else {
    const layout = videoLabels
      .map((_, k) => `${(k % grid.cols) * w}_${Math.floor(k / grid.cols) * h}`)
      .join('|');
    // A last row with empty cells stays black.
    filters.push(
      `${videoLabels.join('')}xstack=inputs=${videoLabels.length}:layout=${layout}:fill=black[vout]`,
    );
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
    '-c:a',
    'aac',
    '-b:a',
    '128k',
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

/**
 * Makes the one playable file of a recording. Streams Janus opened but wrote no packet to (a
 * camera that never sent) are skipped; a recording with no stream at all fails.
 */
export async function processRecording(input: ProcessInput): Promise<ProcessResult> {
  const { tools } = input;
  const raw = await rawFilesOf(input.rawDir, input.name);
  if (raw.length === 0) throw new Error('Janus wrote no media for this recording');
  const work = await mkdtemp(path.join(os.tmpdir(), 'parley-rec-'));
  try {
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
      const out = path.join(work, `${path.basename(file, '.mjr')}.${ext}`);
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
      });
    }
    if (tracks.length === 0)
      throw new Error(`No stream of the recording could be read (${problems.join('; ')})`);
    const totalMs = input.endedAt.getTime() - input.startedAt.getTime();
    if (totalMs <= 0) throw new Error('The recording has no length');
    const r = await run(tools.ffmpeg, ffmpegArgs(tracks, totalMs, input.outFile));
    if (r.code !== 0) throw new Error(`ffmpeg failed: ${lastLines(r.stderr)}`);
    const durationMs = await probeDurationMs(tools, input.outFile);
    const { size } = await stat(input.outFile);
    return {
      durationMs,
      size,
      streams: {
        audio: tracks.filter((t) => t.kind === 'audio').length,
        video: tracks.filter((t) => t.kind === 'video').length,
      },
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
