import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CatalogueEntry } from './catalogue.js';

/**
 * The catalogue's pictures as files: rendered once from the scenes' SVG by `render-assets.ts`
 * (sharp/librsvg, about 0.4-1.5 s of CPU each) and committed under apps/server/assets/backgrounds,
 * so serving one is a file read. `manifest.json` records the hash of the SVG each file was
 * rendered from; a test fails when a scene changed without its files being rendered again.
 */
export type Variant = 'image' | 'thumbnail';

export const SIZES: Record<Variant, { width: number; height: number; quality: number }> = {
  image: { width: 1280, height: 720, quality: 84 },
  thumbnail: { width: 320, height: 180, quality: 80 },
};

export const fileName = (id: string, variant: Variant): string =>
  variant === 'image' ? `${id}.jpg` : `${id}.thumb.jpg`;

export const sceneHash = (entry: CatalogueEntry): string =>
  createHash('sha256').update(entry.scene()).digest('hex').slice(0, 16);

/**
 * The folder of the rendered pictures: beside the migrations in the server package
 * (apps/server/drizzle and apps/server/assets), from the sources and from the bundle alike.
 */
export const assetsDirFor = (migrationsDir: string): string =>
  path.join(path.dirname(migrationsDir), 'assets', 'backgrounds');

/** Reads pictures once and keeps them in memory (about 700 kB for the whole catalogue). */
export function createAssetStore(dir: string) {
  const cache = new Map<string, Promise<Buffer>>();
  return {
    dir,
    read(entry: CatalogueEntry, variant: Variant): Promise<Buffer> {
      const key = fileName(entry.id, variant);
      let pending = cache.get(key);
      if (!pending) {
        pending = readFile(path.join(dir, key));
        pending.catch(() => cache.delete(key));
        cache.set(key, pending);
      }
      return pending;
    },
  };
}
export type AssetStore = ReturnType<typeof createAssetStore>;
