// Runs deploy/caddy/Caddyfile as it is (Debian's `caddy`) in front of two stub instances and
// checks how it routes: every socket of one meeting (`/ws?meetingId=…`, whatever the name) to one
// instance, meetings spread over both, a client's own X-Parley-Meeting header ignored, and a
// meeting whose instance stops answering moved whole to the other. Used by deploy/check.sh.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';

const PROXY = 3190;
const PORTS = [3191, 3192];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A stub instance: ready, and answers every other request with its own port. */
function stub(port) {
  const server = http.createServer((req, res) => {
    if (req.url === '/api/ready') return void res.end('ok');
    res.end(String(port));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function via(pathAndQuery, headers = {}) {
  const res = await fetch(`http://127.0.0.1:${PROXY}${pathAndQuery}`, { headers });
  return Number(await res.text());
}

let failed = false;
function check(ok, what) {
  console.log(`${ok ? 'ok' : 'not ok'} - ${what}`);
  if (!ok) failed = true;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-caddy-'));
const servers = await Promise.all(PORTS.map(stub));
const caddy = spawn('caddy', ['run', '--adapter', 'caddyfile', '--config', 'deploy/caddy/Caddyfile'], {
  env: {
    ...process.env,
    PARLEY_SITE: `:${PROXY}`,
    PARLEY_UPSTREAMS: PORTS.map((p) => `127.0.0.1:${p}`).join(' '),
    PARLEY_CADDY_ADMIN: 'off',
    XDG_DATA_HOME: dir,
    XDG_CONFIG_HOME: dir,
  },
  stdio: 'ignore',
});
try {
  // Caddy routes nowhere until its first health check has passed (every 2 s).
  for (let i = 0; i < 100; i++) {
    try {
      if (PORTS.includes(await via('/'))) break;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  const meetings = Array.from({ length: 12 }, (_, i) => `mtg${i}-${'abcdefgh'[i % 8]}`);
  const home = new Map();
  let together = true;
  for (const m of meetings) {
    const seen = new Set();
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan', 'Eve']) {
      seen.add(await via(`/ws?meetingId=${m}&name=${name}&host=false`));
      seen.add(await via(`/ws?meetingId=${m}&name=${name}`, { 'X-Parley-Meeting': name }));
    }
    if (seen.size !== 1) together = false;
    home.set(m, [...seen][0]);
  }
  check(together, 'every socket of a meeting reaches one instance (12 meetings, 10 sockets each)');
  const spread = new Set(home.values());
  check(spread.size === 2, `meetings spread over both instances (${[...home.values()].join(' ')})`);
  const plain = new Set();
  for (let i = 0; i < 6; i++) plain.add(await via('/api/health'));
  check(plain.size === 2, 'other requests go round robin over both');

  // The instance of the first meeting stops: its meetings move, whole, to the other.
  const gone = home.get(meetings[0]);
  servers[PORTS.indexOf(gone)].closeAllConnections();
  await new Promise((r) => servers[PORTS.indexOf(gone)].close(r));
  await sleep(300);
  let moved = true;
  let stayed = true;
  for (const m of meetings) {
    const now = new Set();
    for (const name of ['Ann', 'Bob', 'Cat']) now.add(await via(`/ws?meetingId=${m}&name=${name}`));
    if (home.get(m) === gone && (now.size !== 1 || now.has(gone))) moved = false;
    if (home.get(m) !== gone && (now.size !== 1 || !now.has(home.get(m)))) stayed = false;
  }
  check(moved, "the stopped instance's meetings reach the other one, each whole");
  check(stayed, "the other instance's meetings stay where they were");
} finally {
  caddy.kill();
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
