import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { activityLogs, jobs, notifications, rateLimits, settings } from '../../drizzle/schema';
import { logActivity } from '../../workers/domain/audit/activity-log';
import {
  MAX_BOUND_PARAMETERS,
  bulkInsert,
  chunk,
  chunkRows,
  idByPublicId,
  runBatch,
  type Statement,
} from '../../workers/platform/db';
import { DEMO_ACCOUNTS, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

function boundParameters(statement: Statement): number {
  return ('toSQL' in statement ? statement.toSQL() : statement.getQuery()).params.length;
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

  it('chunk splits items in order into lists of at most the size, the last one holding the rest', () => {
    expect(chunk([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(chunk([1, 2, 3], 3)).toEqual([[1, 2, 3]]);
    expect(chunk([], 3)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow();
    expect(() => chunk([1], 1.5)).toThrow();
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

  it('is all-or-nothing across inserts, updates, deletes and raw statements with parameters', async () => {
    const d = db();
    await d.insert(settings).values([
      { key: 'mixed.update', value: 'before' },
      { key: 'mixed.delete', value: 'kept' },
    ]);
    await expect(
      runBatch(d, [
        d.insert(settings).values({ key: 'mixed.insert', value: 'new' }),
        d.update(settings).set({ value: 'after' }).where(eq(settings.key, 'mixed.update')),
        d.delete(settings).where(eq(settings.key, 'mixed.delete')),
        d.run(sql`UPDATE settings SET value = ${'raw'} WHERE key = ${'mixed.update'}`),
        // The primary key is taken by the first statement of this batch: this one fails.
        d.insert(settings).values({ key: 'mixed.insert', value: 'again' }),
      ]),
    ).rejects.toThrow();
    const rows = await d
      .select()
      .from(settings)
      .where(sql`${settings.key} like 'mixed.%'`)
      .orderBy(settings.key);
    expect(rows).toEqual([
      { key: 'mixed.delete', value: 'kept' },
      { key: 'mixed.update', value: 'before' },
    ]);
  });

  it('runs inserts, updates, deletes and raw statements with parameters together', async () => {
    const d = db();
    await d.insert(settings).values([
      { key: 'together.update', value: 'before' },
      { key: 'together.delete', value: 'gone' },
    ]);
    await runBatch(d, [
      d.insert(settings).values({ key: 'together.insert', value: 'new' }),
      d.update(settings).set({ value: 'after' }).where(eq(settings.key, 'together.update')),
      d.delete(settings).where(eq(settings.key, 'together.delete')),
      d.run(sql`INSERT INTO settings (key, value) VALUES (${'together.raw'}, ${'raw'})`),
    ]);
    const rows = await d
      .select()
      .from(settings)
      .where(sql`${settings.key} like 'together.%'`)
      .orderBy(settings.key);
    expect(rows).toEqual([
      { key: 'together.insert', value: 'new' },
      { key: 'together.raw', value: 'raw' },
      { key: 'together.update', value: 'after' },
    ]);
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

describe('idByPublicId', () => {
  it('finds the id of a row written earlier in the same batch, for the rows that point at it', async () => {
    const d = db();
    const now = new Date('2026-01-05T10:00:00Z');
    await runBatch(d, [
      d.insert(jobs).values({ public_id: 'rowid-job', type: 'test', created_at: now, updated_at: now }),
      logActivity(
        { db: d, actor: null, now },
        { entity_type: 'job', entity_id: idByPublicId(jobs, 'rowid-job'), action: 'created' },
      ),
    ]);
    const [job] = await d.select({ id: jobs.id }).from(jobs).where(eq(jobs.public_id, 'rowid-job'));
    const logs = await d
      .select({ entity_id: activityLogs.entity_id })
      .from(activityLogs)
      .where(eq(activityLogs.entity_type, 'job'));
    expect(logs).toEqual([{ entity_id: job.id }]);
  });

  it('finds nothing (null) for a public id that no row has', async () => {
    const d = db();
    const rows = await d.all<{ id: number | null }>(sql`select ${idByPublicId(jobs, 'no-such-job')} as id`);
    expect(rows).toEqual([{ id: null }]);
  });
});
