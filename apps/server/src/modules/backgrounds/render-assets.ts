/**
 * Renders the catalogue's pictures into apps/server/assets/backgrounds (run after changing a
 * scene, then commit the files):
 *
 *   npx tsx apps/server/src/modules/backgrounds/render-assets.ts
 *
 * Not part of the server: the server only reads the files this writes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { SIZES, fileName, sceneHash } from './assets.js';
import { CATALOGUE } from './catalogue.js';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../assets/backgrounds');
mkdirSync(dir, { recursive: true });
const manifest: Record<string, string> = {};
for (const entry of CATALOGUE) {
  const started = Date.now();
  const full = await sharp(Buffer.from(entry.scene()))
    .resize(SIZES.image.width, SIZES.image.height, { fit: 'cover' })
    .jpeg({ quality: SIZES.image.quality, mozjpeg: true })
    .toBuffer();
  const thumb = await sharp(full)
    .resize(SIZES.thumbnail.width, SIZES.thumbnail.height, { fit: 'cover' })
    .jpeg({ quality: SIZES.thumbnail.quality, mozjpeg: true })
    .toBuffer();
  writeFileSync(path.join(dir, fileName(entry.id, 'image')), full);
  writeFileSync(path.join(dir, fileName(entry.id, 'thumbnail')), thumb);
  manifest[entry.id] = sceneHash(entry);
  console.log(`${entry.id}: ${full.length} + ${thumb.length} bytes, ${Date.now() - started} ms`);
}
writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
