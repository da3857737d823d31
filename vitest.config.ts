import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
    ],
    pool: 'forks',
    // Test files share their worker's module cache: each file still makes its own app and
    // database, and loading the server's modules and PGlite's WebAssembly once per worker instead
    // of once per file takes a minute and a half off each pass.
    isolate: false,
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['apps/server/test/global-setup.ts'],
  },
});
