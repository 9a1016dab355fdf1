/**
 * What one light participant (support/light-peer.ts: werift, no encoder or decoder) costs, and
 * whether what it sends is real media, on the Janus SFU of the production build:
 *
 * 1. The light process (support/light-crowd.ts) with the shared encoder running and no peer: the
 *    baseline (the fan-out of packets nobody takes), and ffmpeg's own CPU.
 * 2. BENCH_LIGHT_PUBLISHERS (4) light publishers join (the host with the signed-in host's session,
 *    then guests), publishing only: the light process's CPU over the baseline, per publisher.
 * 3. Light subscribers (receive only) join in steps (BENCH_LIGHT_SUBSCRIBERS, "20,40" in all):
 *    each step's added CPU per added subscriber, and per received stream; every subscriber must
 *    receive audio and video packets (and VP8 key frames) from every light publisher.
 * 4. A real Chromium page opens the meeting link: its decoded frames from each light publisher's
 *    video must rise (getStats framesDecoded) — Janus took the light media and a browser decodes it.
 * Janus's and our server's CPU are read beside each window. Writes bench/results/light-peer-cost.json.
 * As root it runs in a network namespace with the veth Janus gathers on (support/netns.ts).
 */
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createMeeting, signInAsProHost } from '../e2e/pages/RoomHost.js';
import { RoomPage } from '../e2e/pages/RoomPage.js';
import { cameraContext, launchBrowser, newContext } from '../e2e/support/browser.js';
import { cpuSeconds, rssBytes } from '../e2e/support/proc.js';
import { LightCrowd, type CrowdReport, type PeerSpec } from './support/light-crowd.js';
import { reexecInNetns } from './support/netns.js';
import { recordResult } from './support/results.js';
import { startSfuBenchServer } from './support/server.js';
import { inboundVideo, waitRemoteFrames } from './support/sfu-pages.js';

reexecInNetns(fileURLToPath(import.meta.url), { janus: true });

