/**
 * The shared whiteboard (issue 14), two figures:
 *
 * - stroke-to-render latency between two browsers on loopback: a Pro host and a guest, each in
 *   its own Chromium, both on the Collaborate area's whiteboard. The host draws a rectangle with
 *   the mouse (pointer down, one move to the far corner, up); the clock starts at the host page's
 *   `pointermove` that gives the rectangle its final size and stops at the guest's first
 *   animation frame whose whiteboard canvas (Excalidraw's static canvas) has the rectangle's far
 *   corner painted. Both clocks are wall time (performance.timeOrigin + now) on the same machine.
 *   RUNS strokes (default 20), each at a fresh spot. Target: median ≤ 100 ms.
 * - server memory per open document: the server's used JS heap after a full garbage collection
 *   (taken inside the server through its inspector) with DOCS meetings (default 20) whose rooms
 *   are open (one participant each, a plain socket), before and after the same participants load
 *   each meeting's document and write ELEMENTS whiteboard elements into it (default 100, shaped
 *   like Excalidraw's rectangles), divided by DOCS. The server keeps each open document twice
 *   (the document and the mirror it tries updates on) until the room closes.
 *
 * Needs a production build (`npm run build`) or `BENCH_BUILD=bench/dist/<tag>`. As root it runs in
 * a private network namespace (loopback only), like scripts/run-e2e.sh. `BENCH_RUNS`,
 * `BENCH_DOCS`, `BENCH_ELEMENTS`, `BENCH_NO_RECORD=1`.
 */
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { Collaborate } from '../e2e/pages/Collaborate.js';
import { createMeeting, signInAsProHost } from '../e2e/pages/RoomHost.js';
import { RoomPage } from '../e2e/pages/RoomPage.js';
import { freePort } from '../e2e/support/server.js';
import { launchBrowser, newContext } from '../e2e/support/browser.js';
import { connectInspector } from './support/inspector.js';
import { reexecInNetns } from './support/netns.js';
import { recordResult } from './support/results.js';
import { startBenchServer } from './support/server.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const DOCS = Number(process.env.BENCH_DOCS ?? 20);
const ELEMENTS = Number(process.env.BENCH_ELEMENTS ?? 100);
const TARGET_MEDIAN_MS = 100;

