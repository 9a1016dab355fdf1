import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const webSrc = fileURLToPath(new URL('./apps/web/src', import.meta.url));

const serverSuites = ['src/**/*.test.ts', 'test/**/*.test.ts'];

// The web and server suites share one module graph per worker (`isolate: false`): importing the
// app again for every file was most of their time (web: 74 s → 6 s; server-pg: import 119 s →
// 7 s, at load 5-20). A file that replaces a module (`vi.mock`) would leak the stand-in into the
// files after it, so those run isolated in a project of their own (`web-mocks`).
const webTests = readdirSync(webSrc, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f))
  .map((f) => `src/${f.split('\\').join('/')}`);
const webMocking = webTests.filter((f) => /\bvi\.mock\(/.test(readFileSync(`${webSrc}/../${f}`, 'utf8')));

// When real PostgreSQL is offered (CI), every server suite runs on it, and PGlite, the embedded
// default, runs only the suites whose SQL is the most PostgreSQL-specific: upserts, conflict
// clauses, JSON columns, date arithmetic and the retention deletes. Running all 62 files on both
// cost 360 s (measured at load 5-9) of a 24-minute CI; the browser suite runs the whole app on PGlite anyway.
const pgliteSmokeSuites = [
  'src/modules/meetings/repository.test.ts',
  'src/modules/meetings/routes.test.ts',
  'src/modules/billing/free-time.test.ts',
  'src/modules/subscriptions/service.test.ts',
  'src/modules/collaboration/collaboration.test.ts',
  'test/abuse/file-storage.test.ts',
  'test/abuse/instance-restart.test.ts',
];
const serverRoot = fileURLToPath(new URL('./apps/server/', import.meta.url));
const serverMocking = ['src', 'test'].flatMap((dir) =>
  readdirSync(serverRoot + dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .filter((f) => /\bvi\.mock\(/.test(readFileSync(`${serverRoot}${dir}/${f}`, 'utf8'))),
);
if (serverMocking.length > 0)
  throw new Error(
    `server suites share modules (isolate: false); vi.mock would leak: ${serverMocking.join(', ')}`,
  );
const missingSmoke = pgliteSmokeSuites.filter((file) => !existsSync(serverRoot + file));
if (missingSmoke.length > 0) throw new Error(`PGlite smoke suites not found: ${missingSmoke.join(', ')}`);

const serverProject = (
  name: string,
  env: Record<string, string>,
  include = serverSuites,
): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: './apps/server',
    include,
    environment: 'node',
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    isolate: false,
  },
});

const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'protocol', root: './packages/protocol', include: ['src/**/*.test.ts'] } },
  // The test tooling itself (the closing summary line); its fixtures run in their own Vitest.
  { test: { name: 'scripts', root: './scripts', include: ['*.test.ts'], testTimeout: 60_000 } },
  serverProject(
    'server',
    { PARLEY_TEST_DB: 'pglite' },
    process.env.TEST_DATABASE_URL ? pgliteSmokeSuites : serverSuites,
  ),
  {
    resolve: { alias: { '@': webSrc } },
    test: {
      name: 'web',
      root: './apps/web',
      include: ['src/**/*.test.{ts,tsx}'],
      exclude: webMocking,
      environment: 'jsdom',
      setupFiles: ['./src/test-setup.ts'],
      isolate: false,
    },
  },
  {
    resolve: { alias: { '@': webSrc } },
    test: {
      name: 'web-mocks',
      root: './apps/web',
      include: webMocking,
      environment: 'jsdom',
      setupFiles: ['./src/test-setup.ts'],
    },
  },
  {
    test: {
      name: 'e2e',
      root: './e2e',
      include: ['tests/**/*.spec.ts'],
      environment: 'node',
      globalSetup: ['./support/global-setup.ts'],
      fileParallelism: false,
      // With the 30 s action timeout of e2e/support/browser.ts (a starved machine, 2026-11-27).
      testTimeout: 90_000,
      hookTimeout: 90_000,
    },
  },
];

// The same API suites run again on real PostgreSQL when it is offered (CI sets it).
if (process.env.TEST_DATABASE_URL) {
  projects.splice(2, 0, serverProject('server-pg', { PARLEY_TEST_DB: 'postgres' }));
}

export default defineConfig({ test: { projects } });
