import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SHARDS } from './tests/e2e/support/servers';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * Browser tests: Chromium (playwright-core) drives the real pages of locally running Workers, which
 * tests/e2e/support/global-setup.ts starts (UK 8791, Ireland 8792, UK in maintenance 8793, and a second
 * UK on 8801 for the second shard) on fresh local storage. Runs in Node; the files of one shard run one
 * at a time (they share its servers and their data).
 */
export default defineConfig({
  resolve: {
    alias: {
      '~': path('./app'),
      '@server': path('./workers'),
      '@db': path('./drizzle'),
    },
  },
  test: {
    environment: 'node',
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['./tests/e2e/support/global-setup.ts'],
    // axe: findings of the pages a test loaded fail that test (tests/e2e/support/axe.ts).
    setupFiles: ['./tests/e2e/support/accessibility-setup.ts'],
    // Files run in E2E_SHARDS test processes at once (servers.ts), each against Workers of its own.
    fileParallelism: true,
    maxWorkers: SHARDS,
    // The files run one after another in one process that keeps its loaded modules (playwright-core, the
    // support files), instead of importing them again for each file. Each file makes its own browser,
    // contexts and data; the support files' state is per page or emptied after each test.
    isolate: false,
    // A page's answer to a click can take seconds on a busy machine: `expect.poll` waits as long as a
    // Playwright locator does (30 s), not vitest's 1 s.
    expect: { poll: { timeout: 30_000, interval: 100 } },
    testTimeout: 240_000,
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
  },
});
