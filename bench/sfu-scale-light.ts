/**
 * The largest meeting with real media (issue 17, "Benchmarks"): real Chromium publishers plus
 * receive-only light participants (support/light-peer.ts: werift, one child process) up to 100,
 * every one of them receiving real media from Janus. sfu-scale.ts filled its meeting with
 * signaling-only bots; here each light subscriber joins, publishes nothing, subscribes, and sends
 * the `sfu_view` the app's layout would (grid while nobody spoke and all fit, else the speaker
 * layout's first page: the stage high, six thumbnails low), so the room's rules (`wanted()`,
 * SFU_VIEW, last-N audio) decide what it receives, as for a browser.
 *
 * 1. BENCH_PUBLISHERS browser pages (default: sfu-scale.json's publishersAtFullFrameRate) join
 *    with the e2e camera (320x240 at 15 fps): the host signed in, the others from the link.
 * 2. Light subscribers join in steps up to BENCH_LIGHT_STEPS (total participants, default
 *    "20,40,60,80,100"), each step's newcomers at once. Per step: the time until every light
 *    participant and every page knows the whole roster; the time until every light subscriber has
 *    had audio and video from every publisher; then over BENCH_WINDOW_S (10) seconds: how many
 *    light subscribers received every publisher's audio and video, how many at full rate (each
 *    stream ≥ FULL_RATE_SHARE of the best subscriber's packet rate for that stream), the pages'
 *    received frame rates, and the CPU of Janus, our server, the light process and the machine,
 *    with the memory of each.
 * A step holds when every light subscriber received everything at full rate and every page's
 * slowest received stream kept ≥ FULL_RATE_SHARE of 15 fps. Steps go on past a break (the
 * figures show how it degrades) unless a roster does not converge in 60 s.
 * Writes bench/results/sfu-scale-light.json (`BENCH_RESULT=<name>`: another name, e.g. for another
 * publisher count). As root it runs in a network namespace with the
 * veth Janus gathers on (support/netns.ts). Needs `npm run build` and Debian's janus.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createMeeting, signInAsProHost } from '../e2e/pages/RoomHost.js';
import { RoomPage } from '../e2e/pages/RoomPage.js';
import { cameraContext, launchBrowser } from '../e2e/support/browser.js';
import { cpuSeconds, rssBytes } from '../e2e/support/proc.js';
import { LightCrowd, type CrowdReport, type PeerSpec } from './support/light-crowd.js';
import { reexecInNetns } from './support/netns.js';
import { benchRoot, recordResult } from './support/results.js';
import { startSfuBenchServer } from './support/server.js';
import { inboundVideo, waitRemoteFrames } from './support/sfu-pages.js';

reexecInNetns(fileURLToPath(import.meta.url), { janus: true });

function heldBefore(): number {
  try {
    const f = JSON.parse(readFileSync(path.join(benchRoot, 'results', 'sfu-scale.json'), 'utf8')) as {
      publishersAtFullFrameRate?: number;
    };
    return f.publishersAtFullFrameRate ?? 5;
  } catch {
    return 5;
  }
}
const PUBLISHERS = Number(process.env.BENCH_PUBLISHERS ?? heldBefore());
const STEPS = (process.env.BENCH_LIGHT_STEPS ?? '20,40,60,80,100').split(',').map(Number);
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 10);
const CAMERA = { width: 320, height: 240, frameRate: 15 };
const FULL_RATE_SHARE = 0.9;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const loadAverage = () => os.loadavg().map((l) => round(l, 2));
const median = (xs: number[]) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length ? (v[(v.length - 1) >> 1]! + v[v.length >> 1]!) / 2 : NaN;
};
/**
 * The machine's busy CPU time so far, seconds (all cores), from /proc/stat: user, nice, system,
 * irq and softirq (guest time is already in user; steal is time the machine did not get).
 */
function machineBusySeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = f;
  return (user + nice + system + irq + softirq) / 100;
}

const { server, build, janusPid } = await startSfuBenchServer();
const loadBefore = loadAverage();
const browser = await launchBrowser();
const crowd = await LightCrowd.start(null);
const pages: { page: Page; room: RoomPage; id: string }[] = [];
let figures: Record<string, unknown> | undefined;

