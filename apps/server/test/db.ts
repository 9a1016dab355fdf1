import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, type DbHandle } from '../src/db/index.js';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'drizzle');

/**
 * A fresh, isolated database for one test file: an in-memory PGlite, or, when the project runs
 * against PostgreSQL, a database of its own created on TEST_DATABASE_URL's server and dropped at
 * close. Two runs never share tables.
 */
export async function createTestDb(): Promise<DbHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (process.env.PARLEY_TEST_DB !== 'postgres') {
    return createDb({ url: undefined, pgliteDir: 'memory://', migrationsDir });
  }
  if (!adminUrl) throw new Error('PARLEY_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `parley_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  // DROP … WITH (FORCE) at close terminates connections the pool is still ending: expected here.
  const handle = await createDb({
    url: url.toString(),
    pgliteDir: '',
    migrationsDir,
    onIdleError: () => undefined,
  });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const dropper = new pg.Client({ connectionString: adminUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
