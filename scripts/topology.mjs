// The deployable topology as processes (this machine cannot run containers): two Parley server
// instances on one PostgreSQL and one Redis, behind a small TCP proxy that spreads connections
// over them and skips an instance that refuses connections. See scripts/topology.sh.
//
//   node scripts/topology.mjs            start, print the URL, run until Ctrl-C
//   node scripts/topology.mjs --smoke    start, then prove draining (SIGTERM) and a crash
//                                         (SIGKILL) with clients through the proxy, and stop
//   node scripts/topology.mjs proxy PORT UPSTREAM_PORT...   the proxy alone (started by the above)
//   TOPOLOGY_PROXY=caddy ...             Caddy with deploy/caddy/Caddyfile instead of the TCP proxy
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env = process.env;
const PROXY_PORT = Number(env.TOPOLOGY_PORT ?? 3100);
const PORTS = [PROXY_PORT + 1, PROXY_PORT + 2];
const REDIS_URL = env.REDIS_URL ?? 'redis://127.0.0.1:6379/5';
const DATABASE_URL = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/parley_topology';
const PRESENCE_TTL_MS = env.PRESENCE_TTL_MS ?? '3000';
const DATA_DIR = path.resolve(env.DATA_DIR ?? path.join(root, 'data', 'topology'));

// ---------------------------------------------------------------------------------- the proxy

/**
 * Each client connection goes to the next instance in turn (TCP, so HTTP and WebSocket alike);
 * an instance that refuses the connection is skipped for 2 s and the next one tried.
 */
function runProxy(port, upstreams) {
  const downUntil = new Map();
  let turn = 0;
  const pick = (tried) => {
    const order = upstreams.map((_, i) => upstreams[(turn + i) % upstreams.length]);
    const up =
      order.find((p) => !tried.has(p) && (downUntil.get(p) ?? 0) <= Date.now()) ??
      order.find((p) => !tried.has(p));
    if (up !== undefined) turn = (upstreams.indexOf(up) + 1) % upstreams.length;
    return up;
  };
  net
    .createServer((client) => {
      client.pause();
      client.on('error', () => undefined);
      const tried = new Set();
      const attempt = () => {
        const upPort = pick(tried);
        if (upPort === undefined) return client.destroy();
        tried.add(upPort);
        const up = net.connect(upPort, '127.0.0.1');
        let connected = false;
        up.once('connect', () => {
          connected = true;
          client.pipe(up);
          up.pipe(client);
          client.resume();
        });
        up.on('error', () => {
          if (connected) return client.destroy();
          downUntil.set(upPort, Date.now() + 2000);
          attempt();
        });
        up.on('close', () => client.destroy());
        client.on('close', () => up.destroy());
      };
      attempt();
    })
    .listen(port, '127.0.0.1');
}

// ------------------------------------------------------------------------------- the processes

/**
 * TOPOLOGY_PROXY=caddy: compose.yaml's proxy instead of the TCP one, on the same port, with
 * deploy/caddy/Caddyfile as it is (Debian's `caddy`), so the smoke proves that file too.
 */
