import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const webSrc = fileURLToPath(new URL('./apps/web/src', import.meta.url));

const serverProject = (name: string, env: Record<string, string>): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const projects: TestProjectInlineConfiguration[] = [
  { test: { name: 'protocol', root: './packages/protocol', include: ['src/**/*.test.ts'] } },
  // The test tooling itself (the closing summary line); its fixtures run in their own Vitest.
  { test: { name: 'scripts', root: './scripts', include: ['*.test.ts'], testTimeout: 60_000 } },
  serverProject('server', { PARLEY_TEST_DB: 'pglite' }),
  {
    resolve: { alias: { '@': webSrc } },
    test: {
      name: 'web',
      root: './apps/web',
      include: ['src/**/*.test.{ts,tsx}'],
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
      testTimeout: 60_000,
      hookTimeout: 90_000,
    },
  },
];

// The same API suites run again on real PostgreSQL when it is offered (CI sets it).
if (process.env.TEST_DATABASE_URL) {
  projects.splice(2, 0, serverProject('server-pg', { PARLEY_TEST_DB: 'postgres' }));
}

export default defineConfig({ test: { projects } });