/** Over the window: CPU shares, and each page's received video frame rates. */
async function measure(subscribers: Set<number>, publisherIds: string[]) {
  const pids = { janus: janusPid, server: server.pid, lightPeers: crowd.pid };
  // The readings of the pages and the light process take time of their own: the CPU window is
  // between them, and each reading's rate is over its own span.
  const v0 = await Promise.all(pages.map((p) => inboundVideo(p.page)));
  const tv0 = performance.now();
  const r0 = await crowd.report();
  const tr0 = performance.now();
  const c0 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const m0 = machineBusySeconds();
  const t0 = performance.now();
  await sleep(WINDOW_S * 1000);
  const c1 = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuSeconds(pid)]));
  const m1 = machineBusySeconds();
  const seconds = (performance.now() - t0) / 1000;
  const r1 = await crowd.report();
  const lightSeconds = (performance.now() - tr0) / 1000;
  const core = Object.fromEntries(
    Object.entries(pids).map(([k]) => [k, round((c1[k]! - c0[k]!) / seconds)]),
  ) as Record<keyof typeof pids, number>;
  const v1 = await Promise.all(pages.map((p) => inboundVideo(p.page)));
  const pageSeconds = (performance.now() - tv0) / 1000;
  const fps = v1.flatMap((list, i) =>
    list
      .map((a) => {
        const b = v0[i]!.find((x) => x.mid === a.mid) ?? { frames: 0, bytes: 0 };
        return {
          fps: (a.frames - b.frames) / pageSeconds,
          kbps: ((a.bytes - b.bytes) * 8) / 1000 / pageSeconds,
        };
      })
      .filter((s) => s.kbps > 1)
      .map((s) => s.fps),
  );
  return {
    core,
    machineCores: round((m1 - m0) / seconds, 2),
    pageStreams: fps.length,
    pageMinFps: fps.length ? round(Math.min(...fps), 1) : 0,
    pageMedianFps: fps.length ? round(median(fps), 1) : 0,
    light: lightCoverage(r0, r1, subscribers, publisherIds, lightSeconds),
    lightRssMiB: round(r1.rssBytes / 2 ** 20, 1),
  };
}

/** What the light subscribers received over the window, per publisher's audio and video. */
function lightCoverage(r0: CrowdReport, r1: CrowdReport, subs: Set<number>, from: string[], seconds: number) {
  const keys = from.flatMap((id) => [`${id}/audio`, `${id}/video`]);
  const rates = new Map<number, Map<string, number>>();
  for (const p of r1.peers.filter((x) => subs.has(x.index))) {
    const b = r0.peers.find((x) => x.index === p.index);
    rates.set(
      p.index,
      new Map(
        keys.map((k) => [k, ((p.received[k]?.packets ?? 0) - (b?.received[k]?.packets ?? 0)) / seconds]),
      ),
    );
  }
  // The best subscribers' rate for each stream (its 90th percentile): what Janus sends it at.
  const best = new Map(
    keys.map((k) => {
      const v = [...rates.values()].map((m) => m.get(k)!).sort((a, b) => a - b);
      return [k, v[Math.min(v.length - 1, Math.floor(v.length * 0.9))] ?? 0];
    }),
  );
  let everything = 0;
  let fullRate = 0;
  let audioAll = 0;
  let videoAll = 0;
  for (const m of rates.values()) {
    const got = (k: string) => m.get(k)! > 0;
    if (keys.every(got)) everything += 1;
    if (keys.filter((k) => k.endsWith('/audio')).every(got)) audioAll += 1;
    if (keys.filter((k) => k.endsWith('/video')).every(got)) videoAll += 1;
    if (keys.every((k) => best.get(k)! > 0 && m.get(k)! >= FULL_RATE_SHARE * best.get(k)!)) fullRate += 1;
  }
  const videoPps = [...rates.values()].flatMap((m) =>
    keys.filter((k) => k.endsWith('/video')).map((k) => m.get(k)!),
  );
  const audioPps = [...rates.values()].flatMap((m) =>
    keys.filter((k) => k.endsWith('/audio')).map((k) => m.get(k)!),
  );
  return {
    subscribers: rates.size,
    receivedEveryPublisherAudioAndVideo: everything,
    receivedEveryPublisherAudio: audioAll,
    receivedEveryPublisherVideo: videoAll,
    atFullRate: fullRate,
    videoPacketsPerSecondPerStream: {
      min: round(Math.min(...videoPps), 1),
      median: round(median(videoPps), 1),
      best: round(Math.max(...videoPps), 1),
    },
    audioPacketsPerSecondPerStream: {
      min: round(Math.min(...audioPps), 1),
      median: round(median(audioPps), 1),
    },
  };
}