function startCaddy() {
  const child = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', 'deploy/caddy/Caddyfile'], {
    cwd: root,
    env: {
      ...env,
      PARLEY_SITE: `:${PROXY_PORT}`,
      PARLEY_UPSTREAMS: PORTS.map((p) => `127.0.0.1:${p}`).join(' '),
      PARLEY_CADDY_ADMIN: 'off',
      XDG_DATA_HOME: path.join(DATA_DIR, 'caddy'),
      XDG_CONFIG_HOME: path.join(DATA_DIR, 'caddy'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  child.label = 'caddy';
}

const children = new Set();
function start(name, args, extraEnv = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  child.label = name;
  return child;
}

function startInstance(i) {
  const id = String.fromCharCode(97 + i); // a, b
  return start(`instance ${id}`, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    NODE_ENV: env.NODE_ENV ?? 'development',
    HOST: '127.0.0.1',
    PORT: String(PORTS[i]),
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${PROXY_PORT}`,
    INSTANCE_ID: `topology-${id}`,
    REDIS_URL,
    DATABASE_URL,
    PRESENCE_TTL_MS,
    // One data folder for both: uploaded files must be readable through either instance.
    DATA_DIR,
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    // Each instance would otherwise start a Janus of its own, and the SFU's rooms are kept per
    // process: a meeting split across instances must share one Janus (compose.yaml's JANUS_URL).
    // Without one, the topology is peer-to-peer.
    MEDIA_PROVIDER: env.MEDIA_PROVIDER ?? (env.JANUS_URL ? 'janus' : 'p2p'),
  });
}

async function ready(port, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing ready on :${port} within ${timeoutMs} ms`);
}

function stopAll() {
  for (const child of children) child.kill('SIGTERM');
}

// ----------------------------------------------------------------------------------- the smoke

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A client in the test room through the proxy: REST join, then the socket. */
async function client(WebSocket, name) {
  const base = `http://127.0.0.1:${PROXY_PORT}`;
  const res = await fetch(`${base}/api/meetings/test-room/join`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', connection: 'close' },
    body: JSON.stringify({
      name,
      isHost: false,
      isMuted: true,
      isVideoOn: false,
      sessionId: `${name}-${Date.now()}`,
    }),
  });
  if (!res.ok) throw new Error(`${name}: join answered ${res.status} ${await res.text()}`);
  const join = await res.json();
  const c = { name, id: join.id, token: join.joinToken, seen: [], socket: null, closedWith: null };
  c.connect = () =>
    new Promise((resolve, reject) => {
      const url = `ws://127.0.0.1:${PROXY_PORT}/ws?meetingId=test-room&name=${name}`;
      const ws = new WebSocket(url);
      c.socket = ws;
      c.closedWith = null;
      ws.on('open', () => ws.send(JSON.stringify({ type: 'join_meeting', joinToken: c.token })));
      ws.on('message', (data) => {
        const m = JSON.parse(String(data));
        c.seen.push(m);
        if (m.type === 'joined') resolve(m);
        if (m.type === 'error') reject(new Error(`${name}: ${m.code} ${m.message}`));
      });
      ws.on('close', (code) => {
        c.closedWith = code;
        reject(new Error(`${name}: closed ${code} before joined`));
      });
      ws.on('error', () => undefined);
    });
  /** Reconnects until joined again (the proxy may first hit the instance going away). */
  c.reconnect = async () => {
    for (let i = 0; i < 50; i++) {
      try {
        return await c.connect();
      } catch {
        await sleep(100);
      }
    }
    throw new Error(`${name}: could not rejoin`);
  };
  return c;
}

function expect(ok, what) {
  if (!ok) throw new Error(`FAILED: ${what}`);
  console.log(`ok - ${what}`);
}

async function participantCount(port) {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^parley_active_participants (\d+)/m.exec(text)?.[1] ?? NaN);
}

