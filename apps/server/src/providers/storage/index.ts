import path from 'node:path';
import type { Config } from '../../config.js';
import { createDiskStorage } from './disk.js';
import type { StorageProvider } from './types.js';

export { StorageNotFoundError, type StorageProvider } from './types.js';

/** The configured storage: the disk folder `${DATA_DIR}/files` (S3 is a later adapter). */
export function createStorage(config: Config): StorageProvider {
  return createDiskStorage(path.join(config.dataDir, 'files'));
}
