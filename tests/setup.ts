import { applyD1Migrations, env, reset } from 'cloudflare:test';
import { afterAll, vi } from 'vitest';

// A test worker runs many files one after another (isolate: false in vitest.config.ts). Each file starts
// from empty storage (D1, R2) with the real migrations applied, as if it had the worker to itself.
await reset();
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// Nor may a file's spies outlive it.
afterAll(() => {
  vi.restoreAllMocks();
});
