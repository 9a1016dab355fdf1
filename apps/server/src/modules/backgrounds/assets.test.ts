import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { migrationsDir } from '../../../test/db.js';
import { SIZES, assetsDirFor, fileName, sceneHash } from './assets.js';
import { CATALOGUE } from './catalogue.js';

const dir = assetsDirFor(migrationsDir);

describe('the catalogue pictures', () => {
  it('live beside the server package, where the bundle looks too', () => {
    const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    expect(dir).toBe(path.join(serverRoot, 'assets', 'backgrounds'));
  });

  it('were rendered from the scenes as they are now (else run render-assets.ts)', () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as Record<
      string,
      string
    >;
    const stale = CATALOGUE.filter((e) => manifest[e.id] !== sceneHash(e)).map((e) => e.id);
    expect(stale, 'scenes changed since their pictures were rendered').toEqual([]);
    expect(Object.keys(manifest).sort()).toEqual(CATALOGUE.map((e) => e.id).sort());
  });

  it.each(CATALOGUE.map((e) => [e.id, e] as const))(
    '%s has its picture and thumbnail',
    async (_id, entry) => {
      for (const variant of ['image', 'thumbnail'] as const) {
        const file = path.join(dir, fileName(entry.id, variant));
        expect(existsSync(file), file).toBe(true);
        const meta = await sharp(file).metadata();
        expect([meta.format, meta.width, meta.height]).toEqual([
          'jpeg',
          SIZES[variant].width,
          SIZES[variant].height,
        ]);
      }
    },
  );

  it('are pictures, not flat fills: each has detail and differs from the others', async () => {
    const signatures: string[] = [];
    for (const entry of CATALOGUE) {
      const stats = await sharp(path.join(dir, fileName(entry.id, 'thumbnail'))).stats();
      const spread = stats.channels.reduce((sum, c) => sum + c.stdev, 0);
      expect(spread, entry.id).toBeGreaterThan(20);
      signatures.push(stats.channels.map((c) => Math.round(c.mean / 8)).join(','));
    }
    expect(new Set(signatures).size).toBe(CATALOGUE.length);
  });
});
