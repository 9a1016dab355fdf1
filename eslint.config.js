import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
  {
    // Boundaries (DESIGN.md): external services are reached through adapters in providers/.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/providers/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'ioredis', message: 'Use the room bus adapter in providers/bus.' }] },
      ],
    },
  },
);
