/**
 * The server's memory for one meeting's whiteboard (issue 34, item 3): heap held by the meeting's
 * MeetingDocument (apps/server/src/modules/collaboration/document.ts) for
 * - a board of 10,000 strokes, each an element as the board stores it, sent 100 to a change;
 * - the worst an attacker can send within the item cap: 1,000-item updates of the smallest map
 *   entries until the document refuses (DEFAULT_DOCUMENT_LIMITS.maxDocumentItems);
 * and the time of 30 whole-state answers in a row (late joiners, the stall of the review).
 * RUNS runs each (default 3), medians.
 *
 *   node --import tsx bench/whiteboard-memory.ts
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as Y from 'yjs';
import {
  DEFAULT_DOCUMENT_LIMITS,
  MeetingDocument,
} from '../apps/server/src/modules/collaboration/document.js';
import { recordResult } from './support/results.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
// `npm run bench` starts benchmarks without --expose-gc: turn it on from here.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2;
};
const MB = 1024 * 1024;

function strokes(): { heapMB: number; snapshotMB: number; items: number; syncs30Ms: number } {
  const before = heap();
  const doc = new MeetingDocument(null);
  const client = new Y.Doc();
  const board = client.getMap('whiteboard');
  client.on('update', (u: Uint8Array) => {
    const r = doc.apply(u, 'artist');
    if (!r.ok) throw new Error(r.refusal.message);
  });
  for (let i = 0; i < 10_000; i += 100)
    client.transact(() => {
      for (let k = i; k < i + 100; k++)
        board.set(`el-${k}`, {
          id: `el-${k}`,
          type: k % 3 === 0 ? 'rectangle' : 'freedraw',
          x: k % 800,
          y: Math.floor(k / 800) * 20,
          width: 60,
          height: 40,
          version: 1,
        });
    });
  client.destroy();
  const used = heap() - before;
  const snapshot = doc.snapshot();
  doc.apply(
    Y.encodeStateAsUpdate(
      (() => {
        const d = new Y.Doc();
        d.getMap('whiteboard').set('one-more', { id: 'one-more' });
        return d;
      })(),
    ),
    'artist',
  ); // a change: the cached answer is made again by the first sync
  const empty = Y.encodeStateVector(new Y.Doc());
  const t0 = performance.now();
  for (let i = 0; i < 30; i++) doc.diff(empty);
  const syncs30Ms = performance.now() - t0;
  const items = doc.items;
  doc.destroy();
  return { heapMB: used / MB, snapshotMB: snapshot.length / MB, items, syncs30Ms };
}

function attack(): { heapMB: number; snapshotMB: number; items: number; refusedAfterUpdates: number } {
  const before = heap();
  const doc = new MeetingDocument(null);
  let updates = 0;
  for (;;) {
    const d = new Y.Doc();
    const m = d.getMap('whiteboard');
    d.transact(() => {
      for (let i = 0; i < DEFAULT_DOCUMENT_LIMITS.maxItemsPerUpdate; i++) m.set(`k${updates}-${i}`, i);
    });
    const r = doc.apply(Y.encodeStateAsUpdate(d), 'mallory');
    d.destroy();
    if (!r.ok) break;
    updates++;
  }
  const used = heap() - before;
  const snapshot = doc.snapshot();
  const items = doc.items;
  doc.destroy();
  return { heapMB: used / MB, snapshotMB: snapshot.length / MB, items, refusedAfterUpdates: updates };
}

const s = Array.from({ length: RUNS }, strokes);
const a = Array.from({ length: RUNS }, attack);
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const figures = {
  runs: RUNS,
  strokes10k: {
    heapMB: round(median(s.map((x) => x.heapMB))),
    snapshotMB: round(median(s.map((x) => x.snapshotMB)), 2),
    items: s[0]!.items,
    thirtyWholeStateAnswersMs: round(median(s.map((x) => x.syncs30Ms))),
  },
  attackAtItemCap: {
    heapMB: round(median(a.map((x) => x.heapMB))),
    snapshotMB: round(median(a.map((x) => x.snapshotMB)), 2),
    items: a[0]!.items,
    acceptedUpdates: a[0]!.refusedAfterUpdates,
  },
  limits: DEFAULT_DOCUMENT_LIMITS,
};
console.log(JSON.stringify(figures, null, 2));
console.log(`written to ${recordResult('whiteboard-memory', figures)}`);
