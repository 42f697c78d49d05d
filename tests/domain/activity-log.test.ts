import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { activityLogs } from '../../drizzle/schema';
import { listActivity, logActivities, logActivity } from '../../workers/domain/audit/activity-log';
import { MAX_BOUND_PARAMETERS, runBatch } from '../../workers/platform/db';
import { ctx, db } from '../support/world';

let entities = 0;
async function writeLog(entry: Omit<Parameters<typeof logActivity>[1], 'entity_type' | 'entity_id'>) {
  entities += 1;
  const c = ctx({ now: new Date('2026-02-01T12:00:00Z') });
  await runBatch(c.db, [logActivity(c, { entity_type: 'user', entity_id: entities, ...entry })]);
  const [row] = await db().select().from(activityLogs).where(eq(activityLogs.entity_id, entities));
  return row;
}

describe('activity log', () => {
  it('keeps only the fields that changed', async () => {
    const row = await writeLog({
      action: 'updated',
      before: { first_name: 'Ann', last_name: 'Lee', landing_page: 'insureds', status: 'active' },
      after: { first_name: 'Anne', last_name: 'Lee', landing_page: 'clients', status: 'active' },
    });
    expect(row.before).toEqual({ first_name: 'Ann', landing_page: 'insureds' });
    expect(row.after).toEqual({ first_name: 'Anne', landing_page: 'clients' });
  });

  it('never stores a password hash, token hash or PIN hash, changed or not', async () => {
    const changed = await writeLog({
      action: 'password_changed',
      before: { password_hash: 'scrypt$old', email: 'a@demo.test' },
      after: { password_hash: 'scrypt$new', email: 'b@demo.test' },
    });
    expect(changed.before).toEqual({ email: 'a@demo.test' });
    expect(changed.after).toEqual({ email: 'b@demo.test' });
    const created = await writeLog({
      action: 'created',
      after: { email: 'c@demo.test', password_hash: 'scrypt$x', token_hash: 'abc', pin_hash: 'def' },
    });
    expect(created.before).toBeNull();
    expect(created.after).toEqual({ email: 'c@demo.test' });
    const raw = await db().select().from(activityLogs);
    expect(JSON.stringify(raw)).not.toContain('scrypt$');
  });

  it('ignores updated_at and compares dates by their instant', async () => {
    const row = await writeLog({
      action: 'updated',
      before: {
        updated_at: new Date('2026-01-01T00:00:00Z'),
        last_login_at: new Date('2026-01-01T08:00:00Z'),
        name: 'Same',
      },
      after: {
        updated_at: new Date('2026-02-01T00:00:00Z'),
        last_login_at: new Date('2026-01-01T08:00:00Z'),
        name: 'Same',
      },
    });
    expect(row.before).toEqual({});
    expect(row.after).toEqual({});
  });

  it('records who acted, when, and on what; listActivity reads it back newest first', async () => {
    const c = ctx({ now: new Date('2026-02-02T09:00:00Z') });
    const actor = { user_id: 4242 } as NonNullable<typeof c.actor>;
    await runBatch(c.db, [
      logActivity(
        { ...c, actor },
        { entity_type: 'client', entity_id: 77, action: 'created', after: { a: 1 } },
      ),
      logActivity(
        { ...c, actor, now: new Date('2026-02-02T10:00:00Z') },
        { entity_type: 'client', entity_id: 77, action: 'updated', before: { a: 1 }, after: { a: 2 } },
      ),
    ]);
    const { items, meta } = await listActivity(db(), 'client', 77);
    expect(meta.total).toBe(2);
    expect(items.map((i) => [i.action, i.actor_user_id, i.created_at.toISOString()])).toEqual([
      ['updated', 4242, '2026-02-02T10:00:00.000Z'],
      ['created', 4242, '2026-02-02T09:00:00.000Z'],
    ]);
  });

  it('writes many entries at once in statements within the parameter limit, each keeping only its changes', async () => {
    const c = ctx({ now: new Date('2026-02-03T09:00:00Z') });
    const entries = Array.from({ length: 250 }, (_, i) => ({
      entity_type: 'bulk_product',
      entity_id: i + 1,
      action: 'archived' as const,
      before: { status: 'active', name: `P${i}` },
      after: { status: 'archived', name: `P${i}` },
      company_id: 5,
    }));
    const statements = logActivities(c, entries);
    expect(statements.length).toBeGreaterThan(1);
    for (const s of statements) {
      const { params } = 'toSQL' in s ? s.toSQL() : s.getQuery();
      expect(params.length).toBeLessThanOrEqual(MAX_BOUND_PARAMETERS);
    }
    await runBatch(c.db, statements);
    const rows = await db().select().from(activityLogs).where(eq(activityLogs.entity_type, 'bulk_product'));
    expect(rows).toHaveLength(250);
    expect(new Set(rows.map((r) => r.entity_id)).size).toBe(250);
    for (const r of rows) {
      expect(r.before).toEqual({ status: 'active' });
      expect(r.after).toEqual({ status: 'archived' });
      expect(r.company_id).toBe(5);
    }
    expect(logActivities(c, [])).toEqual([]);
  });
});
