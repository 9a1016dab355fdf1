// Bundles the server into dist/main.js. Dependencies stay in node_modules; the workspace's own
// protocol package is compiled in (it ships TypeScript source). The speech decoder's worker
// thread is an entry point of its own (dist/pocketsphinx-worker.js): a worker runs a file, and
// providers/speech/pocketsphinx-pool.ts looks for it beside main.js; so is the summariser's
// (dist/summary-worker.js, providers/summaries/worker.ts).
// `node build.mjs --outdir <dir>` builds elsewhere (a private build beside a running one).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const outdirAt = process.argv.indexOf('--outdir');
const outdir = outdirAt > 0 ? process.argv[outdirAt + 1] : 'dist';
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@parley/'));

await build({
  entryPoints: {
    main: 'src/main.ts',
    'pocketsphinx-worker': 'src/providers/speech/pocketsphinx-worker.ts',
    'summary-worker': 'src/providers/summaries/summary-worker.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, ...external.map((d) => `${d}/*`)],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
