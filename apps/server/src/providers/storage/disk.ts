import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StorageNotFoundError, type StorageProvider } from './types.js';

const KEY_PATTERN = /^[a-z0-9][a-z0-9/_-]{0,200}$/i;

/** The embedded default: one file per key under a root folder. */
export function createDiskStorage(root: string): StorageProvider {
  const resolve = (key: string): string => {
    if (!KEY_PATTERN.test(key) || key.split('/').some((part) => part === '' || part === '..')) {
      throw new Error(`invalid storage key: ${key}`);
    }
    return path.join(root, key);
  };

  return {
    async write(key, source) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      try {
        await pipeline(source, createWriteStream(file, { flags: 'wx' }));
      } catch (err) {
        await rm(file, { force: true });
        throw err;
      }
      return (await stat(file)).size;
    },
    async read(key) {
      const file = resolve(key);
      try {
        const s = await stat(file);
        return { stream: createReadStream(file), size: s.size };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new StorageNotFoundError(key);
        throw err;
      }
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    async removePrefix(prefix) {
      await rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}
