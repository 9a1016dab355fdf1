import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App, type AppDeps } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { subscriptions } from '../src/db/schema/index.js';
import { SESSION_COOKIE } from '../src/modules/auth/session-service.js';
import { createUsersRepository } from '../src/modules/users/repository.js';
import type { DbHandle } from '../src/db/index.js';
import { createTestDb } from './db.js';

export interface TestContext {
  app: App;
  db: DbHandle;
  config: Config;
  close(): Promise<void>;
}

/**
 * The configuration of a test app: NODE_ENV test, silent logs, a fresh temporary data folder, no
 * web build; `env` overrides any of it.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
    ...env,
  });
}

/**
 * Builds the real app on an isolated database, with a temporary data folder and no web build
 * unless one is given. `env` overrides environment variables for this app only.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  beforeReady?: (app: App) => unknown,
  deps: Omit<AppDeps, 'db'> = {},
): Promise<TestContext> {
  const config = testConfig(env);
  const db = await createTestDb();
  const app = await buildApp(config, { ...deps, db });
  await beforeReady?.(app);
  await app.ready();
  return {
    app,
    db,
    config,
    close: async () => {
      await app.close();
      await db.close();
    },
  };
}

/**
 * Signs a user in without the identity provider: creates (or refreshes) the user and opens a
 * real server-side session. Returns the Cookie header value for `app.inject` or `fetch`.
 */
export async function signIn(
  t: TestContext,
  who: { email: string; firstName?: string | null; lastName?: string | null; subject?: string },
): Promise<{ cookie: string; userId: string }> {
  const user = await createUsersRepository(t.db.db).upsertFromIdentity({
    issuer: 'test-issuer',
    subject: who.subject ?? who.email,
    email: who.email,
    firstName: who.firstName ?? null,
    lastName: who.lastName ?? null,
  });
  const { token } = await t.app.sessions.create(user.id);
  return { cookie: `${SESSION_COOKIE}=${token}`, userId: user.id };
}

/**
 * Makes a user Pro by writing the subscription row the payments provider's events would write.
 * For tests of Pro-only features that are not about payments.
 */
export async function makePro(t: TestContext, userId: string): Promise<void> {
  await t.db.db.insert(subscriptions).values({
    userId,
    provider: 'test',
    customerId: `cus_test_${userId}`,
    subscriptionId: `sub_test_${userId}`,
    status: 'active',
    currentPeriodEnd: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    amountCents: 999,
    currency: 'usd',
  });
}

/** A signed-in user with an active Pro subscription (a host who may host, record, cover guests). */
export async function signInAsPro(t: TestContext, email: string, firstName = 'Hana') {
  const user = await signIn(t, { email, firstName });
  await makePro(t, user.userId);
  return user;
}

/** One cookie (`name=value`) of a response's Set-Cookie header, or null. */
export const cookieOf = (setCookie: string | string[] | undefined, name: string): string | null => {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.find((c) => c.startsWith(`${name}=`))?.split(';')[0] ?? null;
};
