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

/** The advisory lock that lets one server instance at a time migrate a PostgreSQL database. */
export const MIGRATION_LOCK = 727_501_117;

/**
 * Runs the migrations while holding MIGRATION_LOCK on a connection of its own. Instances started
 * together on a fresh database (compose.yaml starts two) would otherwise both create the first
 * tables, and one would fail on "relation already exists"; the second one in waits, then finds
 * every migration applied.
 */
async function migrateLocked(pool: pg.Pool, migrate: () => Promise<void>): Promise<void> {
  const lock = await pool.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate();
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    lock.release();
  }
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
    await migrateLocked(pool, () => migrateNodePg(db, { migrationsFolder: options.migrationsDir }));
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
