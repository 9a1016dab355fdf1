import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { loadConfig } from '../../config.js';
import { sessions, users } from '../../db/schema/index.js';
import { hashSessionToken, SESSION_COOKIE } from './session-service.js';
import { CookieBrowser, parseForm, type Hop } from './testing/cookie-browser.js';

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

/** The real app listening on a real port, its PUBLIC_URL (and so the dev issuer) matching it. */
async function listeningApp(env: Record<string, string> = {}): Promise<{ t: TestContext; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ PUBLIC_URL: origin, ...env });
  await t.app.listen({ host: '127.0.0.1', port });
  return { t, origin };
}

interface Who {
  email: string;
  firstName: string;
  lastName: string;
}

/** /api/login → the development sign-in page (returns its hops and the page). */
async function openSignInPage(b: CookieBrowser): Promise<{ hops: Hop[]; page: Hop }> {
  const hops = await b.follow('/api/login');
  const page = hops.at(-1)!;
  expect(page.status).toBe(200);
  return { hops, page };
}

/** Submits the dev form and follows the redirects up to (not including) /api/callback. */
async function submitUntilCallback(b: CookieBrowser, page: Hop, who: Who): Promise<string> {
  const { action } = parseForm(page.body);
  const posted = await b.request(action, { form: { ...who } });
  expect(posted.status).toBe(303);
  const hops = await b.follow(posted.location!, (h) => h.location?.includes('/api/callback') ?? false);
  const last = hops.at(-1)!;
  expect(last.location).toContain('/api/callback?');
  return last.location!;
}

async function signInThroughIssuer(b: CookieBrowser, who: Who): Promise<Hop> {
  const { page } = await openSignInPage(b);
  const callback = await submitUntilCallback(b, page, who);
  return b.request(callback);
}

