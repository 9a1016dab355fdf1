/**
 * `npm run bench`: runs every benchmark under bench/ in turn (each prints its figures and writes
 * bench/results/<name>.json). Needs a production build (`npm run build`). Name benchmarks to run
 * only those: `npm run bench -- bundle-size http-load`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { benchRoot } from './support/results.js';

const ALL = [
  'bundle-size',
  'http-load',
  'ws-room',
  'chat-load',
  'cluster-failover',
  'join-to-first-frame',
  'sfu-scale',
  'light-peer-cost',
  'sfu-scale-light',
  'speech-wer',
  'caption-latency',
  'translation',
  'summaries',
  'summary-load',
  'background-effects',
  'whiteboard-sync',
  'whiteboard-memory',
];
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ALL;
let failed = 0;
for (const name of wanted) {
  const file = path.join(benchRoot, `${name}.ts`);
  if (!existsSync(file)) {
    console.log(`\n== ${name}: not present, skipped`);
    continue;
  }
  console.log(`\n== ${name}`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) failed += 1;
}
process.exit(failed ? 1 : 0);
