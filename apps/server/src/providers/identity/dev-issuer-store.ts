import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null;
}

/**
 * Storage for the development issuer (sessions, grants, codes, tokens) kept in memory and
 * written to one file under DATA_DIR, so its sign-in sessions survive a restart. Built for one
 * process and a handful of developers, not for production traffic.
 */
export function createDevIssuerStore(file: string): { adapter: AdapterFactory; flush(): void } {
  const entries = new Map<string, Entry>();
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
    for (const [key, entry] of Object.entries(saved)) entries.set(key, entry);
  } catch {
    // no store yet (or an unreadable one): start empty
  }

  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const now = Date.now();
    const live = Object.fromEntries(
      [...entries].filter(([, e]) => e.expiresAt === null || e.expiresAt > now),
    );
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(live), { mode: 0o600 });
    renameSync(tmp, file);
  };
  const changed = () => {
    if (timer) return;
    timer = setTimeout(flush, 250);
    timer.unref();
  };

  const live = (key: string): Entry | undefined => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt !== null && e.expiresAt <= Date.now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };
  const findBy = (model: string, match: (p: AdapterPayload) => boolean) => {
    for (const [key, e] of entries) {
      if (key.startsWith(`${model}:`) && match(e.payload)) return live(key)?.payload;
    }
    return undefined;
  };

  const adapter: AdapterFactory = (model: string): Adapter => {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload, expiresIn) {
        entries.set(key(id), {
          payload,
          expiresAt: typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null,
        });
        changed();
      },
      async find(id) {
        return live(key(id))?.payload;
      },
      async findByUid(uid) {
        return findBy(model, (p) => p.uid === uid);
      },
      async findByUserCode(userCode) {
        return findBy(model, (p) => p.userCode === userCode);
      },
      async consume(id) {
        const e = live(key(id));
        if (e) {
          e.payload.consumed = Math.floor(Date.now() / 1000);
          changed();
        }
      },
      async destroy(id) {
        entries.delete(key(id));
        changed();
      },
      async revokeByGrantId(grantId) {
        for (const [k, e] of entries) if (e.payload.grantId === grantId) entries.delete(k);
        changed();
      },
    };
  };
  return { adapter, flush };
}
