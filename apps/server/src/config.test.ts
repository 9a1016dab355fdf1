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
    expect(
      loadConfig({
        NODE_ENV: 'production',
        ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
        ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
      }).env,
    ).toBe('production');
  });

  it('refuses production on the payments sandbox (free Pro with test cards) unless explicitly allowed', () => {
    const prod = { NODE_ENV: 'production', OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'p' };
    expect(() => loadConfig(prod)).toThrow(/STRIPE_SECRET_KEY.*payments sandbox/);
    expect(() => loadConfig({ ...prod, ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'false' })).toThrow(ConfigError);
    const allowed = loadConfig({ ...prod, ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true' });
    expect(allowed.stripe.secretKey).toBeUndefined();
    expect(allowed.stripe.allowSandboxInProduction).toBe(true);
    const stripe = loadConfig({
      ...prod,
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
      STRIPE_PRICE_ID: 'price_x',
    });
    expect(stripe.stripe.secretKey).toBe('sk_live_x');
    // Development keeps the sandbox without any setting.
    expect(loadConfig({}).stripe.secretKey).toBeUndefined();
  });

  it('checks Stripe settings are complete when STRIPE_SECRET_KEY is set', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x' })).toThrow(
      /Stripe also needs: STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_ID/,
    );
  });

  it('needs a client id with an issuer', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://id.example.com' })).toThrow(/OIDC_CLIENT_ID/);
  });

  it('parses comma-separated ICE URLs', () => {
    const c = loadConfig({ STUN_URLS: 'stun:a.example:3478, stun:b.example:3478' });
    expect(c.ice.stunUrls).toEqual(['stun:a.example:3478', 'stun:b.example:3478']);
  });

  it('uses the public STUN servers unless STUN_URLS is set; none or empty turns STUN off', () => {
    expect(loadConfig({}).ice.stunUrls).toEqual([
      'stun:stun.l.google.com:19302',
      'stun:stun1.l.google.com:19302',
    ]);
    expect(loadConfig({ STUN_URLS: 'none' }).ice.stunUrls).toEqual([]);
    expect(loadConfig({ STUN_URLS: ' NONE ' }).ice.stunUrls).toEqual([]);
    expect(loadConfig({ STUN_URLS: '' }).ice.stunUrls).toEqual([]);
  });
});
