import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeeting, signInAsProHost } from '../pages/RoomHost.js';
import { RoomPage } from '../pages/RoomPage.js';
import { VIEWPORTS, launchBrowser, newContext, screenshot, watchErrors } from '../support/browser.js';
import { expectMediaFrom } from '../support/media-check.js';
import { eventually } from '../support/poll.js';
import { startServer, type RunningServer } from '../support/server.js';

/** `janus --version` prints the version and exits 1; any output naming it means it is installed. */
const janus = spawnSync('janus', ['--version'], { encoding: 'utf8' });
const installed = !janus.error && /Janus version/.test(`${janus.stdout}${janus.stderr}`);
if (!installed)
  console.warn('SKIPPED sfu.spec.ts: `janus` is not installed (bash scripts/install-system-deps.sh)');

/**
 * Three browsers at 320x240 (TESTING-MEDIA: 2 cores carry 6 such pages through Janus at full
 * frame rate): the camera is asked for at that size before the app's own constraints apply.
 */
async function smallCameraContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const ctx = await newContext(browser, baseURL);
  await ctx.addInitScript(() => {
    const md = navigator.mediaDevices;
    const original = md.getUserMedia.bind(md);
    md.getUserMedia = (c?: MediaStreamConstraints) =>
      original(c?.video ? { ...c, video: { width: 320, height: 240, frameRate: 15 } } : c);
  });
  return ctx;
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

interface SfuView {
  publisher: RTCPeerConnectionState | null;
  subscriber: RTCPeerConnectionState | null;
  streams: number;
  mesh: number;
  /** The publisher's video encodings (simulcast: three rids) as the browser sends them. */
  rids: string[];
}

function sfuView(page: Page): Promise<SfuView> {
  return page.evaluate(async () => {
    const h = window.__parley;
    const sfu = h?.sfu?.() ?? null;
    const rids: string[] = [];
    if (sfu?.publisher) {
      (await sfu.publisher.getStats()).forEach((s: { type: string; kind?: string; rid?: string }) => {
        if (s.type === 'outbound-rtp' && s.kind === 'video' && s.rid) rids.push(s.rid);
      });
    }
    return {
      publisher: sfu?.publisher?.connectionState ?? null,
      subscriber: sfu?.subscriber?.connectionState ?? null,
      streams: sfu?.streams.length ?? 0,
      mesh: h?.peerConnections().length ?? 0,
      rids: rids.sort(),
    };
  });
}

