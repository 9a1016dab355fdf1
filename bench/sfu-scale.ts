/**
 * Meetings on the Janus SFU (issue 17, "Benchmarks"), against the production build with its own
 * Janus, real Chromium pages with the fake camera in a private network namespace:
 *
 * 1. Janus CPU per forwarded video stream at each simulcast layer, in a first meeting of
 *    BENCH_LAYER_PUBLISHERS (4) pages whose camera gives BENCH_LAYER_CAMERA (1280x720) at 30 fps
 *    (Chromium sends all three layers only from 960x540 up; at the app's own 640x480 it sends
 *    two: the publishers' outbound layers are listed). Each page's `sfu_view` is replaced
 *    (through Playwright's WebSocket routing, on the way to the server) by one asking for every
 *    other participant at one quality, so Janus forwards n·(n−1) video streams at that layer; or
 *    for none (audio only, the baseline). Janus's CPU over BENCH_WINDOW_S (10) seconds in each
 *    state, the cycle repeated BENCH_LAYER_ROUNDS (2) times; minus the baseline, per forwarded
 *    stream. The server's CPU beside it (our signaling must add nothing on the media path); the
 *    received frame widths and bitrates show which layer came.
 * 2. The most real publishers this machine carries at full frame rate, in a second meeting with
 *    the e2e suite's camera (320x240 at 15 fps): pages are added one at a time (the app's own
 *    layout and `sfu_view`) up to BENCH_MAX_PUBLISHERS (8); after each, every page's received
 *    video frame rate over the window. A count holds when the slowest received stream keeps
 *    ≥ FULL_RATE_SHARE of the frames sent (the machine's 2 cores also encode and decode every
 *    page: this is where the machine breaks, not Janus). The ramp stops at the first count that
 *    does not hold; its pages stay in the meeting.
 * 3. Signaling-only participants (bots: POST /join and the room's socket, no media) join that
 *    meeting up to BENCH_PARTICIPANTS (100) in all: the time until every bot and every page knows
 *    the whole roster, then the server's and Janus's CPU and memory and the pages' frame rates.
 *
 * From the per-stream cost it estimates what one 16-core Janus host would carry (80% of it for
 * forwarding). Writes bench/results/sfu-scale.json. As root it runs in a network namespace with
 * the veth Janus gathers on (bench/support/netns.ts). Needs `npm run build` and Debian's janus.
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { createMeeting, signInAsProHost } from '../e2e/pages/RoomHost.js';
import { RoomPage } from '../e2e/pages/RoomPage.js';
import { cameraContext, launchBrowser } from '../e2e/support/browser.js';
import { cpuSeconds, rssBytes } from '../e2e/support/proc.js';
import { Participant } from './support/bots.js';
import { inboundVideo, waitRemoteFrames } from './support/sfu-pages.js';
import { reexecInNetns } from './support/netns.js';
import { recordResult } from './support/results.js';
import { startSfuBenchServer } from './support/server.js';

reexecInNetns(fileURLToPath(import.meta.url), { janus: true });

const LAYER_PUBLISHERS = Number(process.env.BENCH_LAYER_PUBLISHERS ?? 4);
const LAYER_ROUNDS = Number(process.env.BENCH_LAYER_ROUNDS ?? 2);
const [LAYER_WIDTH = 1280, LAYER_HEIGHT = 720] = (process.env.BENCH_LAYER_CAMERA ?? '1280x720')
  .split('x')
  .map(Number);
const MAX_PUBLISHERS = Number(process.env.BENCH_MAX_PUBLISHERS ?? 8);
const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 100);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 10);
const LAYER_CAMERA = { width: LAYER_WIDTH, height: LAYER_HEIGHT, frameRate: 30 };
/** The ramp's camera: the e2e suite's (TESTING-MEDIA: 6 such pages through Janus on 2 cores). */
const RAMP_CAMERA = { width: 320, height: 240, frameRate: 15 };
/** A stream arrives at "full frame rate" when it keeps this share of the frames sent. */
const FULL_RATE_SHARE = 0.9;
/** One big Janus host: cores, and the share of them given to forwarding. */
const HOST_CORES = 16;
const HOST_USABLE = 0.8;
/** What each participant of a large meeting receives (SFU_VIEW): the stage and 6 thumbnails. */
const THUMBNAILS = 6;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const loadAverage = () => os.loadavg().map((l) => round(l));
type Quality = 'high' | 'medium' | 'low';
type Camera = typeof RAMP_CAMERA;

