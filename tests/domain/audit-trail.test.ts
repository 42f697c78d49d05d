/**
 * The audit trail: senior admins search every change of the companies in view (who, when, what, before
 * and after) by user, entity, action and day, and export it; a school master user sees the same for its
 * own school only; a user without read_audit_trail sees nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { activityLogs, clients, companies } from '../../drizzle/schema';
import { buildClient } from '../../drizzle/seed/builders';
import { FINANCE_READ_ONLY } from '../../drizzle/seed/roles';
import { logActivity } from '../../workers/domain/audit/activity-log';
import { auditQuerySchema } from '../../workers/domain/audit/schema';
import { auditChoices, exportAuditTrail, searchAuditTrail } from '../../workers/domain/audit/trail';
import { activityFeed } from '../../workers/domain/activity/feed';
import { Forbidden } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { runBatch } from '../../workers/platform/db';
import { DEMO_ACCOUNTS, actorCtx, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

let senior: ActorCtx;
let school: ActorCtx;
let oakwoodId: number;
let otherClientId: number;
let britanniaId: number;

const q = (raw: Record<string, unknown> = {}) => auditQuerySchema.parse(raw);

beforeAll(async () => {
  await seedUk();
  senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  const [oakwood] = await db().select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  oakwoodId = oakwood.id;
  const [britannia] = await db()
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  britanniaId = britannia.id;
  const other = await buildClient(db(), { name: 'Audit Other School', companyId: oakwood.company_id });
  otherClientId = other.id;
  // One change at Oakwood, one at another school of the same company, on fixed days.
  await runBatch(db(), [
    logActivity(
      { ...senior, now: new Date('2026-03-02T10:00:00Z') },
      {
        entity_type: 'client',
        entity_id: oakwoodId,
        action: 'updated',
        before: { website: 'https://old.example' },
        after: { website: 'https://new.example' },
        company_id: oakwood.company_id,
        client_id: oakwoodId,
      },
    ),
    logActivity(
      { ...senior, now: new Date('2026-03-05T10:00:00Z') },
      {
        entity_type: 'client',
        entity_id: otherClientId,
        action: 'updated',
        before: { website: null },
        after: { website: 'https://other.example' },
        company_id: oakwood.company_id,
        client_id: otherClientId,
      },
    ),
    // In a support view: the senior admin acting as Oakwood's master user.
    logActivity(
      {
        ...school,
        actor: { ...school.actor, support_admin_id: senior.actor.user_id },
        now: new Date('2026-03-09T10:00:00Z'),
      },
      {
        entity_type: 'client',
        entity_id: oakwoodId,
        action: 'updated',
        before: { website: 'https://new.example' },
        after: { website: 'https://viewed.example' },
        company_id: oakwood.company_id,
        client_id: oakwoodId,
      },
    ),
    // A role since deleted: named from what its row recorded.
    logActivity(
      { ...senior, now: new Date('2026-03-10T10:00:00Z') },
      { entity_type: 'role', entity_id: 999_999, action: 'deleted', before: { name: 'Gone Role' } },
    ),
  ]);
}, SETUP_TIMEOUT_MS);

describe('the audit trail', () => {
  it('shows a senior admin every change with who, when, and each field before and after, newest first', async () => {
    const page = await searchAuditTrail(senior, q({ entity_type: 'role' }));
    const copied = page.items.find((r) => r.action === 'copied')!;
    expect(copied.actor_email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    expect(copied.changes.find((c) => c.field === 'name')).toEqual({
      field: 'name',
      before: null,
      after: FINANCE_READ_ONLY,
    });
    const dates = page.items.map((r) => r.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const choices = await auditChoices(senior);
    expect(choices.entity_types).toEqual(expect.arrayContaining(['role', 'client']));
    expect(choices.actions).toEqual(expect.arrayContaining(['copied', 'updated']));
  });

  it('searches by user, entity, action and day', async () => {
    const byDay = await searchAuditTrail(
      senior,
      q({ entity_type: 'client', from: '2026-03-02', to: '2026-03-02' }),
    );
    expect(byDay.items.map((r) => r.entity_id)).toEqual([oakwoodId]);
    expect(byDay.items[0].on_behalf_of).toBeNull();
    expect(byDay.items[0].changes).toEqual([
      { field: 'website', before: 'https://old.example', after: 'https://new.example' },
    ]);
    const byEntity = await searchAuditTrail(
      senior,
      q({ entity_type: 'client', entity_id: String(otherClientId) }),
    );
    expect(byEntity.items.map((r) => r.entity_id)).toEqual([otherClientId]);
    const byUser = await searchAuditTrail(senior, q({ user: 'senior.admin', action: 'copied' }));
    expect(byUser.meta.total).toBeGreaterThan(0);
    expect(
      byUser.items.every((r) => r.action === 'copied' && r.actor_email === DEMO_ACCOUNTS.seniorAdmin),
    ).toBe(true);
    const nobody = await searchAuditTrail(senior, q({ user: 'no-such-person' }));
    expect(nobody.meta.total).toBe(0);
  });

  it('shows a school master user the changes of its own school only', async () => {
    const mine = await searchAuditTrail(school, q({ items: '500' }));
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.some((r) => r.entity_type === 'client' && r.entity_id === oakwoodId)).toBe(true);
    const ids = mine.items.map((r) => r.id);
    const rows = await db().select().from(activityLogs);
    const foreign = rows.filter((r) => ids.includes(r.id) && r.client_id !== oakwoodId);
    expect(foreign).toEqual([]);
    // Not the other school's change, nor the roles (they belong to no school).
    expect(mine.items.some((r) => r.entity_id === otherClientId && r.entity_type === 'client')).toBe(false);
    expect(mine.items.some((r) => r.entity_type === 'role')).toBe(false);
  });

  it('follows the company chosen in the top bar: another company’s changes are not shown', async () => {
    const britanniaOnly = { ...senior, actor: { ...senior.actor, selected_company_id: britanniaId } };
    const page = await searchAuditTrail(britanniaOnly, q({ entity_type: 'client', items: '500' }));
    expect(page.items.some((r) => r.entity_id === oakwoodId)).toBe(false);
  });

  it('refuses a user without read_audit_trail', async () => {
    const admin = await actorCtx(DEMO_ACCOUNTS.admin);
    await expect(searchAuditTrail(admin, q())).rejects.toBeInstanceOf(Forbidden);
    await expect(exportAuditTrail(admin, q())).rejects.toBeInstanceOf(Forbidden);
    const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    await expect(searchAuditTrail(employee, q())).rejects.toBeInstanceOf(Forbidden);
  });

  it('exports what the search finds', async () => {
    const rows = await exportAuditTrail(
      senior,
      q({ entity_type: 'client', from: '2026-03-01', to: '2026-03-05' }),
    );
    expect(rows.map((r) => r.entity_id).sort()).toEqual([oakwoodId, otherClientId].sort());
  });

  it('names each entity: a client by its name, a user by full name, a role by its title, a deleted one as recorded', async () => {
    const client = await searchAuditTrail(senior, q({ entity_type: 'client', entity_id: String(oakwoodId) }));
    expect(client.items[0].entity_name).toBe('Oakwood International School');
    const copied = (await searchAuditTrail(senior, q({ entity_type: 'role', action: 'copied' }))).items[0];
    expect(copied.entity_name).toBe(FINANCE_READ_ONLY);
    const gone = await searchAuditTrail(senior, q({ entity_type: 'role', entity_id: '999999' }));
    expect(gone.items[0].entity_name).toBe('Gone Role');
    const users = await searchAuditTrail(senior, q({ entity_type: 'user', items: '100' }));
    const sarah = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const named = users.items.filter((r) => r.entity_id === sarah.id);
    for (const r of named) expect(r.entity_name).toBe(`${sarah.first_name} ${sarah.last_name}`);
  });

  it('shows a change made in a support view as the admin on behalf of the user, in the page, the export and the logs tab', async () => {
    const master = await userByEmail(DEMO_ACCOUNTS.schoolAdmin);
    const search = q({ entity_type: 'client', from: '2026-03-09', to: '2026-03-09' });
    const [row] = (await searchAuditTrail(senior, search)).items;
    expect(row.actor_email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    expect(row.on_behalf_of).toBe(`${master.first_name} ${master.last_name}`);
    expect(row.on_behalf_of_email).toBe(DEMO_ACCOUNTS.schoolAdmin);
    const [exported] = await exportAuditTrail(senior, search);
    expect(exported.on_behalf_of).toBe(row.on_behalf_of);
    // The school's own trail shows it too, and searching by the viewed user finds it.
    const mine = await searchAuditTrail(school, q({ user: master.email, entity_type: 'client' }));
    expect(mine.items.map((r) => r.id)).toContain(row.id);
    // The client's logs tab.
    const feed = await activityFeed(db(), 'client', oakwoodId, 1, 100);
    const inFeed = feed.items.find((r) => r.id === row.id)!;
    expect(inFeed.on_behalf_of).toBe(row.on_behalf_of);
    expect(inFeed.actor).toBe(row.actor);
    expect(feed.items.filter((r) => r.id !== row.id).every((r) => r.on_behalf_of === null)).toBe(true);
  });
});
