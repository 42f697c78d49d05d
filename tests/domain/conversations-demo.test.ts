/**
 * The message centre's demo data: conversations in every status between the demo insurer and both
 * schools, with attachments, a campus thread, and read, unread, flagged and archived states on each side.
 */
import { beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, conversations, messageAttachments } from '../../drizzle/schema';
import { seedDemoMessages } from '../../drizzle/seed/messages';
import { listConversations, unreadCount } from '../../workers/domain/conversations/inbox';
import { inboxQuerySchema } from '../../workers/domain/conversations/schema';
import { actorCtx, db, DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS, testEnv } from '../support/world';

beforeAll(async () => {
  await seedUk();
  const [main] = await db()
    .select()
    .from(companies)
    .where(eq(companies.name, 'Albion Student Insurance Ltd'));
  await seedDemoMessages(db(), testEnv(), {
    companyId: main.id,
    emails: {
      staff: DEMO_ACCOUNTS.admin,
      school: DEMO_ACCOUNTS.schoolAdmin,
      campus: DEMO_ACCOUNTS.campusEmployee,
    },
  });
}, SETUP_TIMEOUT_MS);

it('holds threads in every state, with attachments, for both schools and a campus', async () => {
  const rows = await db().select().from(conversations);
  const statuses = rows.map((r) => r.status);
  expect(statuses).toContain('open');
  expect(statuses).toContain('resolved');
  expect(new Set(rows.map((r) => r.client_id)).size).toBe(2);
  expect(rows.some((r) => r.campus_id !== null)).toBe(true);
  expect((await db().select().from(messageAttachments)).length).toBeGreaterThanOrEqual(3);
  const staff = await actorCtx(DEMO_ACCOUNTS.admin);
  const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
  expect(await unreadCount(staff)).toBeGreaterThan(0);
  expect((await listConversations(staff, inboxQuerySchema.parse({ folder: 'flagged' }))).items).toHaveLength(
    1,
  );
  expect(
    (await listConversations(school, inboxQuerySchema.parse({ folder: 'archived' }))).items,
  ).toHaveLength(1);
  expect((await listConversations(employee, inboxQuerySchema.parse({}))).items.map((i) => i.subject)).toEqual(
    ['Insurance card for a new student'],
  );
});
