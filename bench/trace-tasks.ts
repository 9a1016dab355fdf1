/**
 * Reads a trace written by `BENCH_TRACE=<dir>` (bench/join-to-first-frame.ts) and prints, on the
 * measured page's clock (ms from its navigation to /meeting/…), the main thread's tasks over
 * `minMs` (default 15) with what they spent their time on (script, React's microtasks, style,
 * layout, paint), interleaved with the probe's steps (`bench:` marks: socket messages, peer
 * connections, frames). It shows what a step waited behind.
 *
 *   node --import tsx bench/trace-tasks.ts /tmp/trace/sfu4light-3.json [minMs]
 */
import fs from 'node:fs';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: { documentLoaderURL?: string; type?: string; url?: string; functionName?: string } };
}

const WORK = [
  'EvaluateScript',
  'v8.compile',
  'v8.compileModule',
  'v8.evaluateModule',
  'FunctionCall',
  'RunMicrotasks',
  'UpdateLayoutTree',
  'Layout',
  'PrePaint',
  'Paint',
  'Layerize',
  'ParseHTML',
  'ParseAuthorStyleSheet',
  'MinorGC',
  'MajorGC',
];
const ENTRY = ['FunctionCall', 'EventDispatch', 'TimerFire', 'EvaluateScript', 'v8.evaluateModule'];

const [file, minArg = '15'] = process.argv.slice(2);
if (!file) throw new Error('usage: trace-tasks.ts <trace.json> [minMs]');
const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
const thread = (e: TraceEvent) => `${e.pid}:${e.tid}`;
const marks = events.filter((e) => e.name.startsWith('bench:'));
if (marks.length === 0) throw new Error('no bench: marks in this trace (a page without the probe?)');
const main = thread(marks[0]!);
const mine = events.filter((e) => thread(e) === main);
const nav = events.find(
  (e) => e.name === 'navigationStart' && (e.args?.data?.documentLoaderURL ?? '').includes('/meeting/'),
);
if (!nav) throw new Error('no navigation to /meeting/ in this trace');
const ms = (ts: number) => ((ts - nav.ts) / 1000).toFixed(0).padStart(6);
const end = (e: TraceEvent) => e.ts + (e.dur ?? 0);

// Top-level tasks (a task nested in another is counted in it), from the navigation on.
const isTask = (e: TraceEvent) =>
  e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ts >= nav.ts;
const all = mine.filter(isTask);
const tasks = all.filter(
  (t) =>
    (t.dur ?? 0) / 1000 >= Number(minArg) &&
    !all.some(
      (o) => o !== t && o.ts <= t.ts && end(o) >= end(t) && (o.ts < t.ts || (o.dur ?? 0) > (t.dur ?? 0)),
    ),
);
const rows: [number, string][] = [];
let total = 0;
for (const t of tasks) {
  const inside = mine.filter((e) => e.ph === 'X' && e !== t && e.ts >= t.ts && end(e) <= end(t));
  const by = new Map<string, number>();
  for (const e of inside)
    if (WORK.includes(e.name)) by.set(e.name, (by.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
  const what = [...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(', ');
  const first = inside
    .filter((e) => ENTRY.includes(e.name))
    .slice(0, 2)
    .map((e) => {
      const d = e.args?.data;
      const url = d?.url ? `:${d.url.split('/').pop()}` : '';
      return `${e.name}${d?.type ? `:${d.type}` : ''}${url}${d?.functionName ? `:${d.functionName}` : ''}`;
    });
  const dur = (t.dur ?? 0) / 1000;
  total += dur;
  rows.push([t.ts, `${ms(t.ts)} TASK +${dur.toFixed(0).padStart(4)}  ${what}  [${first.join(' ')}]`]);
}
for (const m of marks)
  if (!m.name.startsWith('bench:long:')) rows.push([m.ts, `${ms(m.ts)}   ${m.name.slice(6)}`]);
for (const [, line] of rows.sort((a, b) => a[0] - b[0])) console.log(line);
console.log(`tasks over ${minArg} ms after the navigation: ${tasks.length}, ${total.toFixed(0)} ms in all`);
