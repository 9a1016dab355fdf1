import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { SharedState, SharedWrite } from './types.js';

/**
 * Writes under a lock: applied only while the caller still holds the lock (the token it set),
 * then the lock is released, in one step on the server. A holder that stalled past the lock's
 * expiry (and so may have been overtaken) writes nothing and is told so.
 */
const COMMIT = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local ops = cjson.decode(ARGV[2])
for _, op in ipairs(ops) do
  if op[1] == 'set' then redis.call('SET', op[2], op[3], 'PX', op[4])
  elseif op[1] == 'del' then redis.call('DEL', op[2])
  elseif op[1] == 'sadd' then redis.call('SADD', op[2], op[3])
  elseif op[1] == 'srem' then redis.call('SREM', op[2], op[3]) end
end
if ARGV[3] == '1' then redis.call('DEL', KEYS[1]) end
return 1
`;

const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

export class LockTimeoutError extends Error {}

/**
 * State shared by the server instances, in Redis: plain keys, sets, and per-key locks
 * (`SET lock token NX PX`, released by a compare-and-delete) with writes that land only while
 * the lock is held. Standalone Redis: the commit script names keys it was not given, which
 * Redis Cluster would refuse.
 */
export async function createRedisSharedState(
  url: string,
  log: FastifyBaseLogger,
  options: { lockTtlMs?: number; lockWaitMs?: number } = {},
): Promise<SharedState> {
  const lockTtlMs = options.lockTtlMs ?? 5000;
  const lockWaitMs = options.lockWaitMs ?? 10_000;
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  redis.on('error', (err) => log.warn({ err }, 'redis shared state error'));
  await redis.connect();
  redis.defineCommand('parleyCommit', { numberOfKeys: 1, lua: COMMIT });
  redis.defineCommand('parleyUnlock', { numberOfKeys: 1, lua: UNLOCK });
  const call = redis as unknown as {
    parleyCommit(lock: string, token: string, ops: string, release: string): Promise<number>;
    parleyUnlock(lock: string, token: string): Promise<number>;
  };

  const opsOf = (writes: SharedWrite[]) =>
    JSON.stringify(
      writes.map((w) =>
        w.op === 'set' ? ['set', w.key, w.value, w.ttlMs] : [w.op, w.key, 'member' in w ? w.member : ''],
      ),
    );

  return {
    get: (key) => redis.get(key),
    async getMany(keys) {
      return keys.length ? redis.mget(...keys) : [];
    },
    members: (key) => redis.smembers(key),
    async setTtl(key, value, ttlMs) {
      await redis.set(key, value, 'PX', ttlMs);
    },
    async setIfAbsent(key, value, ttlMs) {
      return (await redis.set(key, value, 'PX', ttlMs, 'NX')) === 'OK';
    },
    async expire(key, ttlMs) {
      await redis.pexpire(key, ttlMs);
    },
    async addMember(key, member) {
      await redis.sadd(key, member);
    },
    async removeMember(key, member) {
      await redis.srem(key, member);
    },
    async del(key) {
      await redis.del(key);
    },

    async lock(key) {
      const token = randomUUID();
      const deadline = Date.now() + lockWaitMs;
      let wait = 2;
      for (;;) {
        if ((await redis.set(key, token, 'PX', lockTtlMs, 'NX')) === 'OK') return token;
        if (Date.now() > deadline)
          throw new LockTimeoutError(`could not take ${key} within ${lockWaitMs} ms`);
        await new Promise((r) => setTimeout(r, wait + Math.random() * wait));
        wait = Math.min(wait * 2, 50);
      }
    },
    async commit(key, token, writes, release) {
      return (await call.parleyCommit(key, token, opsOf(writes), release ? '1' : '0')) === 1;
    },
    async unlock(key, token) {
      await call.parleyUnlock(key, token);
    },
    onReconnect(listener) {
      // ioredis says `ready` on every connection after this one's first (awaited above).
      redis.on('ready', listener);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
