import { createHash, randomBytes } from 'node:crypto';
import type { UserRow } from '../../db/schema/index.js';
import type { UsersRepository } from '../users/repository.js';
import type { SessionRepository } from './session-repository.js';

export const SESSION_COOKIE = 'parley_sid';
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** lastSeenAt is written at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60 * 1000;

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface ActiveSession {
  idHash: string;
  user: UserRow;
  idToken: string | null;
}

type SessionEndListener = (idHash: string) => void;

/**
 * Server-side sessions: 256-bit random tokens in the cookie, their hashes in the database, idle
 * timeout 7 days and absolute timeout 30 days. Listeners hear when a session ends (logout or
 * expiry) so open WebSockets of that session can be closed.
 */
export function createSessionService(
  repo: SessionRepository,
  usersRepo: UsersRepository,
  now: () => Date = () => new Date(),
) {
  const endListeners = new Set<SessionEndListener>();
  const notifyEnded = (idHash: string) => {
    for (const l of endListeners) l(idHash);
  };

  return {
    onSessionEnded(listener: SessionEndListener): () => void {
      endListeners.add(listener);
      return () => endListeners.delete(listener);
    },

    /** Opens a new session (a new id at every login) and returns the cookie token. */
    async create(userId: string, idToken: string | null = null): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url');
      const expiresAt = new Date(now().getTime() + SESSION_ABSOLUTE_MS);
      await repo.insert({ idHash: hashSessionToken(token), userId, idToken, expiresAt });
      return { token, expiresAt };
    },

    /** The session for a cookie token, or null when unknown or expired (an expired one is removed). */
    async resolve(token: string | undefined): Promise<ActiveSession | null> {
      if (!token || token.length > 200) return null;
      const idHash = hashSessionToken(token);
      const row = await repo.find(idHash);
      if (!row) return null;
      const t = now();
      if (row.expiresAt <= t || t.getTime() - row.lastSeenAt.getTime() > SESSION_IDLE_MS) {
        await repo.delete(idHash);
        notifyEnded(idHash);
        return null;
      }
      const user = await usersRepo.findById(row.userId);
      if (!user) return null;
      if (t.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) await repo.touch(idHash, t);
      return { idHash, user, idToken: row.idToken };
    },

    async end(idHash: string): Promise<void> {
      await repo.delete(idHash);
      notifyEnded(idHash);
    },

    /** Deletes expired sessions and tells listeners; run periodically. */
    async sweep(): Promise<number> {
      const t = now();
      const ended = await repo.deleteExpired(t, new Date(t.getTime() - SESSION_IDLE_MS));
      for (const idHash of ended) notifyEnded(idHash);
      return ended.length;
    },
  };
}
export type SessionService = ReturnType<typeof createSessionService>;
