import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { summarizeCommand } from './summarize.js';
import { translateCommand } from './translate.js';

/** Runs a command with stdout/stderr captured. */
async function run(command: () => Promise<number>): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await command();
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const embedded = loadConfig({ NODE_ENV: 'test' });
const apertium = existsSync('/usr/share/apertium/modes/eng-spa.mode');

describe.skipIf(!apertium)('npm run ai -- translate', () => {
  it('prints the translation with the configured engine', async () => {
    const r = await run(() => translateCommand(['--to', 'es', 'The meeting is tomorrow.'], embedded));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/reunión/);
    expect(r.out).toMatch(/mañana/);
  });

  it('exits 2 and says what it can do for a pair the engine cannot serve', async () => {
    const r = await run(() => translateCommand(['--to', 'ja', '--from', 'en', 'Hello'], embedded));
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(
      /apertium cannot translate from en to ja; from en it translates to: es, fr, it, pt/,
    );
  });

  it('exits 2 with the usage when the target is missing', async () => {
    const r = await run(() => translateCommand(['Hello'], embedded));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/usage/);
  });
});

describe('npm run ai -- translate with translation off', () => {
  it('exits 1 with the reason', async () => {
    const off = loadConfig({ NODE_ENV: 'test', AI_TRANSLATION_PROVIDER: 'off' });
    const r = await run(() => translateCommand(['--to', 'es', 'Hello'], off));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/translation is off/);
  });
});

describe('npm run ai -- summarize', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  it('prints the summary JSON with owners, due dates and source line numbers', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'parley-summarize-'));
    const file = path.join(dir, 'meeting.txt');
    writeFileSync(
      file,
      [
        'Maya: Thanks for joining. The release notes are the last open item.',
        'Maya: Luis, could you write the release notes by Friday?',
        'Luis: Sure, I will.',
        'Luis: Should we ship 2.1 on Monday, or wait for the translations?',
        "Maya: Let's ship version 2.1 on Monday.",
        'Luis: Agreed.',
      ].join('\n'),
    );
    const r = await run(() => summarizeCommand([file, '--date', '2026-03-11'], embedded));
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out) as {
      actionItems: Array<{ owner: string; due: string; sources: string[] }>;
      decisions: Array<{ text: string; sources: string[] }>;
    };
    expect(summary.actionItems).toEqual([
      expect.objectContaining({ owner: 'Luis', due: '2026-03-13', sources: ['2', '3'] }),
    ]);
    expect(summary.decisions).toEqual([expect.objectContaining({ sources: ['5'] })]);
    expect(summary.decisions[0]!.text).toMatch(/ship version 2\.1 on Monday/i);
  });

  it('exits 2 on a bad date and 1 on a missing file', async () => {
    expect((await run(() => summarizeCommand(['x.txt', '--date', '11/03/2026'], embedded))).code).toBe(2);
    const missing = await run(() => summarizeCommand(['/nonexistent/meeting.txt'], embedded));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/cannot read/);
  });
});
