import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds, or null for no expiry. */
  expiresAt: number | null;
}

/**
 * The models worth keeping across a restart: a developer's sign-in (Session, Grant) and the
 * accounts. Interactions, codes and tokens live for minutes and stay in memory only, so an
 * anonymous `/oidc/auth` (which creates an Interaction) never causes a write.
 */
const DURABLE_MODELS = new Set(['Session', 'Grant', 'DevAccount']);

export interface DevIssuerStoreOptions {
  /** At most this many entries are kept; past it, those that expire soonest go first. */
  maxEntries?: number;
  /** Writes of the file are gathered for this long after a durable change. */
  flushDelayMs?: number;
  now?: () => number;
}

/**
 * 2,000 anonymous `/oidc/auth` requests used to grow the store from 41 KB to 1.5 MB (expired
 * entries were only left out of the file, never dropped), with the whole file rewritten every
 * 250 ms. A few thousand entries are more than a handful of developers ever need.
 */
export const DEV_ISSUER_STORE_MAX_ENTRIES = 5_000;

/**
 * Storage for the development issuer (sessions, grants, codes, tokens) kept in memory, with the
 * durable models written to one file under DATA_DIR, so its sign-in sessions survive a restart.
 * Built for one process and a handful of developers, not for production traffic: entries expire
 * by their TTL, the count is capped, and the file is written only after a durable change.
 */
export function createDevIssuerStore(
  file: string,
  options: DevIssuerStoreOptions = {},
): { adapter: AdapterFactory; flush(): void; stats(): { entries: number; writes: number } } {
  const maxEntries = options.maxEntries ?? DEV_ISSUER_STORE_MAX_ENTRIES;
  const flushDelayMs = options.flushDelayMs ?? 250;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const expired = (e: Entry, at = now()) => e.expiresAt !== null && e.expiresAt <= at;
  const isDurable = (key: string) => DURABLE_MODELS.has(key.slice(0, key.indexOf(':')));
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Entry>;
    for (const [key, entry] of Object.entries(saved)) {
      if (isDurable(key) && !expired(entry)) entries.set(key, entry);
    }
  } catch {
    // no store yet (or an unreadable one): start empty
  }

  let writes = 0;
  let dirty = false;
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!dirty) return;
    dirty = false;
    const at = now();
    const durable = Object.fromEntries([...entries].filter(([k, e]) => isDurable(k) && !expired(e, at)));
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(durable), { mode: 0o600 });
    renameSync(tmp, file);
    writes++;
  };
  const changed = (key: string) => {
    if (!isDurable(key)) return;
    dirty = true;
    if (timer) return;
    timer = setTimeout(flush, flushDelayMs);
    timer.unref();
  };

  /** Drops expired entries, then, over the cap, those that expire soonest (accounts never). */
  let lastSweep = 0;
  const makeRoom = () => {
    const at = now();
    if (entries.size < maxEntries && at - lastSweep < 60_000) return;
    lastSweep = at;
    for (const [key, e] of entries) {
      if (expired(e, at)) {
        entries.delete(key);
        changed(key);
      }
    }
    if (entries.size < maxEntries) return;
    // Down to 90% at once, so that a flood does not sort the whole map on every request.
    const excess = entries.size - Math.floor(maxEntries * 0.9);
    const soonest = [...entries]
      .filter(([, e]) => e.expiresAt !== null)
      .sort(([, a], [, b]) => a.expiresAt! - b.expiresAt!)
      .slice(0, excess);
    for (const [key] of soonest) {
      entries.delete(key);
      changed(key);
    }
  };

  const live = (key: string): Entry | undefined => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (expired(e)) {
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
        makeRoom();
        entries.set(key(id), {
          payload,
          expiresAt: typeof expiresIn === 'number' ? now() + expiresIn * 1000 : null,
        });
        changed(key(id));
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
          e.payload.consumed = Math.floor(now() / 1000);
          changed(key(id));
        }
      },
      async destroy(id) {
        if (entries.delete(key(id))) changed(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const [k, e] of entries) {
          if (e.payload.grantId === grantId) {
            entries.delete(k);
            changed(k);
          }
        }
      },
    };
  };
  return { adapter, flush, stats: () => ({ entries: entries.size, writes }) };
}
