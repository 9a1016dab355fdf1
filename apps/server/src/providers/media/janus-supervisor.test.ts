import { readFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJanode } from './janode-loader.js';
import { JanusMedia } from './janus-media.js';
import { JanusSupervisor, janusInstalled } from './janus-supervisor.js';

const log = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const installed = janusInstalled();
if (!installed) {
  console.warn(
    'SKIPPED janus-supervisor.test.ts: `janus` is not installed (bash scripts/install-system-deps.sh)',
  );
}

/** One raw Janus API request over a fresh WebSocket (what a stranger on the machine could send). */
async function rawRequest(url: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ws = new WebSocket(url, 'janus-protocol');
  try {
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    const transaction = Math.random().toString(36).slice(2);
    const reply = new Promise<Record<string, unknown>>((resolve) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString()) as Record<string, unknown>;
        if (m.transaction === transaction) resolve(m);
      });
    });
    ws.send(JSON.stringify({ ...body, transaction }));
    return await reply;
  } finally {
    ws.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, f: () => T | undefined | null | false, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!installed)('our own Janus (real janus process)', () => {
  let supervisor: JanusSupervisor;
  let media: JanusMedia;
  let lost = 0;
  let recovered = 0;

  beforeAll(async () => {
    supervisor = new JanusSupervisor({ log, backoff: { firstMs: 200, maxMs: 1000 } });
    await supervisor.start();
    media = new JanusMedia(
      {
        janode: await loadJanode(),
        url: supervisor.url,
        apiSecret: supervisor.apiSecret,
        adminKey: supervisor.adminKey,
        log,
      },
      {
        onOffer: () => undefined,
        onLost: () => (lost += 1),
        onActiveSpeaker: () => undefined,
        onRecovered: () => (recovered += 1),
      },
    );
    expect(await media.start(10_000)).toBe(true);
  });

  afterAll(async () => {
    await media?.close();
    await supervisor?.stop();
  });

  it('writes a config with the VideoRoom plugin only, WebSocket on loopback and a random secret', () => {
    const main = readFileSync(path.join(supervisor.dir, 'janus.jcfg'), 'utf8');
    expect(main).toContain(`api_secret = "${supervisor.apiSecret}"`);
    expect(supervisor.apiSecret).toMatch(/^[0-9a-f]{48}$/);
    expect(main).not.toContain('janusoverlord');
    expect(main).toContain('ignore_mdns = true');
    const disabledPlugins = /plugins: \{\n {2}disable = "([^"]*)"/.exec(main)?.[1] ?? '';
    expect(disabledPlugins).toContain('libjanus_echotest.so');
    expect(disabledPlugins).not.toContain('libjanus_videoroom.so');
    const disabledTransports = /transports: \{\n {2}disable = "([^"]*)"/.exec(main)?.[1] ?? '';
    for (const t of ['http', 'mqtt', 'rabbitmq', 'nanomsg', 'pfunix']) {
      expect(disabledTransports).toContain(`libjanus_${t}.so`);
    }
    const ws = readFileSync(path.join(supervisor.dir, 'janus.transport.websockets.jcfg'), 'utf8');
    expect(ws).toContain('ws_ip = "127.0.0.1"');
    expect(ws).toContain(`ws_port = ${supervisor.wsPort}`);
    expect(ws).toContain('admin_ws = false');
  });

  it('runs janus, which refuses a request without the secret and takes one with it', async () => {
    expect(supervisor.pid).toBeGreaterThan(0);
    expect(alive(supervisor.pid!)).toBe(true);
    const refused = await rawRequest(supervisor.url, { janus: 'create' });
    expect(refused.janus).toBe('error');
    expect((refused.error as { code: number }).code).toBe(403);
    const wrong = await rawRequest(supervisor.url, { janus: 'create', apisecret: 'janusrocks' });
    expect(wrong.janus).toBe('error');
    const ok = await rawRequest(supervisor.url, { janus: 'create', apisecret: supervisor.apiSecret });
    expect(ok.janus).toBe('success');
    // The handle kept attached ahead belonged to the dead session: the next one is on the new
    // session, so creating a room through it works (a stale handle would time out).
    await expect(media.subscribe('after-restart', 'p1')).resolves.toBeUndefined();
  });

  it('creates rooms only with the admin key', async () => {
    const session = await rawRequest(supervisor.url, { janus: 'create', apisecret: supervisor.apiSecret });
    expect(session.janus).toBe('success');
    // A stranger with the API secret still cannot create a room without the admin key.
    const ws = new WebSocket(supervisor.url, 'janus-protocol');
    await new Promise((r) => ws.once('open', r));
    const send = (body: Record<string, unknown>) =>
      new Promise<Record<string, unknown>>((resolve) => {
        const transaction = Math.random().toString(36).slice(2);
        const on = (d: WebSocket.RawData) => {
          const m = JSON.parse(d.toString()) as Record<string, unknown>;
          if (m.transaction === transaction && m.janus !== 'ack') {
            ws.off('message', on);
            resolve(m);
          }
        };
        ws.on('message', on);
        ws.send(JSON.stringify({ ...body, transaction, apisecret: supervisor.apiSecret }));
      });
    const s = await send({ janus: 'create' });
    const sessionId = (s.data as { id: number }).id;
    const h = await send({ janus: 'attach', session_id: sessionId, plugin: 'janus.plugin.videoroom' });
    const handleId = (h.data as { id: number }).id;
    const create = await send({
      janus: 'message',
      session_id: sessionId,
      handle_id: handleId,
      body: { request: 'create', room: 'stranger-room' },
    });
    const data = (create.plugindata as { data: { videoroom: string; error_code?: number } }).data;
    expect(data.videoroom).toBe('event');
    // 429: the admin_key is missing.
    expect(data.error_code).toBe(429);
    const guessed = await send({
      janus: 'message',
      session_id: sessionId,
      handle_id: handleId,
      body: { request: 'create', room: 'stranger-room', admin_key: 'supersecret' },
    });
    // 433: unauthorized (a wrong admin_key).
    expect((guessed.plugindata as { data: { error_code?: number } }).data.error_code).toBe(433);
    ws.close();
  });

  it('restarts janus after kill -9, and the client reconnects', async () => {
    const before = supervisor.pid!;
    const starts = supervisor.starts;
    process.kill(before, 'SIGKILL');
    await until(
      'a new janus',
      () => supervisor.starts > starts && supervisor.pid && supervisor.pid !== before,
    );
    expect(alive(supervisor.pid!)).toBe(true);
    await until('the client to notice', () => lost > 0);
    await until('the client to reconnect', () => media.available(), 20_000);
    expect(recovered).toBe(1);
    const ok = await rawRequest(supervisor.url, { janus: 'create', apisecret: supervisor.apiSecret });
    expect(ok.janus).toBe('success');
    // The handle kept attached ahead belonged to the dead session: the next one is on the new
    // session, so creating a room through it works (a stale handle would time out).
    await expect(media.subscribe('after-restart', 'p1')).resolves.toBeUndefined();
  });

  it('stops janus and removes its config folder on stop()', async () => {
    const s = new JanusSupervisor({ log });
    await s.start();
    const pid = await until('the pid', () => s.pid);
    await until('janus to listen', () => alive(pid));
    await s.stop();
    expect(alive(pid)).toBe(false);
    expect(() => readFileSync(path.join(s.dir, 'janus.jcfg'))).toThrow();
  });
});