interface Publisher {
  page: Page;
  room: RoomPage;
  id: string;
  /** The page's socket as the server sees it (to send it a replaced `sfu_view`). */
  toServer: WebSocketRoute | null;
}

/** Whether the pages' own `sfu_view` goes through (false while a layer is forced). */
let appViews = true;

async function addPublisher(browser: Browser, url: string, camera: Camera): Promise<Publisher> {
  const ctx = await cameraContext(browser, url, camera);
  const pub: Publisher = { page: null!, room: null!, id: '', toServer: null };
  await ctx.routeWebSocket(/\/ws(\?|$)/, (ws) => {
    const server = ws.connectToServer();
    pub.toServer = server;
    ws.onMessage((message) => {
      if (!appViews && typeof message === 'string' && message.includes('"type":"sfu_view"')) return;
      server.send(message);
    });
  });
  pub.page = await ctx.newPage();
  pub.room = new RoomPage(pub.page);
  return pub;
}

/** The layers a publisher sends: rid, width and frames a second (an inactive layer sends none). */
function outboundLayers(page: Page): Promise<{ rid: string; width: number; fps: number }[]> {
  return page.evaluate(async () => {
    const pub = window.__parley?.sfu?.()?.publisher;
    const out: { rid: string; width: number; fps: number }[] = [];
    if (!pub) return out;
    (await pub.getStats()).forEach(
      (s: { type: string; kind?: string; rid?: string; frameWidth?: number; framesPerSecond?: number }) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video')
          out.push({ rid: s.rid ?? '-', width: s.frameWidth ?? 0, fps: s.framesPerSecond ?? 0 });
      },
    );
    return out.sort((a, b) => b.width - a.width);
  });
}

/**
 * Over the window: Janus's and the server's share of a core, and each page's received video
 * (per stream: frames a second, width, kbit/s).
 */
async function measure(janusPid: number, serverPid: number, pubs: Publisher[]) {
  const before = await Promise.all(pubs.map((p) => inboundVideo(p.page)));
  const j0 = cpuSeconds(janusPid);
  const s0 = cpuSeconds(serverPid);
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  const j1 = cpuSeconds(janusPid);
  const s1 = cpuSeconds(serverPid);
  const after = await Promise.all(pubs.map((p) => inboundVideo(p.page)));
  const seconds = (performance.now() - t0) / 1000;
  const streams = after.map((list, i) =>
    list
      .map((a) => {
        const b = before[i]!.find((x) => x.mid === a.mid) ?? { frames: 0, bytes: 0 };
        return {
          fps: (a.frames - b.frames) / seconds,
          width: a.width,
          kbps: ((a.bytes - b.bytes) * 8) / 1000 / seconds,
        };
      })
      // A stream no longer sent (a tile off its page, a layer change's old m-line) is not counted.
      .filter((s) => s.kbps > 1),
  );
  const all = streams.flat();
  return {
    janusCore: (j1 - j0) / seconds,
    serverCore: (s1 - s0) / seconds,
    receivedStreams: all.length,
    minFps: all.length ? Math.min(...all.map((s) => s.fps)) : 0,
    medianFps: all.length ? all.map((s) => s.fps).sort((a, b) => a - b)[all.length >> 1]! : 0,
    widths: [...new Set(all.map((s) => s.width))].sort((a, b) => a - b),
    meanKbps: all.length ? all.reduce((n, s) => n + s.kbps, 0) / all.length : 0,
  };
}

