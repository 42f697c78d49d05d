import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Domain and API tests run inside workerd with the real bindings of wrangler.toml (UK environment),
 * the real migrations, and local D1, R2 and Queues. Each test file gets its own storage.
 *
 * `isolate: false`: a test worker (one workerd and its loaded modules) runs many files one after another
 * instead of starting afresh for each, which was most of the suite's time. Files stay independent:
 * tests/setup.ts empties the storage and applies the migrations before each file, and restores its spies
 * after it; the demo world is seeded once per worker and copied into each file that asks for it
 * (tests/support/world.ts).
 */
/**
 * The Worker's own bundle (build/index.js, wrangler.toml's `main`, over 6 MB unminified) reaches the test
 * runtime as one WebSocket message; with the source map Vite inlines it passed workerd's message limit
 * ("Message is too large") once the portal grew. The bundle needs no map in tests: a failing test's stack
 * points into the sources the tests import, not into this file.
 */
const noMapForTheBundle = {
  name: 'no-source-map-for-the-worker-bundle',
  enforce: 'post' as const,
  transform(code: string, id: string) {
    if (id.endsWith('/build/index.js'))
      return { code, map: { version: 3, names: [], sources: [], mappings: '' } };
    return null;
  },
};

export default defineConfig({
  plugins: [
    noMapForTheBundle,
    cloudflareTest(async () => ({
      wrangler: { configPath: './wrangler.toml', environment: 'uk' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path('./drizzle/migrations')),
          SESSION_SECRET: 'test-session-secret-0123456789abcdef',
          HANDOVER_SECRET: 'test-handover-secret-0123456789abcdef',
          EPDQ_SHA_IN: 'test-epdq-sha-in-0123456789abcdef',
          EPDQ_SHA_OUT: 'test-epdq-sha-out-0123456789abcdef',
        },
      },
    })),
  ],
  resolve: {
    alias: {
      '~': path('./app'),
      '@server': path('./workers'),
      '@db': path('./drizzle'),
      // exceljs require()s uuid; inside the test runner that must be uuid's CommonJS build.
      uuid: path('./node_modules/uuid/dist/index.js'),
      // As wrangler.toml's [alias]: fontkit's WOFF2 decoder is left out (the PDF fonts are WOFF).
      'brotli/decompress.js': path('./workers/platform/no-woff2.ts'),
    },
  },
  test: {
    include: ['tests/domain/**/*.test.ts', 'tests/api/**/*.test.ts'],
    setupFiles: ['./tests/setup.ts'],
    isolate: false,
    // One test worker per core. Each worker has its own workerd (its own Miniflare, with storage in a
    // temporary directory of its own), so workers never share D1 or R2. With more than one worker, vitest
    // sends a worker its files one run at a time, and reset() then now and again left the previous file's
    // rows: tests/setup.ts empties what it left (tests/support/storage.ts).
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
  },
});