try {
  // 1. The browser publishers.
  const hostCtx = await cameraContext(browser, server.url, CAMERA);
  const hostPage = await hostCtx.newPage();
  await signInAsProHost(hostPage, {
    email: 'scale-light@example.com',
    firstName: 'Scale',
    lastName: 'Light',
  });
  const meetingId = await createMeeting(hostPage, { title: 'SFU scale, light', maxParticipants: 100 });
  const host = new RoomPage(hostPage);
  await host.open(meetingId, { name: 'Publisher 1', host: true });
  await host.waitJoined();
  pages.push({ page: hostPage, room: host, id: (await host.selfId())! });
  while (pages.length < PUBLISHERS) {
    const ctx = await cameraContext(browser, server.url, CAMERA);
    const page = await ctx.newPage();
    const room = new RoomPage(page);
    await room.open(meetingId, { name: `Publisher ${pages.length + 1}` });
    await room.waitJoined();
    pages.push({ page, room, id: (await room.selfId())! });
    await waitRemoteFrames(
      pages.map((p) => p.page),
      pages.length - 1,
    );
  }
  const publisherIds = pages.map((p) => p.id);
  await sleep(3000);
  const alone = await measure(new Set(), publisherIds);
  console.log(
    `${PUBLISHERS} browser publishers alone: slowest received ${alone.pageMinFps} fps; janus ${alone.core.janus}, server ${alone.core.server}, machine ${alone.machineCores} cores`,
  );

  // 2. Light subscribers in steps.
  const subscribers = new Set<number>();
  const steps: Record<string, unknown>[] = [];
  let index = 0;
  for (const total of STEPS) {
    const add: PeerSpec[] = [];
    while (PUBLISHERS + subscribers.size + add.length < total) {
      index += 1;
      add.push({ index, name: `Light ${index}`, publish: false, subscribe: true });
    }
    for (const a of add) subscribers.add(a.index);
    const serverRss0 = rssBytes(server.pid);
    const janusRss0 = rssBytes(janusPid);
    const started = performance.now();
    await crowd.join(server.url, meetingId, add);
    const label = `${total} participants`;
    let rosterMs: number | null = null;
    let mediaMs: number | null = null;
    let lightRosterMs: number | null = null;
    let last: CrowdReport | null = null;
    for (;;) {
      const r = await crowd.report();
      last = r;
      const subs = r.peers.filter((p) => subscribers.has(p.index));
      if (lightRosterMs === null && subs.every((p) => p.knows >= total - 1))
        lightRosterMs = performance.now() - started;
      if (rosterMs === null && lightRosterMs !== null) {
        const counts = await Promise.all(
          pages.map((p) => p.room.participantCount.textContent().catch(() => '')),
        );
        if (counts.every((t) => t === label)) rosterMs = performance.now() - started;
      }
      if (
        mediaMs === null &&
        subs.every((p) => publisherIds.every((id) => p.received[`${id}/audio`] && p.received[`${id}/video`]))
      )
        mediaMs = performance.now() - started;
      if (rosterMs !== null && mediaMs !== null) break;
      if (performance.now() - started > 60_000) break;
      await sleep(100);
    }
    const subs = last!.peers.filter((p) => subscribers.has(p.index));
    const missing = subs.filter(
      (p) => !publisherIds.every((id) => p.received[`${id}/audio`] && p.received[`${id}/video`]),
    );
    await sleep(3000);
    const m = await measure(subscribers, publisherIds);
    const holds =
      m.light.atFullRate === subscribers.size && m.pageMinFps >= CAMERA.frameRate * FULL_RATE_SHARE;
    const views = [...new Set(subs.map((p) => p.view))];
    const step = {
      participants: total,
      browserPublishers: PUBLISHERS,
      lightSubscribers: subscribers.size,
      joinedAtOnce: add.length,
      rosterMs: rosterMs === null ? null : Math.round(rosterMs),
      lightRosterMs: lightRosterMs === null ? null : Math.round(lightRosterMs),
      everySubscriberHadAllMediaMs: mediaMs === null ? null : Math.round(mediaMs),
      subscribersWithoutAllMediaAfter60s: mediaMs === null ? missing.length : 0,
      ...m,
      serverRssMiB: round(rssBytes(server.pid) / 2 ** 20, 1),
      serverRssAddedMiB: round((rssBytes(server.pid) - serverRss0) / 2 ** 20, 1),
      janusRssMiB: round(rssBytes(janusPid) / 2 ** 20, 1),
      janusRssAddedMiB: round((rssBytes(janusPid) - janusRss0) / 2 ** 20, 1),
      lightViewsSent:
        views.length <= 3 ? views.map((v) => JSON.parse(v || '[]') as unknown) : `${views.length} different`,
      lightErrors: subs.flatMap((p) => p.errors).slice(0, 10),
      loadAverage1m: loadAverage()[0],
      holds,
    };
    steps.push(step);
    console.log(
      `${total} participants (${subscribers.size} light): roster ${step.rosterMs} ms, all media ${step.everySubscriberHadAllMediaMs} ms; ${m.light.receivedEveryPublisherAudioAndVideo}/${subscribers.size} got every publisher's audio and video, ${m.light.atFullRate} at full rate; pages' slowest ${m.pageMinFps} fps; janus ${m.core.janus}, server ${m.core.server}, light ${m.core.lightPeers}, machine ${m.machineCores} cores: ${holds ? 'holds' : 'BREAKS'}`,
    );
    if (rosterMs === null) {
      console.log('the roster did not converge in 60 s: stopping');
      break;
    }
  }
  const held = steps.filter((s) => s.holds).map((s) => s.participants as number);
  figures = {
    commit: build.commit,
    build: build.dir ? { privateBuild: build.dir, uncommittedAtBuild: build.dirty } : 'npm run build',
    loopbackNamespace: process.env.PARLEY_NETNS === '1',
    windowSeconds: WINDOW_S,
    browserPublishers: PUBLISHERS,
    camera: `fake, ${CAMERA.width}x${CAMERA.height} at ${CAMERA.frameRate} fps`,
    // Two participants talk peer-to-peer (the SFU from three): nothing comes through Janus yet.
    publishersAlone:
      PUBLISHERS >= 3 ? alone : { ...alone, note: 'peer-to-peer: the meeting moves to the SFU at 3' },
    steps,
    largestHoldingMeeting: held.length ? Math.max(...held) : null,
    firstBreakingMeeting: (steps.find((s) => !s.holds)?.participants as number | undefined) ?? null,
    holdsMeans: `every light subscriber received every publisher's audio and video, each stream at ≥ ${FULL_RATE_SHARE * 100}% of the best subscriber's packet rate for it, and every page's slowest received video ≥ ${FULL_RATE_SHARE * CAMERA.frameRate} fps`,
    method:
      'Real Chromium pages (fake camera 320x240 at 15 fps, simulcast as the app sends it) publish; every other participant is a light subscriber: a werift (pure-TypeScript WebRTC) client in one Node child process that joins through POST /join and the room socket, sends sfu_subscribe and the sfu_view the app’s layout would, answers Janus’s offers and counts the RTP packets it receives per publisher’s audio and video (it decodes nothing). CPU: /proc utime+stime per process over the window as a share of one core; machineCores: all busy CPU of the machine (both cores, other users included) from /proc/stat.',
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
else console.log(`recorded ${recordResult(process.env.BENCH_RESULT ?? 'sfu-scale-light', figures)}`);