const PUBLISHERS = Number(process.env.BENCH_LIGHT_PUBLISHERS ?? 4);
const SUBSCRIBER_STEPS = (process.env.BENCH_LIGHT_SUBSCRIBERS ?? '20,40').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 10);
/** A stream arrived whole when it brought this share of the packets the encoder made. */
const FULL_RATE_SHARE = 0.9;
const MEDIA = { width: 320, height: 240, fps: 15, gop: 1, videoBitrate: 300_000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d;
const loadAverage = () => os.loadavg().map((l) => round(l, 2));

const { server, build, janusPid } = await startSfuBenchServer();
const loadBefore = loadAverage();
const browser = await launchBrowser();
const crowd = await LightCrowd.start(MEDIA);
let figures: Record<string, unknown> | undefined;

/** CPU (share of a core) of each process over one window, and what the peers received in it. */
async function window_(ffmpegPid: number) {
  const pids = { peers: crowd.pid, encoder: ffmpegPid, janus: janusPid, server: server.pid };
  // The light process's reports take time of their own: the CPU window is between them.
  const r0 = await crowd.report();
  const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  const after = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const seconds = (performance.now() - t0) / 1000;
  const r1 = await crowd.report();
  const core = Object.fromEntries(
    Object.entries(pids).map(([k]) => [k, round((after[k]! - before[k]!) / seconds)]),
  ) as Record<keyof typeof pids, number>;
  return { core, seconds, r0, r1 };
}

/** Per subscriber: packets in the window from each `from` participant's audio and video. */
function coverage(r0: CrowdReport, r1: CrowdReport, subscribers: Set<number>, from: string[]) {
  let complete = 0;
  let withKeyFrames = 0;
  const videoPps: number[] = [];
  for (const p of r1.peers.filter((x) => subscribers.has(x.index))) {
    const b = r0.peers.find((x) => x.index === p.index);
    const delta = (key: string, f: 'packets' | 'keyFrames') =>
      (p.received[key]?.[f] ?? 0) - (b?.received[key]?.[f] ?? 0);
    if (from.every((id) => delta(`${id}/audio`, 'packets') > 0 && delta(`${id}/video`, 'packets') > 0))
      complete += 1;
    if (from.every((id) => delta(`${id}/video`, 'keyFrames') > 0)) withKeyFrames += 1;
    for (const id of from) videoPps.push(delta(`${id}/video`, 'packets'));
  }
  return { complete, withKeyFrames, videoPackets: videoPps };
}

try {
  const ctx = await newContext(browser, server.url);
  const hostPage = await ctx.newPage();
  await signInAsProHost(hostPage, { email: 'light-cost@example.com', firstName: 'Light', lastName: 'Cost' });
  const meetingId = await createMeeting(hostPage, { title: 'Light peer cost', maxParticipants: 100 });
  const cookie = (await ctx.cookies()).map((c) => `${c.name}=${c.value}`).join('; ');
  await hostPage.goto('/');
  const ffmpegPid = (await crowd.report()).ffmpegPid ?? -1;

  // 1. The encoder alone.
  await sleep(3000);
  const base = await window_(ffmpegPid);
  console.log(
    `encoder running, no peer: light process ${base.core.peers}, ffmpeg ${base.core.encoder} of a core`,
  );

  // 2. Light publishers (publish only).
  const pubSpecs: PeerSpec[] = Array.from({ length: PUBLISHERS }, (_, k) => ({
    index: k + 1,
    name: k === 0 ? 'Light Host' : `Light Publisher ${k + 1}`,
    publish: true,
    subscribe: false,
    ...(k === 0 ? { isHost: true, cookie } : {}),
  }));
  const pubIds: string[] = [];
  for (const spec of pubSpecs) pubIds.push(...(await crowd.join(server.url, meetingId, [spec])));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await crowd.report();
    if (r.peers.every((p) => p.marks['publisher:connected'])) break;
    if (Date.now() > deadline)
      throw new Error(
        `publishers not connected: ${JSON.stringify(r.peers.map((p) => [p.name, Object.keys(p.marks), p.errors]))}`,
      );
    await sleep(200);
  }
  await sleep(3000);
  const pubs = await window_(ffmpegPid);
  const perPublisher = (pubs.core.peers - base.core.peers) / PUBLISHERS;
  console.log(
    `${PUBLISHERS} light publishers: light process ${pubs.core.peers} of a core, ${round(perPublisher * 100, 2)}% per publisher; janus ${pubs.core.janus}`,
  );

  // 3. Light subscribers in steps.
  const steps: Record<string, unknown>[] = [];
  const subscribers = new Set<number>();
  let previous = pubs;
  let previousCount = 0;
  /** The largest step where every stream came whole, and its cost per subscriber over publishing. */
  let lastFull: { subscribers: number; coreSharePerSubscriber: number } | null = null;
  for (const total of SUBSCRIBER_STEPS) {
    const add: PeerSpec[] = [];
    for (let k = previousCount; k < total; k++) {
      const index = 100 + k;
      subscribers.add(index);
      add.push({ index, name: `Light Viewer ${k + 1}`, publish: false, subscribe: true });
    }
    await crowd.join(server.url, meetingId, add);
    const until = Date.now() + 60_000;
    for (;;) {
      const r = await crowd.report();
      const ready = r.peers
        .filter((p) => subscribers.has(p.index))
        .every((p) => pubIds.every((id) => p.received[`${id}/video`] && p.received[`${id}/audio`]));
      if (ready || Date.now() > until) break;
      await sleep(250);
    }
    await sleep(3000);
    const w = await window_(ffmpegPid);
    const cov = coverage(w.r0, w.r1, subscribers, pubIds);
    const added = total - previousCount;
    const perSubscriber = (w.core.peers - previous.core.peers) / added;
    const streamsPerSubscriber = pubIds.length * 2;
    const pkts = [...cov.videoPackets].sort((a, b) => a - b);
    // What the encoder made over the same span: each stream's packets should all arrive.
    const made = (w.r1.produced?.videoPackets ?? 0) - (w.r0.produced?.videoPackets ?? 0);
    const fullRate = (pkts[0] ?? 0) >= FULL_RATE_SHARE * made;
    steps.push({
      subscribers: total,
      receivedStreamsEach: streamsPerSubscriber,
      core: w.core,
      coreSharePerAddedSubscriber: round(perSubscriber),
      coreSharePerReceivedStream: round(perSubscriber / streamsPerSubscriber, 5),
      subscribersWithAllMedia: cov.complete,
      subscribersWithKeyFramesFromAll: cov.withKeyFrames,
      videoPacketsPerStreamInWindow: { min: pkts[0] ?? 0, median: pkts[pkts.length >> 1] ?? 0 },
      encoderVideoPacketsInWindow: made,
      everyStreamAtFullRate: fullRate,
      lightProcessRssMiB: round(w.r1.rssBytes / 2 ** 20, 1),
      loadAverage1m: loadAverage()[0],
    });
    if (fullRate)
      lastFull = {
        subscribers: total,
        coreSharePerSubscriber: round((w.core.peers - pubs.core.peers) / total),
      };
    console.log(
      `${total} light subscribers${fullRate ? '' : ` (NOT at full rate: slowest stream ${pkts[0]} of ${made} packets)`}: light process ${w.core.peers} of a core (+${round(perSubscriber * 100, 2)}% per added subscriber, ${streamsPerSubscriber} streams each); ${cov.complete}/${total} got audio and video from all ${pubIds.length}; janus ${w.core.janus}, server ${w.core.server}`,
    );
    previous = w;
    previousCount = total;
  }

  // 4. A real browser decodes the light publishers' video.
  const viewerCtx = await cameraContext(browser, server.url);
  const viewer = await viewerCtx.newPage();
  await new RoomPage(viewer).open(meetingId, { name: 'Chromium Viewer' });
  await waitRemoteFrames([viewer], PUBLISHERS);
  const mids = await viewer.evaluate(() => window.__parley?.sfu?.()?.streams ?? []);
  const v0 = await inboundVideo(viewer);
  await sleep(5000);
  const v1 = await inboundVideo(viewer);
  const decoded = pubIds.map((id) => {
    const mid = mids.find((m) => m.participantId === id && m.kind === 'video')?.mid;
    const a = v1.find((v) => v.mid === mid);
    const b = v0.find((v) => v.mid === mid);
    return {
      participantId: id,
      framesDecodedIn5s: a && b ? a.frames - b.frames : null,
      width: a?.width ?? null,
    };
  });
  console.log(`a Chromium page decodes the light publishers: ${JSON.stringify(decoded)}`);
  const final = await crowd.report();

  figures = {
    commit: build.commit,
    build: build.dir ? { privateBuild: build.dir, uncommittedAtBuild: build.dirty } : 'npm run build',
    loopbackNamespace: process.env.PARLEY_NETNS === '1',
    windowSeconds: WINDOW_S,
    media: {
      ...MEDIA,
      note: 'one ffmpeg for every light publisher: testsrc2 VP8 and a tone in Opus, as RTP',
    },
    encoderOnly: base.core,
    publishers: {
      count: PUBLISHERS,
      core: pubs.core,
      coreSharePerPublisher: round(perPublisher),
      keyFrameRequestsFromJanus: final.peers.filter((p) => p.publish).map((p) => p.keyFrameRequests),
    },
    subscriberSteps: steps,
    /** Per subscriber at the largest step where every stream arrived whole (a throttled step is not a cost). */
    subscriberCost: lastFull,
    chromiumDecodesLightPublishers: decoded,
    producedByEncoder: final.produced,
    peerErrors: final.peers.flatMap((p) => p.errors.map((e) => `${p.name}: ${e}`)),
    janusRssMiB: round(rssBytes(janusPid) / 2 ** 20, 1),
    serverRssMiB: round(rssBytes(server.pid) / 2 ** 20, 1),
    method:
      'Light participants are werift (pure-TypeScript WebRTC) peers in one Node child process; CPU is /proc utime+stime of that process (and of ffmpeg, Janus, our server) over each window, as a share of one core. Per publisher: (publishers window − encoder-only window) / publishers. Per subscriber: the step’s added CPU / added subscribers, and subscriberCost: the light process over the publishers’ window / subscribers at the largest step where every stream brought ≥ 90% of the packets the encoder made (a step that lost packets is throttled, not cheap); each subscriber receives the audio and video of every light publisher (the room’s view rules: fewer than SFU_VIEW.maxVideos publishers, nobody speaking). Finally a real Chromium page joins from the link and its framesDecoded per light publisher is read over 5 s.',
    loadAverage: { before: loadBefore, after: loadAverage() },
  };
} finally {
  await crowd.stop();
  await browser.close();
  await server.stop();
}
if (!figures) throw new Error('no figures');
console.log(JSON.stringify(figures, null, 2));
if (process.env.BENCH_NO_RECORD) console.log('not recorded (BENCH_NO_RECORD)');
else console.log(`recorded ${recordResult('light-peer-cost', figures)}`);
