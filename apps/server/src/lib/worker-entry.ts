import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The file a worker thread runs, `name` beside the module at `here` (its import.meta.url): in the
 * bundle, `name.js` beside main.js (build.mjs makes each worker an entry point of its own); in
 * the sources (`npm run dev`, Vitest, the CLI under tsx), `name.ts` beside that module, started
 * from a small script that imports it through tsx's API: on Node 20 neither the parent's tsx
 * loader nor `--import tsx` in the worker's execArgv makes a worker read TypeScript.
 */
export function workerEntry(here: string, name: string): { file: string; bootstrap?: string } {
  if (!here.endsWith('.ts')) return { file: fileURLToPath(new URL(`./${name}.js`, here)) };
  const url = new URL(`./${name}.ts`, here);
  const tsxPackage = createRequire(here).resolve('tsx/package.json');
  const api = pathToFileURL(path.join(path.dirname(tsxPackage), 'dist/esm/api/index.mjs')).href;
  const bootstrap = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(url.href)}, ${JSON.stringify(here)}))`;
  return { file: fileURLToPath(url), bootstrap };
}
