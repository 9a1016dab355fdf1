import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('runs on embedded defaults with no environment', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.database.url).toBeUndefined();
    expect(c.database.pgliteDir).toMatch(/data[/\\]pglite$/);
    expect(c.oidc.issuer).toBeUndefined();
  });

  it('rejects a bad port with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });

  it('refuses production on the development issuer unless explicitly allowed', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true' }).env).toBe(
      'production',
    );
  });

  it('needs a client id with an issuer', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
  });

  it('parses comma-separated ICE URLs', () => {
    const c = loadConfig({ STUN_URLS: 'stun:a.example:3478, stun:b.example:3478' });
    expect(c.ice.stunUrls).toEqual(['stun:a.example:3478', 'stun:b.example:3478']);
  });
});