describe('sign-in through the development issuer', () => {
  let t: TestContext;
  let origin: string;
  beforeAll(async () => {
    ({ t, origin } = await listeningApp());
  });
  afterAll(() => t.close());

  it('signs in with PKCE, state and nonce, shows the user, updates the profile and signs out', async () => {
    const b = new CookieBrowser(origin);
    const { hops, page } = await openSignInPage(b);

    const authorize = new URL(hops[0]!.location!);
    expect(authorize.href.startsWith(`${origin}/oidc/auth?`)).toBe(true);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${origin}/api/callback`);
    const loginCookie = hops[0]!.headers.getSetCookie().find((c) => c.startsWith('parley_login='))!;
    expect(loginCookie).toMatch(/HttpOnly/i);
    expect(loginCookie).toMatch(/Path=\/api\/callback/);
    // The verifier travels sealed, never readable in the cookie.
    expect(decodeURIComponent(loginCookie)).not.toContain(authorize.searchParams.get('state')!);

    expect(page.url).toMatch(new RegExp(`^${origin}/oidc/interaction/[\\w-]+$`));
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toContain('<label for="firstName">First name</label>');
    expect(page.body).toContain('<label for="lastName">Last name</label>');
    expect(page.body).toContain('<button type="submit">Sign in</button>');
    expect(page.body).toContain('development sign-in');
    expect(page.body).not.toMatch(/type="password"/);

    const callback = await submitUntilCallback(b, page, {
      email: 'Ann.Lee@Example.com',
      firstName: ' Ann ',
      lastName: 'Lee',
    });
    const done = await b.request(callback);
    expect(done.status).toBe(302);
    expect(done.location).toBe(`${origin}/?login=success`);
    const sessionCookie = done.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;
    expect(sessionCookie).toMatch(/HttpOnly/i);
    expect(sessionCookie).toMatch(/SameSite=Lax/i);
    expect(sessionCookie).not.toMatch(/Secure/i);
    expect(b.cookie('parley_login')).toBeUndefined();

    const me = await b.request('/api/auth/user', { headers: { accept: 'application/json' } });
    expect(me.status).toBe(200);
    const user = JSON.parse(me.body);
    expect(user).toMatchObject({ email: 'ann.lee@example.com', firstName: 'Ann', lastName: 'Lee' });
    const [row] = await t.db.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.issuer).toBe(`${origin}/oidc`);

    const patched = await b.request('/api/auth/user/update', {
      method: 'PATCH',
      json: { firstName: 'Annie', lastName: '  ' },
      headers: { origin, 'sec-fetch-site': 'same-origin' },
    });
    expect(patched.status).toBe(200);
    const again = JSON.parse(
      (await b.request('/api/auth/user', { headers: { accept: 'application/json' } })).body,
    );
    expect(again).toMatchObject({ firstName: 'Annie', lastName: null });

    const ended: string[] = [];
    const off = t.app.sessions.onSessionEnded((h) => ended.push(h));
    const sid = b.cookie(SESSION_COOKIE)!;
    const logout = await b.request('/api/logout');
    off();
    expect(ended).toEqual([hashSessionToken(sid)]);
    expect(logout.status).toBe(302);
    expect(logout.location!.startsWith(`${origin}/oidc/session/end?`)).toBe(true);
    expect(new URL(logout.location!).searchParams.get('post_logout_redirect_uri')).toBe(`${origin}/`);
    expect(b.cookie(SESSION_COOKIE)).toBeUndefined();

    // The issuer's own logout page submits itself (script from 'self'); submit it as the script does.
    const endPage = await b.request(logout.location!);
    expect(endPage.status).toBe(200);
    const { action, fields } = parseForm(endPage.body);
    const confirmed = await b.request(action, { form: { ...fields, logout: 'yes' } });
    expect(confirmed.location).toBe(`${origin}/`);

    expect((await b.request('/api/auth/user')).status).toBe(401);
    const replayCookie = await t.app.inject({
      url: '/api/auth/user',
      headers: { cookie: `${SESSION_COOKIE}=${sid}` },
    });
    expect(replayCookie.statusCode).toBe(401);

    // Signed out of the issuer too: the next sign-in asks again instead of silently reusing it.
    const { page: nextPage } = await openSignInPage(b);
    expect(nextPage.body).toContain('Sign in</button>');
  });

  it('keeps one user per issuer subject and opens a new session id at each sign-in', async () => {
    const b = new CookieBrowser(origin);
    const who = { email: 'bo@example.com', firstName: 'Bo', lastName: 'Berg' };
    expect((await signInThroughIssuer(b, who)).location).toBe(`${origin}/?login=success`);
    const first = b.cookie(SESSION_COOKIE)!;
    const id1 = JSON.parse(
      (await b.request('/api/auth/user', { headers: { accept: 'application/json' } })).body,
    ).id;

    // Still signed in at the issuer: a second /api/login comes straight back (single sign-on).
    const hops = await b.follow('/api/login', (h) => h.url.includes('/api/callback'));
    expect(hops.at(-1)!.location).toBe(`${origin}/?login=success`);
    const next = b.cookie(SESSION_COOKIE)!;
    expect(next).not.toBe(first);
    const me = JSON.parse(
      (await b.request('/api/auth/user', { headers: { accept: 'application/json' } })).body,
    );
    expect(me).toMatchObject({ id: id1, firstName: 'Bo', lastName: 'Berg' });
    // The earlier session of this browser was ended, not left behind.
    const old = await t.app.inject({
      url: '/api/auth/user',
      headers: { cookie: `${SESSION_COOKIE}=${first}` },
    });
    expect(old.statusCode).toBe(401);

    // Another browser signing in with the same email is the same user, with its own session.
    const other = new CookieBrowser(origin);
    await signInThroughIssuer(other, { ...who, firstName: 'Bob' });
    const them = JSON.parse(
      (await other.request('/api/auth/user', { headers: { accept: 'application/json' } })).body,
    );
    expect(them).toMatchObject({ id: id1, firstName: 'Bob' });
    expect((await b.request('/api/auth/user')).status).toBe(200);
  });

  it('refuses a bad email on the development form with the form again', async () => {
    const b = new CookieBrowser(origin);
    const { page } = await openSignInPage(b);
    const { action } = parseForm(page.body);
    const res = await b.request(action, { form: { email: 'not-an-email', firstName: 'X', lastName: 'Y' } });
    expect(res.status).toBe(400);
    expect(res.body).toContain('Please enter a valid email address.');
    expect(res.body).toContain('value="not-an-email"');
  });

  it('refuses a tampered state', async () => {
    const b = new CookieBrowser(origin);
    const { page } = await openSignInPage(b);
    const callback = new URL(
      await submitUntilCallback(b, page, { email: 'eve@example.com', firstName: 'Eve', lastName: 'E' }),
    );
    callback.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    const res = await b.request(callback.href, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual({
      message: 'The sign-in response could not be verified. Please sign in again.',
    });
    expect(b.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a replayed authorization code', async () => {
    const b = new CookieBrowser(origin);
    const { page } = await openSignInPage(b);
    const callback = await submitUntilCallback(b, page, {
      email: 'rex@example.com',
      firstName: 'Rex',
      lastName: 'R',
    });
    const sealed = b.cookie('parley_login')!;
    expect((await b.request(callback)).location).toBe(`${origin}/?login=success`);
    const countBefore = (await t.db.db.select().from(sessions)).length;

    // An attacker holding the callback URL and the login cookie replays both.
    const attacker = new CookieBrowser(origin);
    attacker.jar.set('parley_login\t/api/callback', {
      value: sealed,
      path: '/api/callback',
      expiresAt: null,
    });
    const replay = await attacker.request(callback, { headers: { accept: 'application/json' } });
    expect(replay.status).toBe(400);
    expect(JSON.parse(replay.body).message).toMatch(/already used or has expired/);
    expect(attacker.cookie(SESSION_COOKIE)).toBeUndefined();
    expect((await t.db.db.select().from(sessions)).length).toBe(countBefore);
  });

  it('refuses a callback without the PKCE verifier, and the issuer refuses a code without it', async () => {
    const b = new CookieBrowser(origin);
    const { page } = await openSignInPage(b);
    const callback = await submitUntilCallback(b, page, {
      email: 'pk@example.com',
      firstName: 'Pk',
      lastName: 'Ce',
    });

    // The same browser, but the cookie holding state, nonce and verifier is gone.
    const stripped = new CookieBrowser(origin);
    const res = await stripped.request(callback);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.body).toContain(
      'This sign-in has expired or was started in another browser. Please sign in again.',
    );
    expect(stripped.cookie(SESSION_COOKIE)).toBeUndefined();

    // A forged (altered) login cookie is refused the same way.
    const forged = new CookieBrowser(origin);
    const sealed = b.cookie('parley_login')!;
    forged.jar.set('parley_login\t/api/callback', {
      value: `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`,
      path: '/api/callback',
      expiresAt: null,
    });
    expect((await forged.request(callback)).status).toBe(400);

    // The code itself cannot be redeemed at the token endpoint without the verifier.
    const secrets = JSON.parse(
      readFileSync(path.join(t.config.dataDir, 'identity', 'dev-issuer-keys.json'), 'utf8'),
    );
    const code = new URL(callback).searchParams.get('code')!;
    const token = await fetch(`${origin}/oidc/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`parley:${secrets.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: `${origin}/api/callback`,
      }),
    });
    expect(token.status).toBe(400);
    expect(((await token.json()) as { error: string }).error).toMatch(/invalid_(grant|request)/);
  });

  it('ends an expired session and tells the listeners (WebSockets close on that)', async () => {
    const b = new CookieBrowser(origin);
    await signInThroughIssuer(b, { email: 'exp@example.com', firstName: 'Ex', lastName: 'P' });
    const idHash = hashSessionToken(b.cookie(SESSION_COOKIE)!);
    const ended: string[] = [];
    const off = t.app.sessions.onSessionEnded((h) => ended.push(h));
    await t.db.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, idHash));
    expect((await b.request('/api/auth/user')).status).toBe(401);
    off();
    expect(ended).toEqual([idHash]);
  });

  it('refuses a cross-site state-changing request made with the session cookie', async () => {
    const b = new CookieBrowser(origin);
    await signInThroughIssuer(b, { email: 'cs@example.com', firstName: 'Cross', lastName: 'Site' });
    const evil = await b.request('/api/auth/user/update', {
      method: 'PATCH',
      json: { firstName: 'Hacked' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(evil.status).toBe(403);
    expect(JSON.parse(evil.body)).toEqual({ message: 'Cross-site request refused' });
    const me = JSON.parse(
      (await b.request('/api/auth/user', { headers: { accept: 'application/json' } })).body,
    );
    expect(me.firstName).toBe('Cross');
    // A cross-site link to /api/logout does not sign the user out either.
    await b.request('/api/logout', { headers: { 'sec-fetch-site': 'cross-site' } });
    expect((await b.request('/api/auth/user')).status).toBe(200);
  });
});

describe('identity configuration', () => {
  it('keeps the development issuer keys under DATA_DIR across restarts', async () => {
    const { t, origin } = await listeningApp();
    const jwks1 = await (await fetch(`${origin}/oidc/jwks`)).json();
    await t.app.close();
    const t2 = await createTestApp({ PUBLIC_URL: origin, DATA_DIR: t.config.dataDir });
    const jwks2 = (await t2.app.inject('/oidc/jwks')).json();
    expect(jwks2).toEqual(jwks1);
    await t2.close();
    await t.db.close();
  });

  it('answers a clear 502 when the configured issuer cannot be reached, and retries later', async () => {
    const port = await freePort();
    const t = await createTestApp({
      OIDC_ISSUER: `http://127.0.0.1:${port}/realms/x`,
      OIDC_CLIENT_ID: 'parley',
      OIDC_CLIENT_SECRET: 's3cret',
    });
    try {
      const json = await t.app.inject({ url: '/api/login', headers: { accept: 'application/json' } });
      expect(json.statusCode).toBe(502);
      expect(json.json().message).toMatch(
        new RegExp(`identity provider at http://127.0.0.1:${port}/realms/x could not be reached`),
      );
      const html = await t.app.inject({ url: '/api/login', headers: { accept: 'text/html' } });
      expect(html.statusCode).toBe(502);
      expect(html.body).toContain('Sign-in failed');
      expect(html.body).toContain('href="/api/login"');
      // No development issuer is mounted when a real one is configured.
      expect((await t.app.inject('/oidc/.well-known/openid-configuration')).statusCode).toBe(404);

      // Discovery failures are not cached: once the provider is up, sign-in goes to it.
      const issuer = `http://127.0.0.1:${port}/realms/x`;
      const provider = http.createServer((req, res) => {
        if (req.url === '/realms/x/.well-known/openid-configuration') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({
              issuer,
              authorization_endpoint: `${issuer}/protocol/openid-connect/auth`,
              token_endpoint: `${issuer}/protocol/openid-connect/token`,
              jwks_uri: `${issuer}/protocol/openid-connect/certs`,
              response_types_supported: ['code'],
              subject_types_supported: ['public'],
              id_token_signing_alg_values_supported: ['RS256'],
            }),
          );
        } else {
          res.writeHead(404).end();
        }
      });
      await new Promise<void>((resolve) => provider.listen(port, '127.0.0.1', resolve));
      try {
        const res = await t.app.inject('/api/login');
        expect(res.statusCode).toBe(302);
        const to = new URL(res.headers.location as string);
        expect(`${to.origin}${to.pathname}`).toBe(`${issuer}/protocol/openid-connect/auth`);
        expect(to.searchParams.get('client_id')).toBe('parley');
        expect(to.searchParams.get('redirect_uri')).toBe(`${t.config.publicUrl}/api/callback`);
        expect(to.searchParams.get('scope')).toBe('openid email profile');
      } finally {
        await new Promise((resolve) => provider.close(resolve));
      }
    } finally {
      await t.close();
    }
  });

  it('refuses to start in production on the development issuer unless explicitly allowed', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/development sign-in/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        ALLOW_DEV_ISSUER_IN_PRODUCTION: 'true',
        ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
      }).oidc.issuer,
    ).toBeUndefined();
    expect(
      loadConfig({
        NODE_ENV: 'production',
        OIDC_ISSUER: 'https://id.example.com',
        OIDC_CLIENT_ID: 'p',
        ALLOW_PAYMENTS_SANDBOX_IN_PRODUCTION: 'true',
      }).oidc.issuer,
    ).toBe('https://id.example.com');
  });
});
