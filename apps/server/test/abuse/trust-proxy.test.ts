import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestApp, type TestContext } from '../app.js';

/**
 * Security review, item 1 (configuration): with TRUST_PROXY=true every X-Forwarded-For is
 * believed, so a client names its own address and each guess comes from a "different" one.
 * TRUST_PROXY now also takes a hop count or the proxies' addresses, and then the address a
 * client writes itself is not taken for its own.
 */
async function appWith(trustProxy: string): Promise<TestContext> {
  return createTestApp({ TRUST_PROXY: trustProxy }, (app) => {
    // What every per-address limit keys on.
    app.get('/test/client-address', async (request) => ({ ip: request.ip }));
  });
}

async function clientAddress(t: TestContext, forwardedFor: string, remoteAddress = '127.0.0.1') {
  const res = await t.app.inject({
    url: '/test/client-address',
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
  });
  return (res.json() as { ip: string }).ip;
}

describe('TRUST_PROXY as a hop count (one proxy in front)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith('1');
  });
  afterAll(async () => t?.close());

  it('takes the address the proxy saw, whatever the client wrote before it', async () => {
    // The client sends "X-Forwarded-For: 198.51.100.<n>"; the proxy appends the real 203.0.113.7.
    const seen = new Set<string>();
    for (let n = 1; n <= 111; n++) seen.add(await clientAddress(t, `198.51.100.${n}, 203.0.113.7`));
    expect([...seen]).toEqual(['203.0.113.7']);
  });
});

describe('TRUST_PROXY as a list of proxy addresses', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await appWith('10.0.0.0/8, 192.168.1.10');
  });
  afterAll(async () => t?.close());

  it('believes the header only from a listed proxy', async () => {
    expect(await clientAddress(t, '203.0.113.7', '10.1.2.3')).toBe('203.0.113.7');
    expect(await clientAddress(t, '203.0.113.7', '192.168.1.10')).toBe('203.0.113.7');
    // Straight from the internet, a forged header changes nothing.
    expect(await clientAddress(t, '198.51.100.9', '203.0.113.50')).toBe('203.0.113.50');
    // Through the proxy, an address the client prepended is skipped.
    expect(await clientAddress(t, '198.51.100.9, 203.0.113.7', '10.1.2.3')).toBe('203.0.113.7');
  });
});

describe('TRUST_PROXY=true', () => {
  it('still works, believes every header, and is warned about at start-up', async () => {
    const t = await appWith('true');
    try {
      expect(await clientAddress(t, '198.51.100.1')).toBe('198.51.100.1');
      expect(await clientAddress(t, '198.51.100.2')).toBe('198.51.100.2');
    } finally {
      await t.close();
    }
    expect(loadConfig({ TRUST_PROXY: 'true' }).warnings.join('\n')).toMatch(
      /TRUST_PROXY=true believes every X-Forwarded-For header: any client can name its own address/,
    );
    expect(loadConfig({ TRUST_PROXY: '1' }).warnings).toEqual([]);
  });

  it('refuses a value that is none of these, naming it', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY.*10\.0\.0\.0\/33/);
    expect(loadConfig({ TRUST_PROXY: 'loopback, fd00::/8' }).trustProxy).toEqual(['loopback', 'fd00::/8']);
    expect(loadConfig({}).trustProxy).toBe(false);
  });
});
