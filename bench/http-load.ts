/**
 * Two routes under load, against the production build as a real process, on PGlite (embedded
 * default) and on PostgreSQL: autocannon, 100 connections, 10 s each.
 * - `GET /api/health`: no database.
 * - `GET /api/auth/user` signed in: a real session made by signing in through the development
 *   issuer first; the server resolves the cookie (session by hash, then the user) and answers 200.
 *   Every answer must be a 2xx: a run with any other status is a failed benchmark, not a figure.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  CookieBrowser,
  signInThroughDevIssuer,
} from '../apps/server/src/modules/auth/testing/cookie-browser.js';
import { startServer } from '../e2e/support/server.js';
import { recordResult, repoRoot } from './support/results.js';

const CONNECTIONS = 100;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Figures {
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  totalRequests: number;
}

async function load(url: string, headers: Record<string, string> = {}): Promise<Figures> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers });
  return {
    requestsPerSecond: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    totalRequests: r.requests.total,
  };
}

async function scenario(label: string, env: Record<string, string>) {
  const server = await startServer({ LOG_LEVEL: 'warn', ...env });
  try {
    // Warm up (JIT, connection pool) before measuring.
    await autocannon({ url: `${server.url}/api/health`, connections: 10, duration: 1 });
    const health = await load(`${server.url}/api/health`);
    const browser = new CookieBrowser(server.url);
    browser.extraHeaders = { 'sec-fetch-site': 'same-origin' };
    await signInThroughDevIssuer(browser, {
      email: 'bench@example.com',
      firstName: 'Bench',
      lastName: 'User',
    });
    const cookie = browser.cookieHeader('/api/auth/user');
    if (!cookie.includes('parley_sid='))
      throw new Error('signing in through the development issuer gave no session');
    const signedIn = await load(`${server.url}/api/auth/user`, { cookie, accept: 'application/json' });
    for (const [name, f] of [
      ['GET /api/health (no database)', health],
      ['GET /api/auth/user (signed in, 200)', signedIn],
    ] as const) {
      console.log(
        `${label.padEnd(10)} ${name.padEnd(38)} ${String(f.requestsPerSecond).padStart(7)} req/s  p50 ${f.latencyP50Ms} ms  p99 ${f.latencyP99Ms} ms  non-2xx ${f.non2xx}  errors ${f.errors}`,
      );
      if (f.non2xx > 0 || f.errors > 0)
        failures.push(`${label} ${name}: ${f.non2xx} non-2xx, ${f.errors} errors`);
    }
    return { health, signedInUser: signedIn };
  } finally {
    await server.stop();
  }
}

const failures: string[] = [];
const results: Record<string, unknown> = {
  connections: CONNECTIONS,
  durationSeconds: DURATION_S,
  note: 'server LOG_LEVEL=warn (no per-request log lines); signedInUser is GET /api/auth/user with a session made through the development issuer (every answer 200)',
};
results.pglite = await scenario('pglite', {});

const dbName = `parley_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
try {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  results.postgres = await scenario('postgres', { DATABASE_URL: url.toString() });
} catch (err) {
  console.log(`postgres: skipped (${(err as Error).message})`);
  results.postgres = { skipped: (err as Error).message };
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin.end().catch(() => undefined);
}

results.failures = failures;
const out = recordResult('http-load', results);
console.log(`recorded ${path.relative(repoRoot, out)}`);
if (failures.length) {
  console.error(`FAILED: ${failures.join('; ')}`);
  process.exit(1);
}
