import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Each server's log is kept here when it stops (CI keeps test-results/ for a failed run). */
const logDir = path.join(repoRoot, 'test-results', 'server-logs');
let started = 0;

/** Where this server's log goes: named after the spec file that started it. */
function logFile(): string {
  let spec = 'global-setup';
  try {
    spec = path.basename(expect.getState().testPath ?? spec).replace(/\.spec\.ts$/, '');
  } catch {
    // The global setup's server: vitest's per-file state does not exist there.
  }
  return path.join(logDir, `${spec}-${++started}.log`);
}

export interface RunningServer {
  url: string;
  pid: number;
  dataDir: string;
  logs: string[];
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * Starts the production build (`apps/server/dist/main.js`, serving `apps/web/dist`) as a real
 * process on a free port with a fresh data folder: the embedded defaults a user gets from
 * `npm start`. Build first (`npm run build`).
 */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));
  const url = `http://localhost:${port}`;
  const logs: string[] = [];
  const keepLog = logFile();
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Meetings stay peer-to-peer unless a suite asks for the SFU (sfu.spec.ts starts its own).
    MEDIA_PROVIDER: 'p2p',
    // No STUN: there is no internet here, and a public STUN server must not be what a join
    // waits for (empty, not `none`, so older private builds read it the same way).
    STUN_URLS: '',
  };
  // A variable given as undefined is left unset (STUN_URLS: the server's default public servers).
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[key];
    else childEnv[key] = value;
  }
  const child: ChildProcess = spawn(process.execPath, [path.join(repoRoot, 'apps/server/dist/main.js')], {
    cwd: repoRoot,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));

  // A machine shared with other work may need longer to start (E2E_SERVER_READY_MS).
  const readyMs = Number(process.env.E2E_SERVER_READY_MS ?? 120_000);
  const deadline = Date.now() + readyMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`);
    try {
      const res = await fetch(`${url}/api/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not ready in ${readyMs / 1000} s:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 150));
  }

  return {
    url,
    pid: child.pid ?? -1,
    dataDir,
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          mkdirSync(logDir, { recursive: true });
          writeFileSync(keepLog, logs.join(''));
          resolve();
        };
        // Exited, or killed by a signal (then exitCode stays null): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Whether Debian's `janus` is installed: `janus --version` prints the version and exits 1. */
export function janusInstalled(): boolean {
  const janus = spawnSync('janus', ['--version'], { encoding: 'utf8' });
  return !janus.error && /Janus version/.test(`${janus.stdout}${janus.stderr}`);
}
