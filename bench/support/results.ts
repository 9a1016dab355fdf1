import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { machine } from './machine.js';

export const benchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(benchRoot, '..');

/** The code a figure was measured on: the commit, and the files that differed from it. */
export function codeVersion(): { commit: string | null; uncommitted: string[] } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    return {
      commit: git('rev-parse', 'HEAD').trim(),
      uncommitted: git('status', '--porcelain', '--untracked-files=no')
        .split('\n')
        .filter(Boolean)
        .map((l) => l.slice(3)),
    };
  } catch {
    return { commit: null, uncommitted: [] };
  }
}

/**
 * Writes bench/results/<name>.json with the figures, the machine, its load average at the end of
 * the run, the commit (and uncommitted files) and the time. Figures should carry their run count.
 */
export function recordResult(name: string, figures: Record<string, unknown>): string {
  const dir = path.join(benchRoot, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  const [one, five, fifteen] = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const body = {
    name,
    measuredAt: new Date().toISOString(),
    code: codeVersion(),
    machine: { ...machine(), loadAverage: { one, five, fifteen } },
    ...figures,
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
