import { applyD1Migrations, env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../../drizzle/seed/demo';
import { emptyBucket, emptyDatabase } from '../support/storage';
import { snapshotRows } from '../support/snapshot';
import { db, SETUP_TIMEOUT_MS } from '../support/world';

// tests/setup.ts empties what reset() left behind before each file (tests/support/storage.ts): a
// seeded database must come out as a new one, and an R2 bucket with files must come out empty.
describe('emptying a test file storage', () => {
  it(
    'drops every table, view and trigger of a seeded database, so the migrations apply afresh',
    async () => {
      await seedDemo(db(), 'uk');
      expect((await snapshotRows(env.DB)).length).toBeGreaterThan(10);

      expect(await emptyDatabase(env.DB)).toBeGreaterThan(10);
      const { results } = await env.DB.prepare(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      ).all();
      expect(results).toEqual([]);
      expect(await emptyDatabase(env.DB)).toBe(0);

      await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
      expect(await snapshotRows(env.DB)).toEqual([]);
      await seedDemo(db(), 'uk');
      expect((await snapshotRows(env.DB)).length).toBeGreaterThan(10);
    },
    SETUP_TIMEOUT_MS,
  );

  it('deletes every object of a bucket', async () => {
    for (let i = 0; i < 3; i++) await env.FILES.put(`left/${i}.txt`, `file ${i}`);
    expect(await emptyBucket(env.FILES)).toBe(3);
    expect((await env.FILES.list()).objects).toEqual([]);
  });
});
