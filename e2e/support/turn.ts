import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server.js';

/** Whether Debian's `coturn` is installed (scripts/install-system-deps.sh installs it for the tests). */
export function turnInstalled(): boolean {
  const coturn = spawnSync('turnserver', ['--help'], { encoding: 'utf8' });
  return !coturn.error && /listening-port/.test(`${coturn.stdout}${coturn.stderr}`);
}

export interface Turn {
  port: number;
  /** The turnserver process (a test may pause it: SIGSTOP drops everything it relays). */
  pid: number;
  logs: string[];
  stop(): Promise<void>;
}

/**
 * coturn as docs/media.md, "STUN and TURN", configures it, on loopback only: time-limited credentials
 * (`use-auth-secret`), no TLS/DTLS listeners, no CLI, relaying to loopback peers only (inside
 * run-e2e.sh's namespace those are the only addresses there are). `address`: where it listens
 * and relays from; Janus takes relayed candidates on its own interface's address only (127.0.0.2
 * in the namespace), not 127.0.0.1.
 */
export async function startTurn(secret: string, address = '127.0.0.1'): Promise<Turn> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-turn-'));
  const logs: string[] = [];
  const child: ChildProcess = spawn(
    'turnserver',
    [
      '-n',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      `--listening-ip=${address}`,
      `--relay-ip=${address}`,
      `--listening-port=${port}`,
      // One relay port per allocation: every connection of a page given TURN servers takes one
      // (spares and candidate pools too); 40 ran out for 3 pages once a newcomer bridged as well.
      '--min-port=49160',
      '--max-port=49400',
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=parley-e2e',
      '--fingerprint',
      '--allow-loopback-peers',
      '--denied-peer-ip=0.0.0.0-255.255.255.255',
      '--allowed-peer-ip=127.0.0.0-127.255.255.255',
      '--no-multicast-peers',
      `--userdb=${path.join(dir, 'turndb')}`,
      `--pidfile=${path.join(dir, 'turnserver.pid')}`,
      '--log-file=stdout',
      '--simple-log',
      '--verbose',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d: Buffer) => logs.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => logs.push(d.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`turnserver exited:\n${logs.join('')}`);
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, address, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) break;
    if (Date.now() > deadline) throw new Error(`turnserver not listening in 10 s:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    pid: child.pid ?? -1,
    logs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}
