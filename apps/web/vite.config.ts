import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { cpSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

export default defineConfig({
  plugins: [react(), tailwindcss(), roomPreload(), excalidrawAssets()],
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
