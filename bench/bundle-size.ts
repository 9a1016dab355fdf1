/**
 * The landing route's initial JavaScript and CSS, gzip bytes (budget 170 KB): every script,
 * modulepreload and stylesheet that apps/web/dist/index.html loads before any lazy route. Also
 * what the server sends a browser that takes Brotli: the build's `.br` copy of each file where
 * there is one (apps/web/vite.config.ts `precompress`), else the file itself.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { recordResult, repoRoot } from './support/results.js';

const BUDGET_BYTES = 170 * 1024;
const dist = path.join(repoRoot, 'apps/web/dist');
const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
const refs = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
const files = [...new Set(refs)].map((ref) => {
  const buf = readFileSync(path.join(dist, ref));
  const br = path.join(dist, `${ref}.br`);
  const sentBrotli = existsSync(br) ? statSync(br).size : buf.length;
  return { file: ref, bytes: buf.length, gzipBytes: gzipSync(buf, { level: 9 }).length, sentBrotli };
});
const sent = files.reduce((s, f) => s + f.sentBrotli, 0);
const total = files.reduce((s, f) => s + f.gzipBytes, 0);
const js = files.filter((f) => f.file.endsWith('.js')).reduce((s, f) => s + f.gzipBytes, 0);
const css = total - js;

console.log('landing route, initial assets (gzip):');
for (const f of files)
  console.log(`  ${f.file}  ${(f.gzipBytes / 1024).toFixed(1)} KB (raw ${(f.bytes / 1024).toFixed(1)} KB)`);
console.log(
  `  total ${(total / 1024).toFixed(1)} KB (JS ${(js / 1024).toFixed(1)} KB, CSS ${(css / 1024).toFixed(1)} KB); budget ${BUDGET_BYTES / 1024} KB: ${total <= BUDGET_BYTES ? 'within' : 'OVER'}`,
);
console.log(`  sent to a browser that takes Brotli: ${(sent / 1024).toFixed(1)} KB`);
const out = recordResult('bundle-size', {
  budgetGzipBytes: BUDGET_BYTES,
  totalGzipBytes: total,
  jsGzipBytes: js,
  cssGzipBytes: css,
  withinBudget: total <= BUDGET_BYTES,
  sentBrotliBytes: sent,
  files,
});
console.log(`recorded ${path.relative(repoRoot, out)}`);
if (total > BUDGET_BYTES) process.exitCode = 1;
