import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LightMedia, type LightMediaOptions } from './light-media.js';
import { LightPeer, type Received } from './light-peer.js';

/**
 * Light participants (light-peer.ts) in a process of their own, so that a benchmark can read
 * their CPU and memory apart from its own (Playwright, the clock) and from the browsers'. The
 * benchmark holds a `LightCrowd`; the child (this file run with `--child`) holds the peers and the
 * one shared encoder (light-media.ts, its `ffmpeg` a child of the child).
 */

export interface PeerSpec {
  index: number;
  name: string;
  publish: boolean;
  subscribe: boolean;
  isHost?: boolean;
  cookie?: string;
}

export interface PeerReport {
  index: number;
  id: string;
  name: string;
  publish: boolean;
  subscribe: boolean;
  /** Wall-clock ms (epoch) of each mark. */
  marks: Record<string, number>;
  received: Record<string, Received>;
  keyFrameRequests: number;
  errors: string[];
  knows: number;
  /** The last `sfu_view` it sent (JSON of its videos; '' before any). */
  view: string;
}

export interface CrowdReport {
  peers: PeerReport[];
  produced: LightMedia['produced'] | null;
  ffmpegPid: number | null;
  rssBytes: number;
}

type Request =
  | { type: 'start'; media: LightMediaOptions | null }
  | { type: 'join'; base: string; meetingId: string; peers: PeerSpec[] }
  | { type: 'report' }
  | { type: 'leave'; indexes: number[] }
  | { type: 'stop' };
type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: string };

export class LightCrowd {
  private readonly child: ChildProcess;
  private next = 0;
  private readonly waiting = new Map<number, (r: Reply) => void>();

  private constructor() {
    this.child = fork(fileURLToPath(import.meta.url), ['--child'], {
      // BENCH_LIGHT_PROFILE=<dir>: a V8 CPU profile of the light process, to see where it spends.
      execArgv: [
        '--import',
        'tsx',
        ...(process.env.BENCH_LIGHT_PROFILE
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_LIGHT_PROFILE}`]
          : []),
      ],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (r: Reply) => {
      this.waiting.get(r.id)?.(r);
      this.waiting.delete(r.id);
    });
  }

  /** Starts the child and its encoder (`null`: no encoder, for receive-only peers). */
  static async start(media: LightMediaOptions | null = {}): Promise<LightCrowd> {
    const crowd = new LightCrowd();
    await crowd.call({ type: 'start', media });
    return crowd;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  private call(req: Request, timeoutMs = 60_000): Promise<unknown> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`light crowd: ${req.type} took over ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, (r) => {
        clearTimeout(timer);
        if (r.ok) resolve(r.value);
        else reject(new Error(`light crowd: ${req.type}: ${r.error}`));
      });
      this.child.send({ ...req, id });
    });
  }

  /** Joins these peers (all at once); resolves when every socket has sent join_meeting. */
  async join(base: string, meetingId: string, peers: PeerSpec[]): Promise<string[]> {
    return (await this.call({ type: 'join', base, meetingId, peers })) as string[];
  }

  report(): Promise<CrowdReport> {
    return this.call({ type: 'report' }) as Promise<CrowdReport>;
  }

  /** These peers leave the meeting (leave_meeting) and close their connections. */
  async leave(indexes: number[]): Promise<void> {
    await this.call({ type: 'leave', indexes });
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    await this.call({ type: 'stop' }, 10_000).catch(() => undefined);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

// ------------------------------------------------------------------ the child

async function child(): Promise<void> {
  let media: LightMedia | null = null;
  const peers = new Map<number, { spec: PeerSpec; peer: LightPeer }>();
  const wall = (t: number) => Math.round(performance.timeOrigin + t);
  const handle = async (req: Request): Promise<unknown> => {
    switch (req.type) {
      case 'start':
        if (!req.media) return null;
        media = new LightMedia(req.media);
        await media.start();
        return null;
      case 'join': {
        const joined = await Promise.all(
          req.peers.map(async (spec) => {
            if (spec.publish && !media) throw new Error('a publisher needs the crowd started with media');
            const peer = new LightPeer({ media: spec.publish ? media : null, subscribe: spec.subscribe });
            peers.set(spec.index, { spec, peer });
            await peer.join(req.base, req.meetingId, spec.index, {
              name: spec.name,
              isHost: spec.isHost,
              cookie: spec.cookie,
            });
            return peer.id;
          }),
        );
        return joined;
      }
      case 'report': {
        const out: PeerReport[] = [...peers.values()].map(({ spec, peer }) => ({
          index: spec.index,
          id: peer.id,
          name: spec.name,
          publish: spec.publish,
          subscribe: spec.subscribe,
          marks: Object.fromEntries(Object.entries(peer.marks).map(([k, t]) => [k, wall(t)])),
          received: Object.fromEntries(
            [...peer.received].map(([k, r]) => [
              k,
              {
                ...r,
                firstAt: r.firstAt === null ? null : wall(r.firstAt),
                firstKeyFrameAt: r.firstKeyFrameAt === null ? null : wall(r.firstKeyFrameAt),
              },
            ]),
          ),
          keyFrameRequests: peer.keyFrameRequests,
          errors: peer.errors,
          // Others known (the roster in `joined` may list this participant too).
          knows: [...peer.signal.others].filter((id) => id !== peer.id).length,
          view: peer.viewSent,
        }));
        const report: CrowdReport = {
          peers: out,
          produced: media ? { ...media.produced } : null,
          ffmpegPid: media?.pid ?? null,
          rssBytes: process.memoryUsage().rss,
        };
        return report;
      }
      case 'leave':
        for (const i of req.indexes) {
          const p = peers.get(i);
          if (!p) continue;
          peers.delete(i);
          await p.peer.close();
        }
        return null;
      case 'stop':
        // A connection that does not close within a second is left to the exit.
        await Promise.race([
          Promise.all([...peers.values()].map(({ peer }) => peer.close(false))),
          new Promise((r) => setTimeout(r, 1000)),
        ]);
        peers.clear();
        await media?.stop();
        setTimeout(() => process.exit(0), 50);
        return null;
    }
  };
  process.on('message', (req: Request & { id: number }) => {
    handle(req).then(
      (value) => process.send!({ id: req.id, ok: true, value }),
      (err: unknown) => process.send!({ id: req.id, ok: false, error: String(err) }),
    );
  });
  process.on('disconnect', () => {
    void media?.stop().finally(() => process.exit(0));
  });
}

if (process.argv.includes('--child')) await child();
