import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, signIn, type TestContext } from '../../../test/app.js';
import { sessions } from '../../db/schema/index.js';
import { SESSION_IDLE_MS, hashSessionToken } from './session-service.js';

describe('sessions and the current user', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 without a session and with an unknown one', async () => {
    expect((await t.app.inject('/api/auth/user')).statusCode).toBe(401);
    const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie: 'parley_sid=nope' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Please log in' });
  });

  it('answers the user for a valid session', async () => {
    const { cookie, userId } = await signIn(t, {
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
    });
    const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: userId, email: 'ann@example.com', firstName: 'Ann', lastName: 'Lee' });
  });

  it('reads the session for API calls only, not for the pages and files of the web app', async () => {
    const { cookie } = await signIn(t, { email: 'static@example.com' });
    const resolve = vi.spyOn(t.app.sessions, 'resolve');
    try {
      for (const url of ['/', '/meetings', '/assets/index-abc123.js', '/favicon.svg']) {
        await t.app.inject({ url, headers: { cookie } });
      }
      expect(resolve).not.toHaveBeenCalled();
      const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(resolve).toHaveBeenCalledTimes(1);
    } finally {
      resolve.mockRestore();
    }
  });

  it('stores only a hash of the session token', async () => {
    const { cookie } = await signIn(t, { email: 'hash@example.com' });
    const token = cookie.split('=')[1]!;
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.db.db.select().from(sessions);
    expect(rows.some((r) => r.idHash === token)).toBe(false);
    expect(rows.some((r) => r.idHash === hashSessionToken(token))).toBe(true);
  });

  it('hashes session tokens with SHA-256 as hex (a known answer: FIPS 180-2 "abc")', () => {
    expect(hashSessionToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('updates the profile: trimmed, empty becomes null', async () => {
    const { cookie } = await signIn(t, { email: 'bo@example.com', firstName: 'Bo' });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: { cookie },
      payload: { firstName: '  Bob  ', lastName: '   ' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Bob', lastName: null });
    const again = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(again.json()).toMatchObject({ firstName: 'Bob', lastName: null });
  });

  it('refuses an email change, too-long names and wrong types with 400', async () => {
    const { cookie } = await signIn(t, { email: 'cy@example.com' });
    const send = (payload: unknown) =>
      t.app.inject({
        method: 'PATCH',
        url: '/api/auth/user/update',
        headers: { cookie },
        payload: payload as object,
      });
    const email = await send({ firstName: 'Cy', email: 'evil@example.com' });
    expect(email.statusCode).toBe(400);
    expect(email.json()).toEqual({ message: 'Email cannot be changed' });
    const long = await send({ firstName: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    // The same wording as every other route's bad input: where (body.firstName), then what.
    expect(long.json().message).toMatch(/^Invalid request: body\.firstName: /);
    expect((await send({ firstName: 42 })).statusCode).toBe(400);
    expect((await send([1, 2])).statusCode).toBe(400);
  });

  it('refuses a cross-site state-changing request made with the cookie', async () => {
    const { cookie } = await signIn(t, { email: 'dee@example.com' });
    const crossOrigin = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: { cookie, origin: 'https://evil.example', host: 'localhost:3000' },
      payload: { firstName: 'Hacked' },
    });
    expect(crossOrigin.statusCode).toBe(403);
    expect(crossOrigin.json()).toEqual({ message: 'Cross-site request refused' });
    const crossSite = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
      payload: { firstName: 'Hacked' },
    });
    expect(crossSite.statusCode).toBe(403);
    const sameOrigin = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: {
        cookie,
        origin: 'http://localhost:3000',
        host: 'localhost:3000',
        'sec-fetch-site': 'same-origin',
      },
      payload: { firstName: 'Dee' },
    });
    expect(sameOrigin.statusCode).toBe(200);
    // Behind a proxy that rewrites Host, the page's origin is still PUBLIC_URL's.
    const proxied = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: { cookie, origin: t.config.publicUrl, host: '10.0.0.5:3000', 'sec-fetch-site': 'same-origin' },
      payload: { firstName: 'Dee' },
    });
    expect(proxied.statusCode).toBe(200);
    const lookalike = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/user/update',
      headers: { cookie, origin: `${t.config.publicUrl}.evil.example`, host: '10.0.0.5:3000' },
      payload: { firstName: 'Hacked' },
    });
    expect(lookalike.statusCode).toBe(403);
  });

  it('ends an idle session after 7 days and tells listeners', async () => {
    const { cookie } = await signIn(t, { email: 'idle@example.com' });
    const token = cookie.split('=')[1]!;
    const idHash = hashSessionToken(token);
    const ended: string[] = [];
    const off = t.app.sessions.onSessionEnded((h) => ended.push(h));
    await t.db.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS - 1000) })
      .where(eq(sessions.idHash, idHash));
    const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(res.statusCode).toBe(401);
    expect(ended).toContain(idHash);
    off();
  });

  it('ends a session past its absolute lifetime', async () => {
    const { cookie } = await signIn(t, { email: 'old@example.com' });
    const idHash = hashSessionToken(cookie.split('=')[1]!);
    await t.db.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, idHash));
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(401);
    expect(await t.app.sessions.sweep()).toBeGreaterThanOrEqual(0);
  });
});
