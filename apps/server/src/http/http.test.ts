import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../test/app.js';

const echo: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/test-echo',
    { schema: { body: z.strictObject({ name: z.string().min(2), count: z.number().int() }) } },
    async (request) => ({ got: request.body }),
  );
  app.get('/api/test-boom', async () => {
    throw new Error('secret internal detail');
  });
};

describe('HTTP foundation', () => {
  let t: TestContext;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(path.join(os.tmpdir(), 'parley-web-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    writeFileSync(path.join(webDir, 'assets', 'index-abc123.js.gz'), gzipSync('console.log(1)'));
    writeFileSync(path.join(webDir, 'favicon.svg'), '<svg/>');
    t = await createTestApp({ WEB_DIST_DIR: webDir }, (app) => app.register(echo));
  });
  afterAll(() => t.close());

  it('answers health with ok', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.statusCode).toBe(200);
    // The API suites run peer-to-peer (MEDIA_PROVIDER=p2p), and health says so.
    expect(res.json()).toEqual({
      status: 'ok',
      sfu: { state: 'off', reason: 'peer-to-peer only (MEDIA_PROVIDER=p2p)' },
    });
  });

  it('answers ready when the database answers, and 503 when it does not', async () => {
    const res = await t.app.inject('/api/ready');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ready' });

    const original = t.db.ping;
    t.db.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const down = await t.app.inject('/api/ready');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'unavailable' });
    } finally {
      t.db.ping = original;
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject('/api/does-not-exist?x=1');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toEqual({ message: 'Not found: GET /api/does-not-exist' });
  });

  it('answers malformed JSON with 400 and a message', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "ab", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Malformed JSON in request body' });
  });

  it('answers a body that fails its schema with 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      payload: { name: 'a', count: 'three' },
    });
    expect(res.statusCode).toBe(400);
    const { message } = res.json<{ message: string }>();
    expect(message).toMatch(/^Invalid request: /);
    expect(message).toContain('body.name');
    expect(message).toContain('body.count');
  });

  it('answers an unknown field with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      payload: { name: 'abc', count: 1, admin: true },
    });
    expect(res.statusCode).toBe(400);
  });

  it('accepts a valid body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      payload: { name: 'abc', count: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ got: { name: 'abc', count: 3 } });
  });

  it('answers a body over the limit with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(2_000_000), count: 1 }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Request body is too large' });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test-echo',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(res.statusCode).toBe(415);
  });

  it('hides internal errors behind a generic 500', async () => {
    const res = await t.app.inject('/api/test-boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error' });
    expect(res.body).not.toContain('secret');
  });

  it('sends security headers with a strict Content-Security-Policy', async () => {
    const res = await t.app.inject('/api/health');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    // No eval() of strings; compiling WebAssembly from our own files is allowed (background effects).
    expect(csp).not.toContain("'unsafe-eval'");
    expect(csp).toContain("'wasm-unsafe-eval'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives every response a request id, echoing one the caller sent', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers['x-request-id']).toBe('abc-123');
  });

  it('serves index.html for client routes, uncached', async () => {
    for (const url of ['/', '/meetings', '/meeting/123-456-789?name=Ann', '/no/such/page']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await t.app.inject('/assets/index-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await t.app.inject('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('public, max-age=300');
  });

  it("sends the build's Brotli or gzip copy of an asset to a browser that takes it", async () => {
    const br = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers.vary?.toString().toLowerCase()).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');

    const gz = await t.app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');

    const plain = await t.app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('answers a missing asset with 404, not the SPA', async () => {
    const res = await t.app.inject('/assets/missing-123.js');
    expect(res.statusCode).toBe(404);
  });
});
