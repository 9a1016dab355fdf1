import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../app.js';

/**
 * Security review (issue 34, item 9): /metrics answered anyone without a token, whatever HOST
 * the server listened on. On a network HOST without METRICS_TOKEN it is now served only on a
 * loopback-only port; the main port says where it went. With a token it stays on the main port
 * (metrics.test.ts), and on a loopback HOST it is open as before.
 */
describe('/metrics on a network HOST without a token', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({
      HOST: '0.0.0.0',
      ALLOW_DEV_SERVICES_ON_NETWORK: 'true',
      METRICS_PORT: '0',
    });
    await t.app.ready();
  });
  afterAll(async () => t?.close());

  it('is not on the main port', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/127\.0\.0\.1:0 only; set METRICS_TOKEN/);
    expect(res.body).not.toContain('parley_');
  });

  it('is served on the loopback-only port, and only at /metrics', async () => {
    const address = t.app.metricsServer?.address() as AddressInfo;
    expect(address.address).toBe('127.0.0.1');
    const res = await fetch(`http://127.0.0.1:${address.port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('parley_active_participants');
    expect((await fetch(`http://127.0.0.1:${address.port}/api/health`)).status).toBe(404);
  });
});
