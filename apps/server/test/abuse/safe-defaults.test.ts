import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { CookieBrowser, signInThroughDevIssuer } from '../../src/modules/auth/testing/cookie-browser.js';
import { createDevIssuerStore } from '../../src/providers/identity/dev-issuer-store.js';
import { createTestApp, type TestContext } from '../app.js';

/**
 * Security review, item 10: without NODE_ENV=production anyone who reaches the server can sign
 * in as any email, get Pro for free and read /dev/outbox, and `npm start` listened on 0.0.0.0;
 * 2,000 anonymous `/oidc/auth` requests grew the development issuer's store from 41 KB to
 * 1.5 MB, rewritten whole every 250 ms.
 */
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const realServices = {
  NODE_ENV: 'production',
  OIDC_ISSUER: 'https://id.example.com',
  OIDC_CLIENT_ID: 'parley',
  STRIPE_SECRET_KEY: 'sk_live_x',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
  STRIPE_WEBHOOK_SECRET: 'whsec_x',
  STRIPE_PRICE_ID: 'price_x',
};

describe('development services and the network', () => {
  it('refuses to start the real server on 0.0.0.0 with the development services on', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-refuse-'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: { PATH: process.env.PATH, HOST: '0.0.0.0', PORT: '0', DATA_DIR: dataDir },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Refusing to start: HOST=0.0.0.0 is not a loopback address');
    expect(run.stderr).toContain('anyone can sign in as any email');
    expect(run.stderr).toContain('test cards grant Pro for free');
    expect(run.stderr).toContain('/dev/outbox');
    expect(run.stderr).toContain('ALLOW_DEV_SERVICES_ON_NETWORK=true');
    // It stopped before opening anything: no database was created.
    expect(existsSync(path.join(dataDir, 'pglite'))).toBe(false);
  });

  it('listens on loopback by default, so `npm start` serves http://localhost:3000 to this machine only', () => {
    const c = loadConfig({});
    expect(c.host).toBe('localhost');
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.devServices).toEqual(['development sign-in', 'payments sandbox', 'mail outbox page']);
    expect(c.warnings).toEqual([]);
    for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.0.2'])
      expect(loadConfig({ HOST: host }).host).toBe(host);
  });

  it('refuses any one development service on a network address, naming it', () => {
    const onlySandbox = {
      ...realServices,
      STRIPE_SECRET_KEY: '',
      ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
    };
    expect(() => loadConfig({ ...onlySandbox, HOST: '10.0.0.5' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...onlySandbox, HOST: '10.0.0.5' })).toThrow(/payments sandbox: test cards/);
    const onlyOutbox = { ...realServices, NODE_ENV: 'development' };
    expect(() => loadConfig({ ...onlyOutbox, HOST: '0.0.0.0' })).toThrow(/mail outbox page/);
  });

  it('starts with the explicit flag, and says so loudly', () => {
    const c = loadConfig({ HOST: '0.0.0.0', ALLOW_DEV_SERVICES_ON_NETWORK: 'true' });
    expect(c.host).toBe('0.0.0.0');
    expect(c.warnings).toHaveLength(1);
    expect(c.warnings[0]).toMatch(/^DEVELOPMENT SERVICES ARE REACHABLE FROM THE NETWORK \(HOST=0\.0\.0\.0/);
  });

  it('listens on every interface by default once the real services are configured', () => {
    const c = loadConfig(realServices);
    expect(c.host).toBe('0.0.0.0');
    expect(c.devServices).toEqual([]);
    expect(c.warnings).toEqual([]);
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

describe("the development issuer's store under anonymous sign-in starts", () => {
  let t: TestContext;
  let origin: string;
  let storeFile: string;
  beforeAll(async () => {
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    t = await createTestApp({ PUBLIC_URL: origin });
    await t.app.listen({ host: '127.0.0.1', port });
    storeFile = path.join(t.config.dataDir, 'identity', 'dev-issuer-store.json');
  });
  afterAll(async () => t?.close());

  it('is not grown or rewritten by 2,000 anonymous /oidc/auth requests; sign-in still works and is kept', async () => {
    // A developer signs in first: the store file holds their session.
    const dev = new CookieBrowser(origin);
    expect(
      (await signInThroughDevIssuer(dev, { email: 'dev@example.com', firstName: 'Dev', lastName: 'One' }))
        .status,
    ).toBe(302);
    await new Promise((r) => setTimeout(r, 400));
    const before = statSync(storeFile);

    const login = await t.app.inject('/api/login');
    const authorize = new URL(login.headers.location!);
    for (let i = 0; i < 2000; i++) {
      const res = await t.app.inject(authorize.pathname + authorize.search);
      expect(res.statusCode).toBe(303);
    }
    await new Promise((r) => setTimeout(r, 400));
    const after = statSync(storeFile);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.size).toBe(before.size);
    expect(readFileSync(storeFile, 'utf8')).not.toContain('"Interaction:');

    // Someone else still signs in, and their session is written down (it survives a restart).
    const next = new CookieBrowser(origin);
    expect(
      (await signInThroughDevIssuer(next, { email: 'two@example.com', firstName: 'Two', lastName: 'Dev' }))
        .status,
    ).toBe(302);
    await new Promise((r) => setTimeout(r, 400));
    expect(statSync(storeFile).mtimeMs).toBeGreaterThan(before.mtimeMs);
  }, 60_000);
});

describe('the development issuer store itself', () => {
  it('drops entries at their TTL and caps the count, soonest-expiring first, never the accounts', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-store-'));
    let now = 1_000_000;
    const store = createDevIssuerStore(path.join(dir, 'store.json'), { maxEntries: 100, now: () => now });
    await store.adapter('DevAccount').upsert('dev@example.com', { email: 'dev@example.com' });
    await store.adapter('Session').upsert('s1', { accountId: 'dev@example.com' }, 14 * 86_400);
    const interactions = store.adapter('Interaction');
    for (let i = 0; i < 1000; i++) {
      now += 1000;
      await interactions.upsert(`i${i}`, { uid: `i${i}` }, 15 * 60);
    }
    expect(store.stats().entries).toBeLessThanOrEqual(100);
    expect(await store.adapter('DevAccount').find('dev@example.com')).toBeDefined();
    expect(await store.adapter('Session').find('s1')).toBeDefined();
    expect(await interactions.find('i999')).toBeDefined();
    expect(await interactions.find('i0')).toBeUndefined();

    // Two hours on, every interaction has expired and is gone at the next write.
    now += 2 * 3600_000;
    await interactions.upsert('late', { uid: 'late' }, 15 * 60);
    expect(store.stats().entries).toBe(3);
    // Interactions are never written down: the only file writes came from the account and session.
    store.flush();
    expect(store.stats().writes).toBe(1);
    expect(
      Object.keys(JSON.parse(readFileSync(path.join(dir, 'store.json'), 'utf8')) as object).sort(),
    ).toEqual(['DevAccount:dev@example.com', 'Session:s1']);
    store.flush();
    expect(store.stats().writes).toBe(1);
  });
});
