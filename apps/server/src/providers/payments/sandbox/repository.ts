import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/index.js';
import { sandboxObjects } from '../../../db/schema/index.js';

export type SandboxObject = Record<string, unknown> & { id: string; object: string };

/** The sandbox's objects by id in `sandbox_objects` (its repository: SQL only here). */
export function createSandboxStore(db: Database) {
  return {
    async get<T extends SandboxObject>(id: string): Promise<T | undefined> {
      const [row] = await db.select().from(sandboxObjects).where(eq(sandboxObjects.id, id)).limit(1);
      return row?.data as T | undefined;
    },

    async insert(obj: SandboxObject): Promise<void> {
      await db.insert(sandboxObjects).values({ id: obj.id, kind: obj.object, data: obj });
    },

    async put(obj: SandboxObject): Promise<void> {
      await db
        .update(sandboxObjects)
        .set({ data: obj, updatedAt: new Date() })
        .where(eq(sandboxObjects.id, obj.id));
    },

    /**
     * Claims an idempotency key for a new object id. Returns the id that owns the key: the given
     * one when the key was new, else the id stored by the first request with that key.
     */
    async claimIdempotencyKey(key: string, newId: string): Promise<string> {
      const id = `idem_${key}`;
      const inserted = await db
        .insert(sandboxObjects)
        .values({ id, kind: 'idempotency_key', data: { id, object: 'idempotency_key', resultId: newId } })
        .onConflictDoNothing()
        .returning({ id: sandboxObjects.id });
      if (inserted.length > 0) return newId;
      const [row] = await db
        .select({ data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, 'idempotency_key')))
        .limit(1);
      return (row?.data as { resultId: string }).resultId;
    },

    /** Updates an object only if its status is still `expected` (guards concurrent confirmations). */
    async putIfStatus(obj: SandboxObject, expected: string[]): Promise<boolean> {
      const updated = await db
        .update(sandboxObjects)
        .set({ data: obj, updatedAt: new Date() })
        .where(
          and(
            eq(sandboxObjects.id, obj.id),
            sql`${sandboxObjects.data}->>'status' in (${sql.join(
              expected.map((s) => sql`${s}`),
              sql`, `,
            )})`,
          ),
        )
        .returning({ id: sandboxObjects.id });
      return updated.length > 0;
    },
  };
}

export type SandboxStore = ReturnType<typeof createSandboxStore>;
