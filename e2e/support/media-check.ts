import type { RemoteMediaSample, RoomPage } from '../pages/RoomPage.js';

/** A remote participant whose media a page should receive, named by id or by display name. */
export interface ExpectedRemote {
  id?: string;
  name?: string;
  /**
   * Whether their microphone is on. True (the default): their audio must be heard, its energy
   * rising by at least AUDIO_ENERGY_MIN over the window. False: they joined or were made muted, so
   * their audio must stay below that (silence), which also proves the threshold means something.
   */
  audio?: boolean;
}

export interface MediaCheckOptions {
  /** How long to wait for every expected participant's connection, tile and first frame. */
  connectTimeoutMs?: number;
  /** How long media may take to show the rises below, measured from the first full sample. */
  windowMs?: number;
  /** Whether the expected list must be every remote tile the page shows (default true). */
  allRemotes?: boolean;
}

/** Video frames decoded from one participant over the window (the fake camera sends 30 fps). */
export const FRAMES_DECODED_MIN = 15;
/** Frames one participant's tile `<video>` must present over the window. */
export const TILE_FRAMES_MIN = 10;
/**
 * totalAudioEnergy one participant's inbound audio must gain over the window. Measured on this
 * 2-core machine under load (about 20), Chromium's fake microphone heard through a remote tile:
 * +0.117 every 0.5 s, +0.235 a second (2.10 over 8.2 s); the same path from a muted microphone:
 * +0.00000 over 9 s (3e-9 in all). 0.05 is a fifth of a second of the beeping microphone and
 * about ten million times what silence gives.
 */
export const AUDIO_ENERGY_MIN = 0.05;

const POLL_MS = 400;
/** The shortest window over which a muted participant must stay silent. */
const SILENCE_MS = 2_000;

export interface RemoteMediaResult {
  id: string;
  name: string;
  framesDecoded: number;
  tileFrames: number;
  audioEnergy: number;
}

function label(e: ExpectedRemote): string {
  return e.name ?? e.id ?? '?';
}

function find(samples: RemoteMediaSample[], e: ExpectedRemote): RemoteMediaSample | undefined {
  return samples.find((s) => (e.id ? s.id === e.id : s.name === e.name));
}

function who(s: RemoteMediaSample): string {
  return `${s.name ?? '?'} (${s.id})`;
}

/** Why a participant is not ready to be measured yet (no connection, no tile, no frame), or null. */
function notReady(s: RemoteMediaSample | undefined): string | null {
  if (!s) return 'not in the room';
  if (s.connection !== 'connected') return `peer connection ${s.connection ?? 'missing'}`;
  if (!s.tile) return 'no tile';
  if (!s.tile.hasStream) return 'tile <video> has no stream';
  if (s.framesDecoded === 0) return 'no video frame decoded';
  if (s.tile.presentedFrames < 0) return 'tile <video> has presented no frame';
  return null;
}

interface Rise {
  framesDecoded: number;
  tileFrames: number;
  audioEnergy: number;
}

function rise(before: RemoteMediaSample, after: RemoteMediaSample): Rise {
  const sameElement = before.tile && after.tile && before.tile.element === after.tile.element;
  const shown = after.tile?.presentedFrames ?? 0;
  // A count that went down restarted: the same element was given a new stream in the window (a
  // resubscription after Janus restarted, 2026-11-27), so everything it shows now is new.
  const restarted = sameElement && shown < before.tile!.presentedFrames;
  return {
    framesDecoded: after.framesDecoded - before.framesDecoded,
    tileFrames: shown - (sameElement && !restarted ? before.tile!.presentedFrames : 0),
    audioEnergy: after.audioEnergy - before.audioEnergy,
  };
}

/** What stalled for one participant, empty when their media flowed as expected. */
function stalls(e: ExpectedRemote, r: Rise, s: RemoteMediaSample): string[] {
  const out: string[] = [];
  if (s.connection !== 'connected') out.push(`peer connection went ${s.connection ?? 'away'}`);
  if (r.framesDecoded < FRAMES_DECODED_MIN)
    out.push(`video frames decoded +${r.framesDecoded} (want ≥ +${FRAMES_DECODED_MIN})`);
  if (r.tileFrames < TILE_FRAMES_MIN) {
    const t = s.tile;
    const state = t
      ? `${t.paused ? 'paused' : 'playing'}, currentTime ${t.currentTime.toFixed(1)} s`
      : 'no tile';
    out.push(`tile <video> presented +${r.tileFrames} frames (want ≥ +${TILE_FRAMES_MIN}; ${state})`);
  }
  const energy = r.audioEnergy.toFixed(4);
  if (e.audio !== false && r.audioEnergy < AUDIO_ENERGY_MIN) {
    const why = s.inboundAudio === 0 ? ', no inbound audio stream' : s.tile?.muted ? ', tile muted' : '';
    out.push(`audio energy +${energy} (want ≥ +${AUDIO_ENERGY_MIN}${why})`);
  }
  if (e.audio === false && r.audioEnergy >= AUDIO_ENERGY_MIN)
    out.push(`audio energy +${energy} from a muted microphone (want < +${AUDIO_ENERGY_MIN})`);
  return out;
}

