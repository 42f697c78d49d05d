import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { notifications, rateLimits, settings } from '../../drizzle/schema';
import {
  MAX_BOUND_PARAMETERS,
  bulkInsert,
  chunkRows,
  runBatch,
  type Statement,
} from '../../workers/platform/db';
import { DEMO_ACCOUNTS, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

function boundParameters(statement: Statement): number {
  return (statement as unknown as { toSQL(): { params: unknown[] } }).toSQL().params.length;
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('D1 bound-parameter limit', () => {
  it('chunkRows keeps every chunk within 100 bound parameters and loses no row', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => i);
    for (const columns of [1, 7, 9, 33, 50, 100]) {
      const chunks = chunkRows(rows, columns);
      for (const chunk of chunks) expect(chunk.length * columns).toBeLessThanOrEqual(MAX_BOUND_PARAMETERS);
      expect(chunks.flat()).toEqual(rows);
    }
    expect(MAX_BOUND_PARAMETERS).toBe(100);
  });

  it('chunkRows refuses a row that binds more than 100 parameters (or none)', () => {
    expect(() => chunkRows([1], 101)).toThrow(/101 parameters/);
    expect(() => chunkRows([1], 0)).toThrow();
  });

  it('bulkInsert writes 1000 notifications in one batch, no statement binding more than 100 parameters', async () => {
    const user = await userByEmail(DEMO_ACCOUNTS.finance);
    const now = new Date('2026-01-05T10:00:00Z');
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      user_id: user.id,
      title: `Bulk ${i}`,
      description: `Row ${i} of a bulk insert`,
      to: `/insureds/${i}`,
      client_id: null,
      campus_id: null,
      read_at: null,
      created_at: now,
    }));
    const statements = bulkInsert(db(), notifications, rows);
    expect(statements.length).toBeGreaterThan(1);
    for (const s of statements) expect(boundParameters(s)).toBeLessThanOrEqual(MAX_BOUND_PARAMETERS);
    await runBatch(db(), statements);
    const [{ n }] = await db()
      .select({ n: sql<number>`count(*)` })
      .from(notifications)
      .where(eq(notifications.user_id, user.id));
    expect(n).toBe(1000);
  });

  it('bulkInsert of no rows gives no statement, and runBatch of none does nothing', async () => {
    expect(bulkInsert(db(), notifications, [])).toEqual([]);
    await expect(runBatch(db(), [])).resolves.toBeUndefined();
  });
});

describe('runBatch', () => {
  it('is all-or-nothing: when one statement fails nothing of the batch is written', async () => {
    const d = db();
    await d.insert(rateLimits).values({ key: 'taken', count: 1, window_start: new Date() });
    const batch = [
      d.insert(settings).values({ key: 'batch.first', value: 'written?' }),
      d.insert(rateLimits).values({ key: 'batch.second', count: 1, window_start: new Date() }),
      // The primary key is taken: this statement fails.
      d.insert(rateLimits).values({ key: 'taken', count: 1, window_start: new Date() }),
    ];
    await expect(runBatch(d, batch)).rejects.toThrow();
    expect(await d.select().from(settings).where(eq(settings.key, 'batch.first'))).toEqual([]);
    expect(await d.select().from(rateLimits).where(eq(rateLimits.key, 'batch.second'))).toEqual([]);
  });

  it('writes every statement when none fails', async () => {
    const d = db();
    await runBatch(d, [
      d.insert(settings).values({ key: 'batch.ok.1', value: 'a' }),
      d.insert(settings).values({ key: 'batch.ok.2', value: 'b' }),
    ]);
    const rows = await d
      .select()
      .from(settings)
      .where(sql`${settings.key} like 'batch.ok.%'`);
    expect(rows.map((r) => r.value).sort()).toEqual(['a', 'b']);
  });
});
