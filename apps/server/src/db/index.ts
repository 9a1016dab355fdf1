import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DbHandle {
  db: Database;
  kind: DatabaseKind;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url: string | undefined;
  /** PGlite data folder, or `memory://` for a throw-away database. */
  pgliteDir: string;
  migrationsDir: string;
  /**
   * Told when an idle pooled PostgreSQL connection fails (server restart, admin termination).
   * Without a listener node-postgres would crash the process; the pool replaces the connection.
   */
  onIdleError?: (err: Error) => void;
}

/**
 * Opens the database and applies the committed migrations. The same migrations and queries run on
 * PGlite (embedded default) and on PostgreSQL.
 */
export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on('error', (err) => options.onIdleError?.(err));
    const db = drizzleNodePg(pool, { schema });
    await migrateNodePg(db, { migrationsFolder: options.migrationsDir });
    return {
      db: db as unknown as Database,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: () => pool.end(),
    };
  }
  if (!options.pgliteDir.startsWith('memory://')) mkdirSync(options.pgliteDir, { recursive: true });
  const client = new PGlite(options.pgliteDir);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: options.migrationsDir });
  return {
    db: db as unknown as Database,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}