describe.skipIf(!installed)('meetings of three through the Janus SFU', () => {
  let server: RunningServer;
  let browser: Browser;
  const pages: Page[] = [];
  const errors: string[][] = [];
  /** What the pages' SFU code logged (shown when a test fails). */
  const sfuLogs: string[] = [];
  let meetingId: string;
  let host: RoomPage;
  let gus: RoomPage;
  let eve: RoomPage;

  beforeAll(async () => {
    server = await startServer({
      MEDIA_PROVIDER: 'janus',
      // Inside run-e2e.sh's network namespace: Janus gathers on the veth carrying 127.0.0.2.
      JANUS_ICE_ENFORCE_LIST: process.env.E2E_JANUS_IFACE ?? '',
      LOG_LEVEL: 'info',
    });
    browser = await launchBrowser();
    for (let i = 0; i < 3; i++) {
      const page = await (await smallCameraContext(browser, server.url)).newPage();
      errors.push(watchErrors(page));
      page.on('console', (m) => {
        if (m.text().includes('sfu')) sfuLogs.push(`page ${i}: ${m.text()}`);
      });
      pages.push(page);
    }
    await signInAsProHost(pages[0]!, { email: 'sfu-host@example.com', firstName: 'Hana', lastName: 'Host' });
    meetingId = await createMeeting(pages[0]!);
    [host, gus, eve] = pages.map((p) => new RoomPage(p)) as [RoomPage, RoomPage, RoomPage];
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('the server starts its own Janus and says so', () => {
    expect(server.logs.join('')).toContain('meetings of three or more go through our own Janus');
  });

  it('two people talk peer-to-peer', async () => {
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    await gus.open(meetingId);
    await gus.joinFromDialog('Gus');
    await expectMediaFrom(host, [{ name: 'Gus' }]);
    await expectMediaFrom(gus, [{ name: 'Hana' }]);
    const view = await sfuView(pages[0]!);
    expect(view.subscriber).toBeNull();
    expect(view.mesh).toBe(1);
  });

  it('a third moves everyone to the SFU, with no gap in the first two’s video', async () => {
    // Hana's view of Gus, sampled through the switch: the tile must keep presenting frames.
    const samples: { t: number; frames: number; decoded: number }[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = (await host.remoteMedia().catch(() => [])).find((m) => m.name === 'Gus');
        if (s?.tile)
          samples.push({ t: Date.now(), frames: s.tile.presentedFrames, decoded: s.framesDecoded });
        await new Promise((r) => setTimeout(r, 250));
      }
    })();
    const stopSampling = async () => {
      sampling = false;
      await sampler;
    };
    try {
      const opened = Date.now();
      await eve.open(meetingId);
      await eve.joinFromDialog('Eve');
      // Eve's first remote frames, through the SFU (she never has a mesh link).
      const firstFrames = await eventually(
        () => eve.remoteMedia(),
        (list) => list.length === 2 && list.every((s) => s.framesDecoded > 0),
        20_000,
      );
      const eveFirstFrameMs = Date.now() - opened;
      expect(firstFrames).toHaveLength(2);

      // Everyone on the SFU: publisher and subscriber connected, the mesh links closed.
      for (const page of pages) {
        await eventually(
          () => sfuView(page),
          (v) =>
            v.publisher === 'connected' && v.subscriber === 'connected' && v.mesh === 0 && v.streams >= 4,
          20_000,
        );
      }
      // A little longer on the SFU alone, then stop.
      await new Promise((r) => setTimeout(r, 2000));
      await stopSampling();

      // No gap: between consecutive samples Gus's tile on Hana's page kept presenting frames
      // (a remounted <video> restarts its count, which shows as a drop, not as a stall).
      let longestStallMs = 0;
      let stallFrom = samples[0]?.t ?? 0;
      for (let i = 1; i < samples.length; i++) {
        if (samples[i]!.frames !== samples[i - 1]!.frames) stallFrom = samples[i]!.t;
        longestStallMs = Math.max(longestStallMs, samples[i]!.t - stallFrom);
      }
      console.log(
        `sfu switch: Eve's first remote frames ${eveFirstFrameMs} ms after opening the link; ` +
          `Hana's view of Gus longest stall ${longestStallMs} ms over ${samples.length} samples`,
      );
      expect(samples.length).toBeGreaterThan(10);
      expect(longestStallMs).toBeLessThan(1500);

      // Media through Janus only now: frames and audio from each of the other two, on every page.
      await expectMediaFrom(host, [{ name: 'Gus' }, { name: 'Eve' }]);
      await expectMediaFrom(gus, [{ name: 'Hana' }, { name: 'Eve' }]);
      await expectMediaFrom(eve, [{ name: 'Hana' }, { name: 'Gus' }]);
      await expect(host.participantCount.textContent()).resolves.toBe('3 participants');
      // Janus's CPU while it forwards 3 publishers to 2 subscribers each (6 video + 6 audio).
      const pid = Number(/our own Janus \(pid (\d+)/.exec(server.logs.join(''))?.[1]);
      if (pid > 0) {
        const before = cpuSeconds(pid);
        await new Promise((r) => setTimeout(r, 5000));
        const share = (cpuSeconds(pid) - before) / 5;
        console.log(
          `janus cpu: ${(share * 100).toFixed(1)}% of a core over 5 s for 6 forwarded video streams`,
        );
      }
      const views = await Promise.all(pages.map(sfuView));
      console.log(`sfu publishers' simulcast layers: ${views.map((v) => v.rids.join('/')).join(', ')}`);
      for (const v of views) expect(v.rids).toEqual(['h', 'l', 'm']);
      await screenshot(pages[2]!, 'sfu-three-eve-desktop');
      for (const e of errors) expect(e.filter((x) => !x.includes('WebSocket'))).toEqual([]);
    } catch (err) {
      await stopSampling();
      console.log(`server log (last 40 lines):\n${server.logs.join('').split('\n').slice(-40).join('\n')}`);
      console.log(`sfu views: ${JSON.stringify(await Promise.all(pages.map(sfuView)))}`);
      console.log(`page errors: ${JSON.stringify(errors)}\npage sfu logs:\n${sfuLogs.join('\n')}`);
      throw err;
    }
  });

  it('Janus killed mid-meeting: it is restarted and everyone publishes and subscribes again', async () => {
    const pid = Number(/our own Janus \(pid (\d+)/.exec(server.logs.join(''))?.[1]);
    expect(pid).toBeGreaterThan(0);
    // Each page's current subscriber connection, to tell the new one from it afterwards.
    for (const page of pages) {
      await page.evaluate(() => {
        (window as unknown as { __oldSfu?: unknown }).__oldSfu = window.__parley?.sfu?.()?.subscriber;
      });
    }
    const killed = Date.now();
    process.kill(pid, 'SIGKILL');
    for (const page of pages) {
      await page.waitForFunction(
        () => {
          const sub = window.__parley?.sfu?.()?.subscriber;
          return !!sub && sub !== (window as unknown as { __oldSfu?: unknown }).__oldSfu;
        },
        undefined,
        { timeout: 20_000 },
      );
    }
    // Everyone on a new SFU connection, and media from each of the other two again.
    await Promise.all(
      pages.map((page) =>
        eventually(
          () => sfuView(page),
          (v) => v.publisher === 'connected' && v.subscriber === 'connected' && v.streams >= 4,
          20_000,
        ),
      ),
    );
    await expectMediaFrom(host, [{ name: 'Gus' }, { name: 'Eve' }], { windowMs: 3000 });
    await expectMediaFrom(gus, [{ name: 'Hana' }, { name: 'Eve' }], { windowMs: 3000 });
    await expectMediaFrom(eve, [{ name: 'Hana' }, { name: 'Gus' }], { windowMs: 3000 });
    const recoveredMs = Date.now() - killed;
    console.log(`janus recovery: media flowing again on all three pages ${recoveredMs} ms after kill -9`);
    expect(recoveredMs).toBeLessThan(20_000);
  });

  it('a page reload on the SFU rejoins as the same participant, seen and heard again', async () => {
    const gusId = await gus.selfId();
    await pages[1]!.reload();
    await gus.waitJoined();
    await expect(gus.selfId()).resolves.toBe(gusId);
    await expectMediaFrom(gus, [{ name: 'Hana' }, { name: 'Eve' }]);
    await expectMediaFrom(host, [{ id: gusId! }, { name: 'Eve' }]);
    await expectMediaFrom(eve, [{ name: 'Hana' }, { id: gusId! }]);
    // Still no mesh anywhere: the reloaded page came back straight onto the SFU.
    for (const page of pages) await expect(sfuView(page)).resolves.toMatchObject({ mesh: 0 });
  });
});

describe('a server without Janus', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({
      MEDIA_PROVIDER: 'auto',
      JANUS_BIN: '/nonexistent/janus',
      LOG_LEVEL: 'info',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('says so at start-up, keeps meetings peer-to-peer and tells the fifth person why not', async () => {
    expect(server.logs.join('')).toContain('meetings stay peer-to-peer, capped at 4 participants');
    const hostPage = await (await newContext(browser, server.url)).newPage();
    await signInAsProHost(hostPage, { email: 'mesh-host@example.com', firstName: 'Max', lastName: 'Host' });
    const id = await createMeeting(hostPage);
    // Four people in (through the API: their media is not what this test is about).
    const statuses = await hostPage.evaluate(async (meetingId) => {
      const out: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await fetch(`/api/meetings/${meetingId}/join`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `P${i}`, sessionId: `mesh-${i}`, isMuted: true, isVideoOn: false }),
        });
        out.push(res.status);
      }
      return out;
    }, id);
    expect(statuses).toEqual([200, 200, 200, 200]);
    for (const viewport of [VIEWPORTS.desktop, VIEWPORTS.phone]) {
      const page = await (await newContext(browser, server.url, viewport)).newPage();
      const fifth = new RoomPage(page);
      await fifth.open(id);
      await fifth.joinFromDialog('Fifth', { waitForRoom: false });
      const screen = page.getByTestId('room-end-full');
      await screen.waitFor();
      await expect(screen.textContent()).resolves.toContain(
        'Without a video server, meetings here hold up to 4 people.',
      );
      await screenshot(page, `sfu-mesh-full-${viewport.width}`);
    }
  });
});
