import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startServer as startE2eServer, type RunningServer } from '../../e2e/support/server.js';
import { JANUS_IFACE } from './netns.js';
import { repoRoot } from './results.js';

/** The build a benchmark runs on: the shared production build, or a private one. */
export interface BuildInfo {
  dir: string | null;
  commit: string | null;
  /** `git status --porcelain` when the private build was made (others' edits in progress). */
  dirty: string[];
}

/**
 * Starts the server for a browser benchmark. With `BENCH_BUILD=bench/dist/<tag>` (made by
 * `bench/support/build-private.sh <tag>`) it runs that private build, so others editing and
 * rebuilding the working tree do not change what is measured; otherwise `npm run build`'s output.
 */
export async function startBenchServer(
  env: Record<string, string> = {},
): Promise<{ server: RunningServer; build: BuildInfo }> {
  const dir = process.env.BENCH_BUILD ? path.resolve(repoRoot, process.env.BENCH_BUILD) : null;
  if (!dir) return { server: await startE2eServer(env), build: { dir: null, commit: null, dirty: [] } };
  const main = path.join(dir, 'server', 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`no private build at ${dir} (run bench/support/build-private.sh)`);
  const read = (f: string) => (existsSync(path.join(dir, f)) ? readFileSync(path.join(dir, f), 'utf8') : '');
  const build: BuildInfo = {
    dir: path.relative(repoRoot, dir),
    commit: read('commit').trim() || null,
    dirty: read('dirty').split('\n').filter(Boolean),
  };
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const logs: string[] = [];
  const child = spawn(process.execPath, [main], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'parley-bench-')),
      WEB_DIST_DIR: path.join(dir, 'web'),
      LOG_LEVEL: 'warn',
      // No STUN: there is no internet here, and a public STUN server must not be what a join
      // waits for (empty, not `none`, so older private builds read it the same way).
      STUN_URLS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr.on('data', (d: Buffer) => logs.push(d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${logs.join('')}`);
    const ok = await fetch(`${url}/api/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server not ready in 60 s:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const server: RunningServer = {
    url,
    pid: child.pid ?? -1,
    dataDir: '',
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        // Exited, or killed by a signal (then exitCode stays null): nothing to wait for.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
  return { server, build };
}

/**
 * Starts the server for an SFU benchmark with its own Janus, gathering on the namespace's veth
 * (`reexecInNetns(…, { janus: true })`), and answers Janus's pid as the server logged it.
 */
export async function startSfuBenchServer(): Promise<{
  server: RunningServer;
  build: BuildInfo;
  janusPid: number;
}> {
  const { server, build } = await startBenchServer({
    LOG_LEVEL: 'info',
    MEDIA_PROVIDER: 'janus',
    JANUS_ICE_ENFORCE_LIST: process.env.PARLEY_JANUS_IFACE ?? JANUS_IFACE,
    TRUST_PROXY: 'true',
  });
  const janusPid = Number(/our own Janus \(pid (\d+)/.exec(server.logs.join(''))?.[1]);
  if (!(janusPid > 0)) throw new Error(`the server did not start its own Janus:\n${server.logs.join('')}`);
  return { server, build, janusPid };
}