reexecInNetns(fileURLToPath(import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function stats(samples: number[]) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  return {
    runs: s.length,
    minMs: round(s[0]!),
    medianMs: round((s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2),
    p90Ms: round(at(0.9)),
    maxMs: round(s[s.length - 1]!),
    samplesMs: samples.map((x) => round(x)),
  };
}

/** The whiteboard's canvas box on a page (the interactive canvas lies over the static one). */
async function canvasBox(page: Page) {
  const box = await page.locator('[data-testid="whiteboard"] canvas.interactive').boundingBox();
  if (!box) throw new Error('no whiteboard canvas');
  return box;
}

/**
 * On the guest page: resolves with the wall time of the first animation frame whose static
 * canvas has a dark pixel in the 9×9 square around (x, y) (CSS pixels from the canvas's corner).
 */
function watchCorner(page: Page, x: number, y: number): Promise<number> {
  // A string, not a function: tsx's name-keeping helper does not exist in the page.
  return page.evaluate(`new Promise((resolve, reject) => {
    const canvas = document.querySelector('[data-testid="whiteboard"] canvas.static');
    const ctx = canvas && canvas.getContext('2d');
    if (!canvas || !ctx) return reject(new Error('no static canvas'));
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const deadline = performance.now() + 10000;
    const look = () => {
      const data = ctx.getImageData(Math.round((${x} - 4) * scale), Math.round((${y} - 4) * scale), 9, 9).data;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i + 3] > 0 && data[i] < 128 && data[i + 1] < 128 && data[i + 2] < 128) {
          return resolve(performance.timeOrigin + performance.now());
        }
      }
      if (performance.now() > deadline) return reject(new Error('the rectangle never appeared'));
      requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  })`);
}

async function latency(baseUrl: string): Promise<number[]> {
  const hostBrowser = await launchBrowser();
  const guestBrowser = await launchBrowser();
  try {
    const hostPage = await (await newContext(hostBrowser, baseUrl)).newPage();
    await signInAsProHost(hostPage, {
      email: 'bench-board@example.com',
      firstName: 'Hana',
      lastName: 'Host',
    });
    const meetingId = await createMeeting(hostPage, { title: 'Whiteboard bench' });
    const guestPage = await (await newContext(guestBrowser, baseUrl)).newPage();
    const host = new RoomPage(hostPage);
    await host.open(meetingId, { name: 'Hana', host: true });
    await host.waitJoined();
    const guest = new RoomPage(guestPage);
    await guest.open(meetingId, { name: 'Gus' });
    await guest.waitJoined();
    const boards = [new Collaborate(hostPage), new Collaborate(guestPage)];
    for (const b of boards) {
      await b.open();
      await b.whiteboard();
    }
    // The stroke's end, on the host page: the pointermove that gives the rectangle its size.
    await hostPage.evaluate(
      `window.addEventListener('pointermove', () => { window.__lastMove = performance.timeOrigin + performance.now(); }, { capture: true })`,
    );
    const hostBox = await canvasBox(hostPage);
    const guestBox = await canvasBox(guestPage);
    const samples: number[] = [];
    const W = 60;
    const H = 40;
    for (let i = 0; i < RUNS + 2; i++) {
      // A grid of fresh spots right of Excalidraw's properties panel, below its toolbar.
      const ox = 260 + (i % 5) * (W + 30);
      const oy = 110 + Math.floor(i / 5) * (H + 30);
      if (
        ox + W + 10 > Math.min(hostBox.width, guestBox.width) ||
        oy + H + 10 > Math.min(hostBox.height, guestBox.height)
      ) {
        throw new Error(`the canvas is too small for ${RUNS} strokes`);
      }
      const seen = watchCorner(guestPage, ox + W, oy + H);
      await hostPage.getByTestId('toolbar-rectangle').locator('..').click();
      await hostPage.mouse.move(hostBox.x + ox, hostBox.y + oy);
      await hostPage.mouse.down();
      await hostPage.mouse.move(hostBox.x + ox + W, hostBox.y + oy + H);
      const stroke = await hostPage.evaluate<number>('window.__lastMove');
      await hostPage.mouse.up();
      const rendered = await seen;
      // The first two strokes warm up (Excalidraw's first paint of a new shape, the sockets).
      if (i >= 2) samples.push(rendered - stroke);
      await sleep(150);
    }
    return samples;
  } finally {
    await hostBrowser.close();
    await guestBrowser.close();
  }
}

interface Member {
  ws: WebSocket;
  next(type: string): Promise<{ type: string }>;
}

/** A participant in a meeting, over a plain socket: its room is open. */
async function enterRoom(baseUrl: string, meetingId: string, i: number): Promise<Member> {
  const join = await fetch(`${baseUrl}/api/meetings/${meetingId}/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: `Doc ${i}`, sessionId: `doc-${i}`, isMuted: true, isVideoOn: false }),
  });
  if (!join.ok) throw new Error(`join ${join.status} ${await join.text()}`);
  const { joinToken } = (await join.json()) as { joinToken: string };
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws?meetingId=${meetingId}&name=Doc&host=false`);
  const messages: { type: string }[] = [];
  ws.on('message', (d) => messages.push(JSON.parse(String(d)) as { type: string }));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const next = async (type: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const k = messages.findIndex((m) => m.type === type);
      if (k >= 0) return messages.splice(k, 1)[0]!;
      if (Date.now() > deadline) throw new Error(`no ${type}`);
      await sleep(5);
    }
  };
  ws.send(JSON.stringify({ type: 'join_meeting', joinToken }));
  await next('joined');
  return { ws, next };
}

/** Loads the meeting's document (a sync request) and writes `elements` whiteboard elements. */
async function fillDocument({ ws, next }: Member, i: number, elements: number): Promise<void> {
  const doc = new Y.Doc();
  const sv = Buffer.from(Y.encodeStateVector(doc)).toString('base64');
  ws.send(JSON.stringify({ type: 'collaboration_update', data: { kind: 'sync_request', stateVector: sv } }));
  await next('collaboration_sync');
  const board = doc.getMap<Record<string, unknown>>('whiteboard');
  // In batches: one update stays under the per-message cap.
  for (let start = 0; start < elements; start += 25) {
    const before = Y.encodeStateVector(doc);
    doc.transact(() => {
      for (let e = start; e < Math.min(elements, start + 25); e++) {
        const id = `el-${i}-${e}`;
        board.set(id, {
          id,
          type: 'rectangle',
          x: (e % 10) * 90,
          y: Math.floor(e / 10) * 60,
          width: 80,
          height: 50,
          angle: 0,
          strokeColor: '#1e1e1e',
          backgroundColor: 'transparent',
          fillStyle: 'solid',
          strokeWidth: 2,
          strokeStyle: 'solid',
          roughness: 1,
          opacity: 100,
          groupIds: [],
          frameId: null,
          index: `a${e.toString(36)}`,
          roundness: { type: 3 },
          seed: 1000 + e,
          version: 3,
          versionNonce: 2000 + e,
          isDeleted: false,
          boundElements: null,
          updated: 1_700_000_000_000,
          link: null,
          locked: false,
        });
      }
    });
    const update = Buffer.from(Y.encodeStateAsUpdate(doc, before)).toString('base64');
    ws.send(JSON.stringify({ type: 'collaboration_update', data: { kind: 'update', update } }));
  }
  // A round trip: every update before it is applied.
  ws.send(JSON.stringify({ type: 'ping', requestId: 'done' }));
  await next('pong');
}

async function memory(baseUrl: string, inspectPort: number, pageForMeetings: Page) {
  const inspector = await connectInspector(inspectPort);
  const members: Member[] = [];
  try {
    const ids: string[] = [];
    for (let i = 0; i < DOCS; i++) ids.push(await createMeeting(pageForMeetings, { title: `Doc ${i}` }));
    // Rooms open (one participant each) without a document, then each document loaded and filled.
    for (let i = 0; i < DOCS; i++) members.push(await enterRoom(baseUrl, ids[i]!, i));
    await sleep(500);
    const before = await inspector.heapUsedAfterGc();
    for (let i = 0; i < DOCS; i++) await fillDocument(members[i]!, i, ELEMENTS);
    await sleep(500);
    const after = await inspector.heapUsedAfterGc();
    return {
      documents: DOCS,
      elementsPerDocument: ELEMENTS,
      heapAfterGcBeforeMiB: round(before / 1024 ** 2, 2),
      heapAfterGcAfterMiB: round(after / 1024 ** 2, 2),
      heapPerDocumentKiB: round((after - before) / DOCS / 1024, 1),
    };
  } finally {
    for (const m of members) m.ws.close();
    inspector.close();
  }
}

const inspectPort = await freePort();
const { server, build } = await startBenchServer({ NODE_OPTIONS: `--inspect=127.0.0.1:${inspectPort}` });
try {
  const samples = await latency(server.url);
  const s = stats(samples);
  console.log(
    `stroke → render: median ${s.medianMs} ms, p90 ${s.p90Ms} ms, max ${s.maxMs} ms over ${s.runs} strokes (target ≤ ${TARGET_MEDIAN_MS} ms)`,
  );
  const browser = await launchBrowser();
  let mem;
  try {
    const page = await (await newContext(browser, server.url)).newPage();
    await signInAsProHost(page, { email: 'bench-docs@example.com', firstName: 'Dora', lastName: 'Docs' });
    mem = await memory(server.url, inspectPort, page);
  } finally {
    await browser.close();
  }
  console.log(
    `server memory: ${mem.heapPerDocumentKiB} KiB of JS heap per open document of ${ELEMENTS} elements (${DOCS} documents)`,
  );
  if (!process.env.BENCH_NO_RECORD) {
    const out = recordResult('whiteboard-sync', {
      build,
      strokeToRender: {
        ...s,
        targetMedianMs: TARGET_MEDIAN_MS,
        withinTarget: s.medianMs <= TARGET_MEDIAN_MS,
      },
      memory: mem,
    });
    console.log(`recorded ${out}`);
  }
} finally {
  await server.stop();
}
