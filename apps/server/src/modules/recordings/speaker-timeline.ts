import { readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The active speaker over a recording's timeline (issue 37 item 9), kept while the room records
 * and written beside Janus's raw files (`<name>-speakers.json`), so a restart of the server
 * between the recording and its processing keeps it. Post-processing (speaker-view.ts) puts each
 * speaker on the stage from the moment they started talking.
 */

/** Someone became the active speaker `atMs` after the recording's start. */
export interface SpeakerChange {
  /** As in the raw files' names (participantOf). */
  participant: string;
  atMs: number;
}

/**
 * A new speaker must hold the floor this long before the stage is theirs; a change back within
 * it is no change (no flicker). Janus's talking events are already half a second of audio.
 */
export const SPEAKER_HOLD_MS = 1500;
/** The most changes kept per recording (about 4 hours of a change every 3 s); later ones are ignored. */
export const MAX_SPEAKER_CHANGES = 5000;

/** A participant id as the raw files' names carry it (JanusRecordings' nextFile). */
export const fileIdOf = (participantId: string) => participantId.replace(/[^A-Za-z0-9-]/g, '');

/** What the file holds: the changes that held, and the last one, still on probation. */
export interface SpeakerFile {
  version: 1;
  changes: SpeakerChange[];
  pending: SpeakerChange | null;
}

/**
 * The recording side: Janus's active speaker changes in, a bounded list of the changes that held
 * out. Times are passed in (ms since the recording's start), so it runs without timers.
 */
export class SpeakerTimeline {
  readonly changes: SpeakerChange[] = [];
  /** The newest change, kept only once it has held SPEAKER_HOLD_MS (`heard` or `resolved`). */
  pending: SpeakerChange | null = null;

  constructor(
    private readonly holdMs = SPEAKER_HOLD_MS,
    private readonly max = MAX_SPEAKER_CHANGES,
  ) {}

  private get current(): string | null {
    return this.changes[this.changes.length - 1]?.participant ?? null;
  }

  /** The one speaking when the recording started: on the stage from its start, no probation. */
  start(participantId: string): void {
    if (this.changes.length === 0) this.changes.push({ participant: fileIdOf(participantId), atMs: 0 });
  }

  /**
   * The room's active speaker changed (null: the last one left; the stage stays theirs). Answers
   * whether the file should be written again.
   */
  heard(participantId: string | null, atMs: number): boolean {
    let changed = this.commitIfHeld(atMs);
    if (participantId === null) return changed;
    const who = fileIdOf(participantId);
    if (this.changes.length >= this.max) {
      changed ||= this.pending !== null;
      this.pending = null;
      return changed;
    }
    if (who === this.current) {
      // Back to the one on the stage before the newcomer held the floor.
      changed ||= this.pending !== null;
      this.pending = null;
    } else if (who !== this.pending?.participant) {
      this.pending = { participant: who, atMs: Math.max(0, Math.round(atMs)) };
      changed = true;
    }
    return changed;
  }

  private commitIfHeld(atMs: number): boolean {
    const p = this.pending;
    if (!p || atMs - p.atMs < this.holdMs) return false;
    this.pending = null;
    if (p.participant === this.current || this.changes.length >= this.max) return true;
    this.changes.push(p);
    return true;
  }

  toJSON(): SpeakerFile {
    return { version: 1, changes: this.changes, pending: this.pending };
  }
}

/** The changes of a file, the pending one included when it held until the recording's end. */
export function resolvedChanges(file: SpeakerFile, endMs: number, holdMs = SPEAKER_HOLD_MS): SpeakerChange[] {
  const out = file.changes.slice(0, MAX_SPEAKER_CHANGES);
  const p = file.pending;
  if (p && endMs - p.atMs >= holdMs && p.participant !== out[out.length - 1]?.participant) out.push(p);
  return out;
}

/** Where a recording's speaker timeline is kept: beside its raw files. */
export const speakersFileOf = (rawDir: string, name: string) => path.join(rawDir, `${name}-speakers.json`);

/** Writes the file whole (through a temporary file: a crash mid-write leaves the previous one). */
export async function writeSpeakers(file: string, timeline: SpeakerTimeline): Promise<void> {
  const tmp = `${file}.tmp`;
  await writeFile(tmp, JSON.stringify(timeline));
  await rename(tmp, file);
}

const isChange = (c: unknown): c is SpeakerChange =>
  typeof c === 'object' &&
  c !== null &&
  typeof (c as SpeakerChange).participant === 'string' &&
  typeof (c as SpeakerChange).atMs === 'number' &&
  Number.isFinite((c as SpeakerChange).atMs);

/**
 * A recording's speaker changes, in time order, up to `endMs`; null when it has no file (a
 * recording made before the speaker view) or the file cannot be read: the grid then.
 */
export async function readSpeakers(file: string, endMs: number): Promise<SpeakerChange[] | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    return null;
  }
  const f = parsed as Partial<SpeakerFile> | null;
  if (!f || f.version !== 1 || !Array.isArray(f.changes)) return null;
  const changes = f.changes.filter(isChange).sort((a, b) => a.atMs - b.atMs);
  const pending = isChange(f.pending) ? f.pending : null;
  return resolvedChanges({ version: 1, changes, pending }, endMs).filter((c) => c.atMs < endMs);
}
