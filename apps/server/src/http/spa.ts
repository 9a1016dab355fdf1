import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const API_PREFIXES = ['/api/', '/ws', '/oidc/', '/dev/api/'];

export function isApiPath(url: string): boolean {
  const p = url.split('?')[0] ?? url;
  return p === '/api' || API_PREFIXES.some((prefix) => p.startsWith(prefix));
}

/**
 * Serves the built SPA: hashed files under /assets with a year-long immutable cache, other files
 * briefly cached, each as the build's Brotli or gzip copy when the browser takes one; index.html
 * (never cached) for every non-API path so client routes work on a reload. Unknown API paths get
 * a JSON 404.
 */
export async function registerSpa(app: FastifyInstance, webDistDir: string): Promise<void> {
  const indexPath = path.join(webDistDir, 'index.html');
  const built = existsSync(indexPath);
  const indexHtml = built ? readFileSync(indexPath) : null;

  if (built) {
    await app.register(fastifyStatic, {
      root: webDistDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build writes .br and .gz copies (apps/web/vite.config.ts); the best one the browser
      // accepts is sent, with `Vary: accept-encoding`.
      preCompressed: true,
      setHeaders(res, filePath) {
        const rel = path.relative(webDistDir, filePath);
        if (rel.startsWith(`assets${path.sep}`)) {
          res.header('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.header('Cache-Control', 'public, max-age=300');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url)) {
      return reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
    }
    // A missing build file must not be answered with index.html (a stale tab would parse HTML as JS).
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.url.startsWith('/assets/')) {
      return reply.status(404).send({ message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
    }
    if (!indexHtml) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (or `npm start`).');
    }
    return reply
      .status(200)
      .header('Cache-Control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(indexHtml);
  });
}