/**
 * Proves that `room` receives media from each of `expected`, one participant at a time, so a
 * frozen camera cannot hide behind a live one: on that participant's own peer connection, inbound
 * video framesDecoded rises by FRAMES_DECODED_MIN; their tile's `<video>` presents TILE_FRAMES_MIN
 * new frames (requestVideoFrameCallback, so a picture stuck on screen fails even if stats move);
 * and their inbound audio energy rises by AUDIO_ENERGY_MIN (or stays below it for a muted mic).
 * Remote audio is decoded only while the tile's element plays unmuted (TESTING-MEDIA.md), so the
 * energy rise also proves the tile plays their sound.
 *
 * Rejects with one line per participant naming them and what stalled, with the numbers.
 */
export async function expectMediaFrom(
  room: RoomPage,
  expected: ExpectedRemote[],
  { connectTimeoutMs = 20_000, windowMs = 6_000, allRemotes = true }: MediaCheckOptions = {},
): Promise<RemoteMediaResult[]> {
  if (expected.length === 0) throw new Error('expectMediaFrom: no participant to check');
  const viewer = (await room.selfId()) ?? 'this page';

  // 1. Every expected participant connected, on a tile, with a first frame; no one else shown.
  let base: RemoteMediaSample[] = [];
  const connectDeadline = Date.now() + connectTimeoutMs;
  for (;;) {
    base = await room.remoteMedia();
    const problems = expected
      .map((e) => [label(e), notReady(find(base, e))] as const)
      .filter(([, p]) => p !== null)
      .map(([n, p]) => `${n}: ${p}`);
    if (allRemotes) {
      const extra = base.filter((s) => s.tile && !expected.some((e) => find([s], e)));
      for (const s of extra) problems.push(`${who(s)}: shown in a tile but not expected`);
    }
    if (problems.length === 0) break;
    if (Date.now() > connectDeadline)
      throw new Error(
        `media into ${viewer}: not ready after ${connectTimeoutMs} ms:\n  ${problems.join('\n  ')}`,
      );
    await new Promise((r) => setTimeout(r, POLL_MS));
  }

  // 2. Every one of them rises over the window.
  let start = Date.now();
  let rebaselines = 0;
  for (;;) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const now = await room.remoteMedia();
    const failing: string[] = [];
    const results: RemoteMediaResult[] = [];
    for (const e of expected) {
      const before = find(base, e)!;
      const after = now.find((s) => s.id === before.id);
      if (!after) {
        failing.push(`${who(before)}: left the room`);
        continue;
      }
      const r = rise(before, after);
      // Counters that went down belong to a new peer connection for the same participant (the
      // app rebuilds a link after a reload or a failed ICE): media must flow on the new one, so
      // the window starts again from it (a few times at most, so a flapping link still fails).
      if ((r.framesDecoded < 0 || r.audioEnergy < 0) && rebaselines < 3) {
        rebaselines += 1;
        base = base.map((b) => (b === before ? after : b));
        start = Date.now();
        failing.push(`${who(after)}: its peer connection was replaced; measuring the new one`);
        continue;
      }
      results.push({ id: after.id, name: after.name ?? label(e), ...r });
      const s = stalls(e, r, after);
      if (s.length > 0) failing.push(`${who(after)}: ${s.join('; ')}`);
    }
    // Silence is judged over at least SILENCE_MS, so it spans several beeps of a live microphone.
    const heardLongEnough = !expected.some((e) => e.audio === false) || Date.now() - start >= SILENCE_MS;
    if (failing.length === 0 && heardLongEnough) return results;
    if (Date.now() - start > windowMs) {
      const seconds = ((Date.now() - start) / 1000).toFixed(1);
      throw new Error(`media into ${viewer} stalled over ${seconds} s:\n  ${failing.join('\n  ')}`);
    }
  }
}
