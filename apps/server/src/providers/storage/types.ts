import type { Readable } from 'node:stream';

/**
 * Where shared files and recordings live: the disk under `${DATA_DIR}/files` by default (an
 * S3-compatible adapter can implement the same interface). Keys are chosen by the server only
 * (ids it generated), never from user input.
 */
export interface StorageProvider {
  /** Writes the whole stream under `key`; resolves with the number of bytes written. */
  write(key: string, source: Readable): Promise<number>;
  /** Opens the object for reading; rejects with StorageNotFoundError when absent. */
  read(key: string): Promise<{ stream: Readable; size: number }>;
  /** Removes the object; absent objects are fine. */
  remove(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/` (e.g. all files of a meeting). */
  removePrefix(prefix: string): Promise<void>;
}

export class StorageNotFoundError extends Error {}
