import type { SpeakerChange } from './speaker-timeline.js';

/**
 * The speaker view of a recording (issue 37 item 9): the active speaker large on a stage, everyone
 * (the speaker too, outlined) in a filmstrip of thumbnails on the right, the stage following the
 * speaker timeline (speaker-timeline.ts). Pure: the timeline becomes, for each segment of the
 * encoding, each participant's time on the stage as ffmpeg `enable` expressions; process.ts builds
 * the filter graph from them.
 */

/** A rectangle of the 1280x720 frame. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** [from, to) in seconds from the segment's start. */
export type Interval = [number, number];

/**
 * The most stage intervals one participant has in one segment: more are merged across the
 * shortest gaps (they then stay on the stage through those gaps' short turns). With the 1.5 s hold
 * a 10-minute segment has at most 400 changes, so about 200 per person: the cap is a safety net.
 */
export const MAX_STAGE_INTERVALS = 200;

const even = (n: number) => Math.floor(n / 2) * 2;

/**
 * The stage and the filmstrip for n cameras (2 to 9) on a 1280x720 frame: a right-hand column
 * of 16:9 tiles (320x180 for up to four, smaller beyond so all fit), vertically centred, and the
 * stage as large a 16:9 picture as the rest of the frame holds (960x540 for up to four).
 */
export function speakerLayout(n: number, frame = { w: 1280, h: 720 }): { stage: Box; tiles: Box[] } {
  const count = Math.max(1, n);
  const th = even(Math.min(180, frame.h / count));
  const tw = even((th * 16) / 9);
  const room = frame.w - tw;
  const sw = even(Math.min(room, (frame.h * 16) / 9));
  const sh = even((sw * 9) / 16);
  const top = even((frame.h - th * count) / 2);
  return {
    stage: { x: even((room - sw) / 2), y: even((frame.h - sh) / 2), w: sw, h: sh },
    tiles: Array.from({ length: count }, (_, k) => ({ x: room, y: top + k * th, w: tw, h: th })),
  };
}

/**
 * Who is on the stage when, over the whole recording (ms): each change's participant from its
 * time to the next change; the first speaker also before anyone spoke (from 0), so the stage is
 * never empty once someone has spoken. Changes to someone without a camera in the recording
 * (`cells`) are skipped: the one before stays on the stage.
 */
export function stageTimeline(
  changes: SpeakerChange[],
  cells: string[],
): { participant: string; fromMs: number; toMs: number }[] {
  const kept: SpeakerChange[] = [];
  for (const c of [...changes].sort((a, b) => a.atMs - b.atMs)) {
    if (!cells.includes(c.participant)) continue;
    if (kept[kept.length - 1]?.participant === c.participant) continue;
    kept.push(c);
  }
  return kept.map((c, k) => ({
    participant: c.participant,
    fromMs: k === 0 ? 0 : c.atMs,
    toMs: kept[k + 1]?.atMs ?? Infinity,
  }));
}

/** Merges overlapping or touching intervals, then the shortest gaps until at most `max` are left. */
export function mergeIntervals(list: Interval[], max = MAX_STAGE_INTERVALS): Interval[] {
  const out: Interval[] = [];
  for (const [a, b] of [...list].sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  while (out.length > Math.max(1, max)) {
    let k = 0;
    for (let j = 1; j < out.length - 1; j++)
      if (out[j + 1]![0] - out[j]![1] < out[k + 1]![0] - out[k]![1]) k = j;
    out[k]![1] = out[k + 1]![1];
    out.splice(k + 1, 1);
  }
  return out;
}

/**
 * Each participant's time on the stage within the window [fromMs, toMs) of the timeline, in
 * seconds from the window's start: intervals crossing the window's edges are clipped, those
 * outside it left out, each participant's merged (and capped). Participants never on the stage in
 * the window are absent.
 */
export function stageIntervals(
  changes: SpeakerChange[],
  cells: string[],
  window: { fromMs: number; toMs: number },
): Map<string, Interval[]> {
  const per = new Map<string, Interval[]>();
  for (const s of stageTimeline(changes, cells)) {
    const from = Math.max(s.fromMs, window.fromMs);
    const to = Math.min(s.toMs, window.toMs);
    if (to <= from) continue;
    const list = per.get(s.participant) ?? [];
    list.push([(from - window.fromMs) / 1000, (to - window.fromMs) / 1000]);
    per.set(s.participant, list);
  }
  for (const [p, list] of per) per.set(p, mergeIntervals(list));
  return per;
}

/** The `enable` expression for the intervals (between() is inclusive at both ends: one frame at a switch). */
export function enableExpression(intervals: Interval[]): string {
  return intervals.map(([a, b]) => `between(t,${a.toFixed(3)},${b.toFixed(3)})`).join('+');
}

/** Whether a recording gets the speaker view: two cameras or more, and someone with one spoke. */
export function usesSpeakerView(changes: SpeakerChange[] | null | undefined, cells: string[]): boolean {
  return cells.length >= 2 && !!changes && stageTimeline(changes, cells).length > 0;
}
