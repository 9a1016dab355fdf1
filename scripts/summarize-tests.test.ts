import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, 'fixtures/summary');
const out = mkdtempSync(path.join(os.tmpdir(), 'parley-summary-'));

/** Runs one fixture file through Vitest's JSON reporter, as scripts/test-all.sh runs a suite. */
function report(fixture: string): { file: string; rc: string } {
  const file = path.join(out, `${fixture}.json`);
  const run = spawnSync(
    process.execPath,
    [
      path.join(here, '../node_modules/vitest/vitest.mjs'),
      'run',
      '--config',
      path.join(fixtures, 'vitest.config.mjs'),
      '--root',
      fixtures,
      '--reporter=json',
      `--outputFile.json=${file}`,
      `${fixture}.fixture.ts`,
    ],
    { encoding: 'utf8', env: { ...process.env, CI: 'true' } },
  );
  return { file, rc: String(run.status) };
}

/** The summary script as test-all.sh runs it: its closing line and exit code. */
function summarize(reports: { file: string; rc: string }[]) {
  const run = spawnSync(
    process.execPath,
    [path.join(here, 'summarize-tests.mjs'), ...reports.map((r) => r.file)],
    {
      encoding: 'utf8',
      env: { ...process.env, SUITE_EXIT_CODES: reports.map((r) => r.rc).join(',') },
    },
  );
  return { line: run.stdout.trim().split('\n').at(-1), status: run.status, why: run.stderr };
}

describe('the closing summary line', () => {
  it('fails a run whose beforeAll threw, though its tests are reported as skipped', () => {
    const s = summarize([report('setup-error')]);
    expect(s.line).toMatch(/^0 passed, 1 failed/);
    expect(s.status).toBe(1);
    expect(s.why).toContain('failed outside its tests');
  });

  it('fails a run with an unhandled rejection, though every test passed', () => {
    const s = summarize([report('unhandled')]);
    expect(s.line).toMatch(/^1 passed, 1 failed/);
    expect(s.status).toBe(1);
  });

  it('fails on a failed test and counts skipped tests apart', () => {
    expect(summarize([report('failing')])).toMatchObject({ line: '1 passed, 1 failed', status: 1 });
    expect(summarize([report('skipped')])).toMatchObject({
      line: '1 passed, 0 failed, 1 skipped',
      status: 0,
    });
  });

  it('fails when a report is missing or unreadable', () => {
    const garbage = path.join(out, 'garbage.json');
    writeFileSync(garbage, '{ not json');
    const s = summarize([
      { file: path.join(out, 'absent.json'), rc: '1' },
      { file: garbage, rc: '0' },
    ]);
    expect(s.line).toBe('0 passed, 2 failed');
    expect(s.status).toBe(1);
  });
});
