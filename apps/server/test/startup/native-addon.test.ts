/**
 * Issue 38 item 4: native code never stops a start. janode loads the native addon `unix-dgram`
 * when it is imported (janode-loader.ts); an addon that did not build used to make the server
 * exit 1 at its first import, even with MEDIA_PROVIDER=p2p. Here the real server (src/main.ts)
 * starts in a child process where that package cannot be loaded (without-module.mjs), and must
 * serve, on peer-to-peer media, saying why the SFU is off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { healthResponseSchema, serverFeaturesSchema } from '@parley/protocol';
import { afterAll, describe, expect, it } from 'vitest';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** A start and stop (tsx compiles the whole server): 8 s here idle, 13-17 s beside other suites. */
const START_MS = 75_000;
/** Servers still running (a test that timed out): none outlives this file. */
const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

interface Started {
  /** The log lines' messages up to (and including) "Server listening". */
  log: string[];
  health: unknown;
  features: unknown;
}

/** Starts src/main.ts without `without`, asks /api/health and /api/features, and stops it. */
async function startWithout(without: string, env: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-addon-'));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './test/startup/without-module.mjs', 'src/main.ts'],
    {
      cwd: serverRoot,
      env: {
        PATH: process.env.PATH,
        WITHOUT_MODULE: without,
        HOST: '127.0.0.1',
        PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
        LOG_LEVEL: 'info',
        // Not what is tested, and the slowest to start.
        AI_STT_PROVIDER: 'off',
        AI_TRANSLATION_PROVIDER: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const deadline = setTimeout(() => child.kill('SIGKILL'), START_MS);
  try {
    const log: string[] = [];
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      let buffered = '';
      child.stdout.on('data', (d: Buffer) => {
        buffered += d.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          let msg: string;
          try {
            msg = (JSON.parse(line) as { msg?: string }).msg ?? '';
          } catch {
            msg = line;
          }
          log.push(msg);
          const at = /^Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(msg);
          if (at) resolve(at[1]!);
        }
      });
      void exited.then((code) =>
        reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)),
      );
    });
    const health: unknown = await (await fetch(`${url}/api/health`)).json();
    const features: unknown = await (await fetch(`${url}/api/features`)).json();
    return { log, health, features };
  } finally {
    clearTimeout(deadline);
    child.kill('SIGTERM');
    await exited;
  }
}

describe('a server whose native addon did not build', { timeout: START_MS + 15_000 }, () => {
  it('starts on peer-to-peer media when unix-dgram does not load, and says why in one line', async () => {
    const s = await startWithout('unix-dgram', {
      MEDIA_PROVIDER: 'janus',
      JANUS_URL: 'ws://127.0.0.1:9',
      JANUS_API_SECRET: 'secret',
    });
    const off = s.log.filter((m) => m.includes('SFU off'));
    expect(off).toEqual([
      'media: SFU off: the native addon unix-dgram did not load (Could not locate the bindings file); ' +
        'meetings stay peer-to-peer, capped at 4 participants. Reinstall with build tools (python3, ' +
        'make, g++; then `npm rebuild unix-dgram`) to enable Janus (docs/deployment.md)',
    ]);
    const sfu = { state: 'off', reason: 'the native addon unix-dgram did not load' };
    expect(healthResponseSchema.parse(s.health)).toEqual({ status: 'ok', sfu });
    const features = serverFeaturesSchema.parse(s.features);
    expect(features.sfu).toEqual(sfu);
    expect(features.features.recording).toBe(false);
  });

  it('with MEDIA_PROVIDER=p2p never loads janode at all', async () => {
    const s = await startWithout('janode', { MEDIA_PROVIDER: 'p2p' });
    expect(s.log).toContain('media: meetings are peer-to-peer (MEDIA_PROVIDER=p2p)');
    expect(s.log.filter((m) => m.includes('SFU off'))).toEqual([]);
    expect(healthResponseSchema.parse(s.health)).toEqual({
      status: 'ok',
      sfu: { state: 'off', reason: 'peer-to-peer only (MEDIA_PROVIDER=p2p)' },
    });
  });

  it('(the same stand-in for janode does stop a Janus start: the test above is not vacuous)', async () => {
    const s = await startWithout('janode', {
      MEDIA_PROVIDER: 'janus',
      JANUS_URL: 'ws://127.0.0.1:9',
      JANUS_API_SECRET: 'secret',
    });
    expect(s.log.filter((m) => m.includes('SFU off'))).toEqual([
      'media: SFU off: the Janus client janode did not load (Could not locate the bindings file); ' +
        'meetings stay peer-to-peer, capped at 4 participants. Reinstall (`npm ci`) to enable Janus ' +
        '(docs/deployment.md)',
    ]);
  });
});
