import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { requireCommand, speak, wordOverlap } from './testing/audio.js';

/**
 * In production the server is one esbuild bundle (build.mjs) and the decoder worker an entry
 * point beside it: a bundle built the same way must find and start its worker.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../../..');
const SENTENCE = "Let's review the budget for the next quarter and decide who owns the launch plan.";
let dir: string;

beforeAll(() => {
  requireCommand('flite', 'flite');
  dir = mkdtempSync(path.join(os.tmpdir(), 'parley-sphinx-bundle-'));
  // The bundle keeps its dependencies (koffi) external, as build.mjs does: they resolve from here.
  symlinkSync(path.resolve(serverRoot, '../../node_modules'), path.join(dir, 'node_modules'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('runs the decoder worker from a bundle built like build.mjs', async () => {
  const probe = path.join(dir, 'probe-entry.ts');
  writeFileSync(
    probe,
    `import { readFileSync } from 'node:fs';
import { PocketsphinxSpeechToText } from ${JSON.stringify(path.join(here, 'pocketsphinx.ts'))};
const stt = new PocketsphinxSpeechToText();
const result = await stt.transcribeClip(readFileSync(process.argv[2]));
await stt.close();
console.log(JSON.stringify(result));
`,
  );
  await build({
    entryPoints: { probe: probe, 'pocketsphinx-worker': path.join(here, 'pocketsphinx-worker.ts') },
    outdir: path.join(dir, 'dist'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: ['koffi'],
    logLevel: 'silent',
  });
  const wav = speak(dir, 'sentence', SENTENCE);
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'dist/probe.js'), wav], {
    timeout: 20_000,
  });
  const result = JSON.parse(stdout) as { text: string; language: string };
  expect(result.language).toBe('en');
  expect(wordOverlap(SENTENCE, result.text), result.text).toBeGreaterThanOrEqual(0.6);
});
