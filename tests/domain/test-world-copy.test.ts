import { applyD1Migrations, env, reset } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../drizzle/seed/demo';
import { restoreRows, snapshotRows } from '../support/snapshot';
import { db, SETUP_TIMEOUT_MS } from '../support/world';

// The test suite seeds the demo world once per worker and copies its rows into later files
// (tests/support/world.ts): the copy must be the world itself.
describe('the copied demo world', () => {
  it(
    'holds exactly the rows of the seeded world, in every table',
    async () => {
      await seedDemo(db(), 'uk');
      const seeded = await snapshotRows(env.DB);
      expect(seeded.length).toBeGreaterThan(10);

      await reset();
      await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
      expect(await snapshotRows(env.DB)).toEqual([]);

      await restoreRows(env.DB, seeded);
      expect(await snapshotRows(env.DB)).toEqual(seeded);
      const { results } = await env.DB.prepare('PRAGMA foreign_key_check').all();
      expect(results).toEqual([]);
    },
    SETUP_TIMEOUT_MS,
  );
});