async function smoke(instances) {
  const { default: WebSocket } = await import('ws');
  const names = ['Ann', 'Bob', 'Cat', 'Dan'];
  const clients = [];
  for (const n of names) clients.push(await client(WebSocket, n));
  for (const c of clients) await c.connect();
  await sleep(300);
  const counts = await Promise.all(PORTS.map(participantCount));
  // The TCP proxy spreads connections over both instances; Caddy sends a meeting's sockets to one.
  const byMeeting = env.TOPOLOGY_PROXY === 'caddy';
  if (byMeeting)
    expect(
      counts.includes(0) && counts.includes(names.length),
      `one meeting's clients all on one instance through Caddy (a: ${counts[0]}, b: ${counts[1]})`,
    );
  else
    expect(
      counts[0] >= 1 && counts[1] >= 1,
      `clients on both instances through the proxy (a: ${counts[0]}, b: ${counts[1]})`,
    );
  /** The instance drained first (one holding clients), and the other. */
  const h = counts[0] >= 1 ? 0 : 1;
  const o = 1 - h;
  const [hName, oName] = [h, o].map((i) => 'ab'[i]);

  // 1. Draining: SIGTERM instance h. Its clients are told 1001 and resume through o.
  const seenBefore = new Map(clients.map((c) => [c, c.seen.length]));
  const drainStart = Date.now();
  instances[h].kill('SIGTERM');
  const exited = new Promise((r) => instances[h].once('exit', (code) => r(code)));
  // Its clients are closed as it drains (through Caddy, as Caddy passes the close on).
  for (let t = 0; t < 5000 && clients.filter((c) => c.closedWith !== null).length < counts[h]; t += 25)
    await sleep(25);
  const moved = clients.filter((c) => c.closedWith !== null);
  const codes = moved.map((c) => c.closedWith);
  const drainTimes = await Promise.all(
    moved.map(async (c, i) => {
      const t0 = Date.now();
      const back = await c.reconnect();
      expect(
        back.self.id === c.id && back.resumed,
        `${c.name} (closed ${codes[i]}) resumed as itself through ${oName}`,
      );
      return Date.now() - t0;
    }),
  );
  const exitCode = await exited;
  expect(
    exitCode === 0,
    `instance ${hName} exited 0 after draining (${Date.now() - drainStart} ms after SIGTERM)`,
  );
  expect(
    moved.length >= 1 && codes.every((code) => code === 1001),
    `its ${moved.length} client(s) were closed with 1001`,
  );
  if (byMeeting) {
    const now = await participantCount(PORTS[o]);
    expect(now === names.length, `the whole meeting is on ${oName} now (${now})`);
  }
  await sleep(Number(PRESENCE_TTL_MS) * 1.5);
  const lefts = clients.flatMap((c) =>
    c.seen.slice(seenBefore.get(c)).filter((m) => m.type === 'participant_left'),
  );
  expect(lefts.length === 0, 'nobody saw anyone leave during the drain');
  console.log(`drain: back in the room after ${drainTimes.join(', ')} ms`);

  // 2. A crash: restart h, then SIGKILL o (which now holds everyone). Three clients come back
  //    through h as themselves; Dan does not, and is swept from the others' rosters.
  instances[h] = startInstance(h);
  await ready(PORTS[h]);
  // Caddy routes to the restarted instance once its health check has seen it ready.
  if (byMeeting) await sleep(2500);
  const killedAt = Date.now();
  const beforeKill = new Map(clients.map((c) => [c, c.seen.length]));
  instances[o].kill('SIGKILL');
  await sleep(50);
  const back = await Promise.all(
    clients.slice(0, 3).map(async (c) => {
      const m = await c.reconnect();
      expect(
        m.self.id === c.id && m.resumed,
        `${c.name} resumed as itself through ${hName} after ${oName} was killed`,
      );
      return Date.now() - killedAt;
    }),
  );
  console.log(`crash: back in the room after ${back.join(', ')} ms`);
  const deadline = Date.now() + Number(PRESENCE_TTL_MS) * 3;
  let swept = null;
  while (Date.now() < deadline && !swept) {
    swept = clients[0].seen
      .slice(beforeKill.get(clients[0]))
      .find((m) => m.type === 'participant_left' && m.participantId === clients[3].id);
    await sleep(50);
  }
  expect(
    !!swept,
    `Dan (gone with ${oName}) left the others' roster after ${Date.now() - killedAt} ms (PRESENCE_TTL_MS ${PRESENCE_TTL_MS})`,
  );
  clients[0].socket.send(JSON.stringify({ type: 'request_existing_connections', requestId: 'r1' }));
  await sleep(300);
  const roster = clients[0].seen.findLast((m) => m.type === 'existing_connections');
  const ids = roster.participants.map((p) => p.id).sort();
  expect(
    JSON.stringify(ids) === JSON.stringify([clients[1].id, clients[2].id].sort()),
    'the roster holds Bob and Cat once each, and not Dan',
  );
  for (const c of clients.slice(0, 3)) c.socket.send(JSON.stringify({ type: 'leave_meeting' }));
  await sleep(300);
}

// ------------------------------------------------------------------------------------- main

if (process.argv[2] === 'proxy') {
  const [port, ...ups] = process.argv.slice(3).map(Number);
  runProxy(port, ups);
} else {
  mkdirSync(DATA_DIR, { recursive: true });
  process.on('SIGINT', () => {
    stopAll();
    process.exit(130);
  });
  process.on('SIGTERM', () => {
    stopAll();
    process.exit(143);
  });
  const instances = [startInstance(0), startInstance(1)];
  if (env.TOPOLOGY_PROXY === 'caddy') startCaddy();
  else start('proxy', [fileURLToPath(import.meta.url), 'proxy', String(PROXY_PORT), ...PORTS.map(String)]);
  try {
    await Promise.all(PORTS.map((p) => ready(p)));
    // Caddy routes only to instances its health check has seen ready (every 2 s).
    if (env.TOPOLOGY_PROXY === 'caddy') await ready(PROXY_PORT);
    console.log(`Parley on two instances: http://localhost:${PROXY_PORT} (instances :${PORTS.join(', :')})`);
    if (process.argv.includes('--smoke')) {
      await smoke(instances);
      console.log('topology smoke passed');
      stopAll();
      process.exit(0);
    }
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    stopAll();
    process.exit(1);
  }
}
