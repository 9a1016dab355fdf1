import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './machine.js';

export const benchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(benchRoot, '..');

/** Writes bench/results/<name>.json with the figures, the machine and the time. */
export function recordResult(name: string, figures: Record<string, unknown>): string {
  const dir = path.join(benchRoot, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const body = { name, measuredAt: new Date().toISOString(), machine: machine(), ...figures };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