/** Replaces every page's view: every other publisher at `quality` (null: no video at all). */
function forceView(pubs: Publisher[], quality: Quality | null): void {
  appViews = false;
  for (const p of pubs) {
    const videos = quality ? pubs.filter((o) => o !== p).map((o) => ({ participantId: o.id, quality })) : [];
    p.toServer?.send(JSON.stringify({ type: 'sfu_view', videos }));
  }
}

const loadBefore = loadAverage();
const { server, build, janusPid } = await startSfuBenchServer();
const browser = await launchBrowser();
const bots: Participant[] = [];
const pubs: Publisher[] = [];
let figures: Record<string, unknown> | undefined;
try {
  /** A signed-in host's page in a new meeting, joined and publishing. */
  let hosts = 0;
  const hostMeeting = async (camera: Camera, title: string) => {
    const host = await addPublisher(browser, server.url, camera);
    // A host of its own per meeting (signing in again would buy Pro a second time).
    hosts += 1;
    await signInAsProHost(host.page, {
      email: `scale-host-${hosts}@example.com`,
      firstName: 'Scale',
      lastName: 'Host',
    });
    const meetingId = await createMeeting(host.page, { title, maxParticipants: PARTICIPANTS });
    await host.room.open(meetingId, { name: 'Publisher 1', host: true });
    await host.room.waitJoined();
    host.id = (await host.room.selfId())!;
    pubs.push(host);
    return meetingId;
  };
  const join = async (meetingId: string, camera: Camera) => {
    const p = await addPublisher(browser, server.url, camera);
    await p.room.open(meetingId, { name: `Publisher ${pubs.length + 1}` });
    await p.room.waitJoined();
    p.id = (await p.room.selfId())!;
    pubs.push(p);
    await waitRemoteFrames(
      pubs.map((p) => p.page),
      pubs.length - 1,
    );
  };

  // 1. Janus CPU per forwarded stream, per layer.
  const layersMeeting = await hostMeeting(LAYER_CAMERA, 'SFU scale: layers');
  while (pubs.length < LAYER_PUBLISHERS) await join(layersMeeting, LAYER_CAMERA);
  const streams = pubs.length * (pubs.length - 1);
  await sleep(3000);
  const sent = await outboundLayers(pubs[0]!.page);
  console.log(`publisher 1 sends: ${sent.map((l) => `${l.rid} ${l.width} px ${l.fps} fps`).join(', ')}`);
  type Measured = Awaited<ReturnType<typeof measure>>;
  const rounds: Record<Quality | 'none', Measured[]> = { none: [], low: [], medium: [], high: [] };
  for (let r = 0; r < LAYER_ROUNDS; r++) {
    for (const quality of [null, 'low', 'medium', 'high'] as const) {
      forceView(pubs, quality);
      await sleep(5000);
      const m = await measure(janusPid, server.pid, pubs);
      rounds[quality ?? 'none'].push(m);
      console.log(
        `round ${r + 1}, ${quality ?? 'audio only'}: ${m.receivedStreams} video streams at ${m.widths.join('/') || '-'} px, ${round(m.meanKbps, 0)} kbit/s each: janus ${round(m.janusCore * 100, 2)}% of a core; server ${round(m.serverCore * 100, 2)}%`,
      );
    }
  }
  const noneCore = mean(rounds.none.map((m) => m.janusCore));
  const layerOf = (quality: Quality) => {
    const ms = rounds[quality];
    return {
      forwardedVideoStreams: streams,
      janusCoreShareRounds: ms.map((m) => round(m.janusCore, 4)),
      janusCoreSharePerStream: round((mean(ms.map((m) => m.janusCore)) - noneCore) / streams, 5),
      serverCoreShareRounds: ms.map((m) => round(m.serverCore, 4)),
      receivedWidths: [...new Set(ms.flatMap((m) => m.widths))].sort((a, b) => a - b),
      meanKbpsPerStream: round(mean(ms.map((m) => m.meanKbps)), 1),
      medianFps: round(mean(ms.map((m) => m.medianFps)), 1),
    };
  };
  const layers = { low: layerOf('low'), medium: layerOf('medium'), high: layerOf('high') };
  for (const q of ['low', 'medium', 'high'] as const) {
    console.log(
      `${q}: ${round(layers[q].janusCoreSharePerStream * 100, 3)}% of a core per forwarded stream over audio only (${layers[q].receivedWidths.join('/')} px, ${layers[q].meanKbpsPerStream} kbit/s)`,
    );
  }
  appViews = true;
  for (const p of pubs.splice(0)) await p.page.context().close();

  // 2. Publishers one at a time, with the app's own layout, until the frame rate goes.
  const meetingId = await hostMeeting(RAMP_CAMERA, 'SFU scale: meeting');
  await join(meetingId, RAMP_CAMERA);
  await join(meetingId, RAMP_CAMERA);
  await sleep(3000);
  const ramp: Record<string, unknown>[] = [];
  let held = 0;
  for (;;) {
    const m = await measure(janusPid, server.pid, pubs);
    const holds = m.minFps >= RAMP_CAMERA.frameRate * FULL_RATE_SHARE;
    ramp.push({
      publishers: pubs.length,
      receivedStreams: m.receivedStreams,
      minFps: round(m.minFps, 1),
      medianFps: round(m.medianFps, 1),
      janusCoreShare: round(m.janusCore, 3),
      serverCoreShare: round(m.serverCore, 3),
      loadAverage1m: loadAverage()[0],
      fullFrameRate: holds,
    });
    console.log(
      `${pubs.length} publishers: received ${m.receivedStreams} video streams, slowest ${round(m.minFps, 1)} fps, median ${round(m.medianFps, 1)} fps of ${RAMP_CAMERA.frameRate}: ${holds ? 'holds' : 'below full frame rate'}`,
    );
    if (holds) held = pubs.length;
    if (!holds || pubs.length >= MAX_PUBLISHERS) break;
    await join(meetingId, RAMP_CAMERA);
    await sleep(3000);
  }

  // The page that broke the frame rate leaves (at once: leave_meeting, no resume grace), so the
  // meeting goes on with the publishers the machine carries.
  while (pubs.length > Math.max(held, 1)) {
    const p = pubs.pop()!;
    p.toServer?.send(JSON.stringify({ type: 'leave_meeting' }));
    await sleep(500);
    await p.page.context().close();
  }
  await sleep(5000);

  // 3. Signaling-only participants up to PARTICIPANTS in all.
  const botCount = PARTICIPANTS - pubs.length;
  const serverRssBefore = rssBytes(server.pid);
  const janusRssBefore = rssBytes(janusPid);
  const started = performance.now();
  for (let i = 0; i < botCount; i++) bots.push(new Participant());
  await Promise.all(bots.map((b, i) => b.join(server.url, meetingId, i)));
  const label = `${PARTICIPANTS} participants`;
  let botsMs: number | null = null;
  let rosterFailure: Record<string, unknown> | null = null;
  for (;;) {
    const botsKnow = bots.every((b) => b.others.size >= PARTICIPANTS - 1);
    if (botsKnow) botsMs ??= performance.now() - started;
    const counts = await Promise.all(pubs.map((p) => p.room.participantCount.textContent().catch(() => '')));
    if (botsKnow && counts.every((t) => t === label)) break;
    if (performance.now() - started > 60_000) {
      // Recorded as it is (a bench that throws records nothing): who did not get in, and why.
      const out = bots.filter((b) => b.others.size < PARTICIPANTS - 1);
      rosterFailure = {
        pages: counts,
        botsMissing: out.length,
        closes: out.map((b) => ({ knew: b.others.size, closed: b.closed, error: b.error })),
      };
      console.log(`the roster did not converge in 60 s: ${JSON.stringify(rosterFailure)}`);
      break;
    }
    await sleep(20);
  }
  const rosterMs = performance.now() - started;
  console.log(
    `${botCount} bots joined beside ${pubs.length} publishers: everyone knew all ${PARTICIPANTS} in ${Math.round(rosterMs)} ms (every bot in ${Math.round(botsMs ?? NaN)} ms)`,
  );
  await sleep(3000);
  const full = await measure(janusPid, server.pid, pubs);
  const meeting = {
    publishers: pubs.length,
    signalingOnly: botCount,
    rosterMs: rosterFailure ? null : Math.round(rosterMs),
    rosterFailure,
    /** When every bot knew everyone (the pages' own count came at rosterMs). */
    botsRosterMs: Math.round(botsMs ?? NaN),
    serverCoreShare: round(full.serverCore, 3),
    janusCoreShare: round(full.janusCore, 3),
    serverRssMiB: round(rssBytes(server.pid) / 2 ** 20, 1),
    serverRssAddedMiB: round((rssBytes(server.pid) - serverRssBefore) / 2 ** 20, 1),
    janusRssMiB: round(rssBytes(janusPid) / 2 ** 20, 1),
    janusRssAddedMiB: round((rssBytes(janusPid) - janusRssBefore) / 2 ** 20, 1),
    minFps: round(full.minFps, 1),
    medianFps: round(full.medianFps, 1),
  };
  console.log(
    `with ${PARTICIPANTS} in the meeting: server ${round(full.serverCore * 100, 1)}% of a core, ${meeting.serverRssMiB} MiB; janus ${round(full.janusCore * 100, 1)}%, ${meeting.janusRssMiB} MiB; slowest stream ${meeting.minFps} fps`,
  );

  // The estimate: forwarding cost per stream at the layers a large meeting uses.
  const per = (q: Quality) => layers[q].janusCoreSharePerStream;
  const budget = HOST_CORES * HOST_USABLE;
  const meetingCost = PARTICIPANTS * (per('high') + THUMBNAILS * per('low'));
  figures = {
    commit: build.commit,
    build: build.dir ? { privateBuild: build.dir, uncommittedAtBuild: build.dirty } : 'npm run build',
    loopbackNamespace: process.env.PARLEY_NETNS === '1',
    windowSeconds: WINDOW_S,
    layerPublishers: {
      count: LAYER_PUBLISHERS,
      camera: `fake, ${LAYER_WIDTH}x${LAYER_HEIGHT} at ${LAYER_CAMERA.frameRate} fps`,
      sentLayers: sent,
      rounds: LAYER_ROUNDS,
      audioOnlyJanusCoreShareRounds: rounds.none.map((m) => round(m.janusCore, 4)),
      audioOnlyServerCoreShareRounds: rounds.none.map((m) => round(m.serverCore, 4)),
    },
    layers,
    ramp,
    rampCamera: `fake, ${RAMP_CAMERA.width}x${RAMP_CAMERA.height} at ${RAMP_CAMERA.frameRate} fps`,
    publishersAtFullFrameRate: held,
    fullFrameRateMeans: `every received video stream ≥ ${FULL_RATE_SHARE * RAMP_CAMERA.frameRate} fps (of ${RAMP_CAMERA.frameRate} sent)`,
    meeting,
    estimate: {
      hostCores: HOST_CORES,
      usableShare: HOST_USABLE,
      streamsPerHostLow: per('low') > 0 ? Math.floor(budget / per('low')) : null,
      streamsPerHostHigh: per('high') > 0 ? Math.floor(budget / per('high')) : null,
      meetingsOfThisSizePerHost: meetingCost > 0 ? round(budget / meetingCost, 1) : null,
      assumption: `each of ${PARTICIPANTS} receives the speaker at the high layer and ${THUMBNAILS} thumbnails at the low layer; audio and our signaling left out (measured above)`,
    },
    loadAverage: { before: loadBefore, after: loadAverage() },
  };
} finally {
  for (const b of bots) b.ws?.terminate();
  await browser.close();
  await server.stop();
}
if (!figures) throw new Error('no figures');
console.log(JSON.stringify(figures, null, 2));
if (process.env.BENCH_NO_RECORD) console.log('not recorded (BENCH_NO_RECORD)');
else console.log(`recorded ${recordResult('sfu-scale', figures)}`);
