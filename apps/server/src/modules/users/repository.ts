import { eq } from 'drizzle-orm';
import type { Database } from '../../db/index.js';
import { users, type UserRow } from '../../db/schema/index.js';

export interface IdentityClaims {
  issuer: string;
  subject: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export function createUsersRepository(db: Database) {
  return {
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    /** Creates the user for (issuer, subject) or refreshes its email and names from the claims. */
    async upsertFromIdentity(claims: IdentityClaims): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values(claims)
        .onConflictDoUpdate({
          target: [users.issuer, users.subject],
          set: {
            email: claims.email,
            firstName: claims.firstName,
            lastName: claims.lastName,
            updatedAt: new Date(),
          },
        })
        .returning();
      if (!row) throw new Error('upsert returned no row');
      return row;
    },

    async updateProfile(
      id: string,
      patch: { firstName?: string | null; lastName?: string | null },
    ): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ ...patch, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return row;
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;
