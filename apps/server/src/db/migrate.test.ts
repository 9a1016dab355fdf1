import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../../test/db.js';
import { createDb } from './index.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.PARLEY_TEST_DB === 'postgres' && !!adminUrl;

async function admin<T>(connectionString: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

describe.runIf(onPostgres)('migrations on PostgreSQL', () => {
  it('two instances starting together on a fresh database both come up, migrated once', async () => {
    const name = `parley_migrate_${process.pid}_${randomBytes(4).toString('hex')}`;
    await admin(adminUrl as string, (c) => c.query(`CREATE DATABASE ${name}`));
    const url = new URL(adminUrl as string);
    url.pathname = `/${name}`;
    const open = () =>
      createDb({ url: url.toString(), pgliteDir: '', migrationsDir, onIdleError: () => undefined });
    try {
      const results = await Promise.allSettled([open(), open(), open()]);
      const reasons = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect(reasons).toEqual([]);
      const handles = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      try {
        // drizzle keeps its journal in the drizzle schema: each migration applied once.
        const applied = await admin(url.toString(), (c) =>
          c.query<{ n: string }>('select count(*)::text as n from drizzle.__drizzle_migrations'),
        );
        const journal = JSON.parse(
          readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8'),
        ) as { entries: unknown[] };
        expect(Number(applied.rows[0]!.n)).toBe(journal.entries.length);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    } finally {
      await admin(adminUrl as string, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    }
  });
});
