import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { findJanusLibDir, writeJanusConfig } from './janus-config.js';

export interface SupervisorLog {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface JanusSupervisorOptions {
  /** The janus executable (default `janus` on PATH). */
  bin?: string;
  /** Where the config folder goes (default: a fresh folder under the OS temp dir). */
  dir?: string;
  /** The WebSocket port (default: a free one on 127.0.0.1). */
  wsPort?: number;
  iceEnforceList?: string[];
  log: SupervisorLog;
  /** Back-off between restarts: first, then doubling up to max (ms). */
  backoff?: { firstMs: number; maxMs: number };
}

/** Whether a `janus` executable is installed (on PATH, or the given path). */
export function janusInstalled(bin = 'janus'): boolean {
  // `janus --version` prints its version and exits 1.
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 5000 });
  return !r.error && /Janus version/.test(`${r.stdout}${r.stderr}`);
}

/** Janus's terminal colours (ESC [ … m). */
const COLOURS = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
/** What Janus says about our own choices (modules we disabled, mDNS off). */
const EXPECTED = /has been disabled, skipping|mDNS resolution disabled/;

export async function freeLoopbackPort(): Promise<number> {
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
 * Runs our own Janus: writes its configuration (janus-config.ts), starts `janus -F <dir>`, and
 * restarts it whenever it exits (after 0.5 s, doubling to 10 s while it keeps dying within a
 * minute of its start), until `stop()`. Janus's own warnings and errors go to our log.
 */
export class JanusSupervisor {
  readonly apiSecret = randomBytes(24).toString('hex');
  readonly adminKey = randomBytes(24).toString('hex');
  readonly dir: string;
  wsPort = 0;
  private child: ChildProcess | null = null;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | null = null;
  private delayMs: number;
  private startedAt = 0;
  /** How many times Janus was started (1 after start(); each restart adds one). */
  starts = 0;
  private readonly listeners = new Set<(pid: number) => void>();

  constructor(private readonly opts: JanusSupervisorOptions) {
    this.dir =
      opts.dir ?? path.join(os.tmpdir(), `parley-janus-${process.pid}-${randomBytes(4).toString('hex')}`);
    this.delayMs = opts.backoff?.firstMs ?? 500;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.wsPort}`;
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Called with the new pid each time Janus (re)starts. */
  onStart(listener: (pid: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async start(): Promise<void> {
    this.wsPort = this.opts.wsPort ?? (await freeLoopbackPort());
    writeJanusConfig({
      dir: this.dir,
      wsPort: this.wsPort,
      apiSecret: this.apiSecret,
      adminKey: this.adminKey,
      iceEnforceList: this.opts.iceEnforceList ?? [],
      libDir: findJanusLibDir(),
    });
    this.spawn();
  }

  private spawn(): void {
    if (this.stopped) return;
    // No -N: Janus's stdout (warnings and errors at debug_level 3) is read into our log.
    const child = spawn(this.opts.bin ?? 'janus', ['-F', this.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.starts += 1;
    this.startedAt = Date.now();
    const relay = (d: Buffer) => {
      for (const line of d.toString().split('\n')) {
        // Without the terminal colours; its notes on the modules we disabled are expected.
        const l = line.replace(COLOURS, '').trim();
        if (!l || EXPECTED.test(l)) continue;
        if (/\b(ERR|WARN)\b|error/i.test(l)) this.opts.log.warn({ janus: l }, 'janus says');
      }
    };
    child.stdout?.on('data', relay);
    child.stderr?.on('data', relay);
    child.once('error', (err) => this.opts.log.error({ err }, 'janus could not be started'));
    child.once('spawn', () => {
      if (child.pid) for (const l of this.listeners) l(child.pid);
    });
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      if (this.stopped) return;
      // Dying soon after a start keeps doubling the wait; a long run resets it.
      const first = this.opts.backoff?.firstMs ?? 500;
      if (Date.now() - this.startedAt > 60_000) this.delayMs = first;
      const wait = this.delayMs;
      this.delayMs = Math.min(this.delayMs * 2, this.opts.backoff?.maxMs ?? 10_000);
      this.opts.log.error({ code, signal, restartInMs: wait }, 'janus exited; restarting it');
      this.restartTimer = setTimeout(() => this.spawn(), wait);
    });
  }

  /** Stops Janus (SIGTERM, then SIGKILL after 3 s) and removes its config folder. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
        child.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        child.kill('SIGTERM');
      });
    }
    this.child = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
