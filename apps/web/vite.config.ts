import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { cpSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { defineConfig, type Plugin, type Rollup } from 'vite';

/**
 * Opening a meeting link is where every millisecond shows (bench/join-to-first-frame): the room's
 * lazy chunks only started downloading after the main bundle had been fetched, compiled and run
 * (150-600 ms on the 2-core machine, step `scriptsLoaded`). A tiny script at the top of index.html
 * asks for them at once on /meeting/ paths (modulepreload fetches and compiles, runs nothing);
 * every other route loads nothing more. A file, not inline, because the CSP allows only 'self'.
 */
function roomPreload(): Plugin {
  let file: string | null = null;
  let code = '';
  return {
    name: 'parley:room-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter(
          (c): c is Rollup.OutputChunk => c.type === 'chunk',
        );
        const room = chunks.find((c) => c.facadeModuleId?.endsWith('/features/room/MeetingRoomPage.tsx'));
        const entry = chunks.find((c) => c.isEntry);
        if (!room || !entry) throw new Error('room-preload: no MeetingRoomPage chunk');
        const loaded = new Set([entry.fileName, ...entry.imports]);
        const byName = new Map(chunks.map((c) => [c.fileName, c]));
        const files: string[] = [];
        const visit = (name: string) => {
          if (loaded.has(name) || files.includes(name)) return;
          files.push(name);
          for (const i of byName.get(name)?.imports ?? []) visit(i);
        };
        visit(room.fileName);
        code =
          `if (/^\\/meeting\\//.test(location.pathname)) ${JSON.stringify(files.map((f) => `/${f}`))}` +
          `.forEach(function (h) { var l = document.createElement('link'); l.rel = 'modulepreload';` +
          ` l.crossOrigin = ''; l.href = h; document.head.appendChild(l); });\n`;
        file = `assets/room-preload-${createHash('sha256').update(code).digest('hex').slice(0, 8)}.js`;
        return [{ tag: 'script', attrs: { src: `/${file}` }, injectTo: 'head-prepend' }];
      },
    },
    writeBundle(options) {
      if (file && options.dir) writeFileSync(path.join(options.dir, file), code);
    },
  };
}

/**
 * Excalidraw (the meeting whiteboard) loads its fonts from `window.EXCALIDRAW_ASSET_PATH`, else
 * from a public CDN that the CSP (rightly) refuses. Its font files are copied into the build at
 * /excalidraw-assets/fonts/, served by our own server.
 */
function excalidrawAssets(): Plugin {
  return {
    name: 'parley:excalidraw-assets',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) return;
      const entry = createRequire(import.meta.url).resolve('@excalidraw/excalidraw');
      const fonts = path.join(path.dirname(entry), 'fonts');
      cpSync(fonts, path.join(options.dir, 'excalidraw-assets', 'fonts'), { recursive: true });
    },
  };
}

/**
 * The server sends every file as it is on disk (@fastify/static with `preCompressed`), so the build
 * writes a Brotli (`.br`) and a gzip (`.gz`) copy next to each compressible file: the room's
 * scripts are about a third of their size on the wire, the background effects' WebAssembly about
 * a quarter. Brotli's best quality (11) takes seconds a megabyte on this machine, so files over
 * 512 KB get quality 5 (a few percent larger, ~40x faster). A copy that saves under 10% is not
 * written. Source maps are left alone (only developers fetch them).
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|wasm|tflite|binarypb|txt)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function precompress(): Plugin {
  let dir = '';
  return {
    name: 'parley:precompress',
    apply: 'build',
    configResolved(config) {
      dir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
        COMPRESSIBLE.test(f),
      );
      await Promise.all(
        files.map(async (rel) => {
          const file = path.join(dir, rel);
          const bytes = await readFile(file);
          if (bytes.length < 1024) return;
          const quality = bytes.length > 512 * 1024 ? 5 : 11;
          const [br, gz] = await Promise.all([
            brotli(bytes, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            }),
            gzip(bytes, { level: 9 }),
          ]);
          if (br.length < bytes.length * 0.9) await writeFile(`${file}.br`, br);
          if (gz.length < bytes.length * 0.9) await writeFile(`${file}.gz`, gz);
        }),
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), roomPreload(), excalidrawAssets(), precompress()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    assetsInlineLimit: 0,
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/oidc': 'http://localhost:3000',
      '/dev/api': 'http://localhost:3000',
      '/ws': { target: 'ws://localhost:3000', ws: true },
    },
  },
});
