import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { notifications } from '../../drizzle/schema';
import {
  listNotifications,
  markNotificationsRead,
  notify,
  unreadNotificationCount,
} from '../../workers/domain/notifications/service';
import { ValidationFailed } from '../../workers/domain/errors';
import { runBatch } from '../../workers/platform/db';
import { DEMO_ACCOUNTS, actorCtx, ctx, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

let financeId: number;
let executiveId: number;

beforeAll(async () => {
  await seedUk();
  financeId = (await userByEmail(DEMO_ACCOUNTS.finance)).id;
  executiveId = (await userByEmail(DEMO_ACCOUNTS.executive)).id;
}, SETUP_TIMEOUT_MS);

async function send(userIds: number[], title: string, to: string | null = '/insureds', at = new Date()) {
  const c = ctx({ now: at });
  await runBatch(c.db, notify(c, { user_ids: userIds, title, description: `${title} happened`, to }));
}

describe('notifications', () => {
  it('notify writes one row per user; each lists only their own, newest first, with the unread count', async () => {
    await send([financeId, executiveId], 'Invoice overdue', '/invoices', new Date('2026-03-01T10:00:00Z'));
    await send([financeId], 'Batch imported', '/insureds', new Date('2026-03-01T11:00:00Z'));
    const finance = await listNotifications(await actorCtx(DEMO_ACCOUNTS.finance));
    expect(finance.items.map((n) => n.title)).toEqual(['Batch imported', 'Invoice overdue']);
    expect(finance.unread).toBe(2);
    expect(finance.items[0]).toMatchObject({
      description: 'Batch imported happened',
      to: '/insureds',
      read: false,
      created_at: '2026-03-01T11:00:00.000Z',
    });
    const executive = await listNotifications(await actorCtx(DEMO_ACCOUNTS.executive));
    expect(executive.items.map((n) => n.title)).toEqual(['Invoice overdue']);
  });

  it('markNotificationsRead touches only the caller’s rows, even when given someone else’s ids', async () => {
    await send([financeId, executiveId], 'Shared news');
    const rows = await db().select().from(notifications).where(eq(notifications.title, 'Shared news'));
    const executivesRow = rows.find((r) => r.user_id === executiveId)!;
    const financesRow = rows.find((r) => r.user_id === financeId)!;
    const before = await unreadNotificationCount(db(), executiveId);

    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance), [executivesRow.id]);
    expect(await unreadNotificationCount(db(), executiveId)).toBe(before);

    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance), [financesRow.id]);
    const finance = await listNotifications(await actorCtx(DEMO_ACCOUNTS.finance));
    expect(finance.items.find((n) => n.id === financesRow.id)?.read).toBe(true);
    expect(finance.items.filter((n) => !n.read).length).toBe(finance.unread);

    // An empty list marks nothing; no list at all marks everything.
    const unreadBefore = await unreadNotificationCount(db(), financeId);
    expect(unreadBefore).toBeGreaterThan(0);
    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance), []);
    expect(await unreadNotificationCount(db(), financeId)).toBe(unreadBefore);
    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance));
    expect(await unreadNotificationCount(db(), financeId)).toBe(0);
    expect(await unreadNotificationCount(db(), executiveId)).toBe(before);
  });

  it('accepts internal paths and http(s) links as targets, and no target at all', async () => {
    await send([financeId], 'Internal', '/clients/abc');
    await send([financeId], 'External', 'https://example.com/help');
    await send([financeId], 'Plain http', 'http://example.com/');
    await send([financeId], 'Nowhere', null);
    const rows = await db().select().from(notifications).where(eq(notifications.user_id, financeId));
    expect(rows.find((r) => r.title === 'Nowhere')?.to).toBeNull();
    expect(rows.find((r) => r.title === 'External')?.to).toBe('https://example.com/help');
  });

  it('refuses a javascript:, data: or protocol-relative link', () => {
    const c = ctx();
    for (const to of [
      // Browsers read a backslash as a slash and drop tabs and line breaks: these lead off-site.
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,x',
      '//evil.example',
      'insureds',
    ]) {
      let error: unknown = null;
      try {
        notify(c, { user_ids: [financeId], title: 'Bad', description: 'Bad link', to });
      } catch (e) {
        error = e;
      }
      expect(error, to).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors[0].key).toBe('to');
    }
  });
});
