import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const providerOnly = (name, folder) => ({
  name,
  message: `Reach ${name} through its adapter in apps/server/src/providers/${folder}.`,
});
/** Vendor SDKs, each allowed only inside its provider folder: [package, folder]. */
const VENDORS = [
  ['stripe', 'payments'],
  ['openid-client', 'identity'],
  ['oidc-provider', 'identity'],
  ['nodemailer', 'mail'],
  ['ioredis', 'bus'],
  ['janode', 'media'],
];
const VENDOR_PATHS = VENDORS.map(([name, folder]) => providerOnly(name, folder));
/** Each provider folder may import its own SDKs and no other's. */
const PROVIDER_FOLDERS = [...new Set(VENDORS.map(([, folder]) => folder))];
const othersSdks = (own) =>
  VENDORS.filter(([, folder]) => folder !== own).map(([name, folder]) => providerOnly(name, folder));
/** Drizzle (SQL) only in repositories and db/. */
const DRIZZLE_PATTERNS = [
  {
    group: ['drizzle-orm', 'drizzle-orm/*'],
    message: 'SQL belongs in a repository (repository.ts, *-repository.ts) or db/.',
  },
];
/** The domain never imports the transport: realtime/ implements the ports modules/ declare. */
const REALTIME_PATTERNS = [
  {
    group: ['**/realtime', '**/realtime/*'],
    message:
      'modules/ must not import realtime/: declare a port in the module (as rooms/transport.ts and rooms/events.ts do) and let realtime/ implement it.',
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'bench/results/**',
      'test-results/**',
      'apps/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // `import { type A }` keeps a bare import of the module (verbatimModuleSyntax): a page would
      // evaluate it (and its schemas) for a type.
      '@typescript-eslint/no-import-type-side-effects': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // The landing chunk must stay light: zod schemas come only through '@parley/protocol/schemas'
      // (from lazily loaded screens); constants through '@parley/protocol/constants'.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@parley/protocol',
              message: "Import values from '@parley/protocol/constants' or '@parley/protocol/schemas'.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The meeting room's page (and what it shows: the payment form, backgrounds) evaluates no zod
    // schema on its way to the first frame: values come from the schema-free modules.
    files: ['apps/web/src/features/{room,billing,subscription,backgrounds}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@parley/protocol(?!/(constants|texts|card|text-rules)$)',
              message:
                "The room's page builds no schema: import values from '@parley/protocol/constants', '/texts', '/card' or '/text-rules' (types from anywhere).",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // Boundaries (DESIGN.md): only config.ts reads the environment on the server.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', 'apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through config.ts only.' },
      ],
    },
  },
  // Boundaries (DESIGN.md), kept by the linter rather than by habit: vendor SDKs only inside their
  // provider folder (as Jitsi wraps lib-jitsi-meet once), SQL only in repositories and db/.
  // ESLint applies the last matching block's options, so each block lists all it forbids.
  {
    files: ['apps/server/src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: VENDOR_PATHS, patterns: DRIZZLE_PATTERNS }] },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: VENDOR_PATHS, patterns: [...DRIZZLE_PATTERNS, ...REALTIME_PATTERNS] },
      ],
    },
  },
  {
    files: ['apps/server/src/providers/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: VENDOR_PATHS, patterns: DRIZZLE_PATTERNS }] },
  },
  ...PROVIDER_FOLDERS.map((folder) => ({
    files: [`apps/server/src/providers/${folder}/**/*.ts`],
    rules: {
      'no-restricted-imports': ['error', { paths: othersSdks(folder), patterns: DRIZZLE_PATTERNS }],
    },
  })),
  {
    // janode loads a native addon when it is imported, so only its loader loads it, with import()
    // on the Janus path: a failed addon must not stop a start (issue 38 item 4).
    files: ['apps/server/src/providers/media/**/*.ts'],
    ignores: ['apps/server/src/providers/media/janode-loader.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['janode', 'janode/plugins/videoroom'].map((name) => ({
            name,
            allowTypeImports: true,
            message:
              'Import janode types only (import type); janode-loader.ts loads janode when Janus is used.',
          })),
        },
      ],
    },
  },
  {
    files: [
      'apps/server/src/**/repository.ts',
      'apps/server/src/**/*-repository.ts',
      'apps/server/src/db/**/*.ts',
      'apps/server/src/**/*.test.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: VENDOR_PATHS }] },
  },
  {
    files: [
      'apps/server/src/modules/**/repository.ts',
      'apps/server/src/modules/**/*-repository.ts',
      'apps/server/src/modules/**/*.test.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: VENDOR_PATHS, patterns: REALTIME_PATTERNS }] },
  },
  {
    files: ['apps/server/src/providers/**/*-repository.ts', 'apps/server/src/providers/**/*.test.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // The web app has one HTTP helper (lib/api.ts): no fetch in features or components.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/api.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: "Use apiRequest from '@/lib/api'." }],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: "Use apiRequest from '@/lib/api'." },
        { object: 'globalThis', property: 'fetch', message: "Use apiRequest from '@/lib/api'." },
      ],
    },
  },
);
