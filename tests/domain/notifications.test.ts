import { beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { notifications } from '../../drizzle/schema';
import {
  listNotifications,
  markNotificationsRead,
  notify,
  renderNotification,
  unreadNotificationCount,
} from '../../workers/domain/notifications/service';
import { ValidationFailed } from '../../workers/domain/errors';
import { runBatch } from '../../workers/platform/db';
import { loadLanguages } from '../../workers/platform/i18n';
import { DEMO_ACCOUNTS, actorCtx, ctx, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

let financeId: number;
let executiveId: number;

beforeAll(async () => {
  await seedUk();
  await loadLanguages(['fr', 'de', 'es']);
  financeId = (await userByEmail(DEMO_ACCOUNTS.finance)).id;
  executiveId = (await userByEmail(DEMO_ACCOUNTS.executive)).id;
}, SETUP_TIMEOUT_MS);

/** A notification naming `file` (the import keys read it), so each test finds its own rows. */
async function send(
  userIds: number[],
  file: string,
  to: string | null = '/insureds',
  at = new Date(),
  key: 'import_ready' | 'import_failed' = 'import_ready',
) {
  const c = ctx({ now: at });
  await runBatch(c.db, notify(c, { user_ids: userIds, key, params: { file }, to }));
}

const fileOf = (row: { params: Record<string, string | number> | null }) => row.params?.file;
const en = { lang: 'en' };

describe('notifications', () => {
  it('notify writes one row per user; each lists only their own, newest first, with the unread count', async () => {
    await send(
      [financeId, executiveId],
      'march.xlsx',
      '/invoices',
      new Date('2026-03-01T10:00:00Z'),
      'import_failed',
    );
    await send([financeId], 'april.xlsx', '/insureds', new Date('2026-03-01T11:00:00Z'));
    const finance = await listNotifications(await actorCtx(DEMO_ACCOUNTS.finance), en);
    expect(finance.items.map((n) => n.title)).toEqual([
      'Spreadsheet ready to review',
      'Spreadsheet could not be read',
    ]);
    expect(finance.unread).toBe(2);
    expect(finance.items[0]).toMatchObject({
      description: 'The applicants of april.xlsx are read: review them and complete the order.',
      to: '/insureds',
      read: false,
      created_at: '2026-03-01T11:00:00.000Z',
    });
    const executive = await listNotifications(await actorCtx(DEMO_ACCOUNTS.executive), en);
    expect(executive.items.map((n) => n.description)).toEqual([
      'march.xlsx could not be imported. Open it to see why.',
    ]);
  });

  it('stores the key and its parameters, and each reader reads them in their language', async () => {
    await send([executiveId], 'langues.xlsx', '/insureds', new Date('2026-03-02T10:00:00Z'));
    const [row] = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.user_id, executiveId))
      .orderBy(desc(notifications.id))
      .limit(1);
    expect(row).toMatchObject({ message_key: 'import_ready', params: { file: 'langues.xlsx' }, title: null });
    const executive = await actorCtx(DEMO_ACCOUNTS.executive);
    const [fr] = (await listNotifications(executive, { lang: 'fr' })).items;
    expect(fr).toMatchObject({
      title: 'Feuille prête à vérifier',
      description: 'Les demandeurs de langues.xlsx sont lus : vérifiez-les et terminez la commande.',
    });
    const [de] = (await listNotifications(executive, { lang: 'de' })).items;
    expect(de.title).toBe('Tabelle bereit zur Prüfung');
  });

  it('shows a notification written before keys as it was written, in any language', async () => {
    await db()
      .insert(notifications)
      .values({
        user_id: executiveId,
        title: 'Old news',
        description: 'Written as text',
        created_at: new Date('2026-03-03T10:00:00Z'),
      });
    const [old] = (await listNotifications(await actorCtx(DEMO_ACCOUNTS.executive), { lang: 'es' })).items;
    expect(old).toMatchObject({ title: 'Old news', description: 'Written as text', to: null });
  });

  it('formats an amount in minor units with its currency, and picks the plural form by count', () => {
    const base = { id: 1, user_id: 1, title: null, description: null, to: null, read_at: null };
    const row = (message_key: string, params: Record<string, string | number>) => ({
      ...base,
      client_id: null,
      campus_id: null,
      created_at: new Date(),
      message_key,
      params,
    });
    expect(
      renderNotification(
        row('payment_received', {
          number: 'INV0000042',
          client: 'Oxford',
          amount_minor: 123456,
          currency: 'GBP',
        }),
        'en',
      ).description,
    ).toBe('£1,234.56 received for invoice INV0000042 (Oxford).');
    expect(renderNotification(row('amendment_cancel', { count: 1 }), 'en').description).toBe(
      '1 policy was cancelled.',
    );
    expect(renderNotification(row('amendment_cancel', { count: 3 }), 'es').description).toBe(
      'Se han cancelado 3 pólizas.',
    );
  });

  it('markNotificationsRead touches only the caller’s rows, even when given someone else’s ids', async () => {
    await send([financeId, executiveId], 'shared.xlsx');
    const rows = (await db().select().from(notifications)).filter((r) => fileOf(r) === 'shared.xlsx');
    const executivesRow = rows.find((r) => r.user_id === executiveId)!;
    const financesRow = rows.find((r) => r.user_id === financeId)!;
    const before = await unreadNotificationCount(db(), executiveId);

    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance), [executivesRow.id]);
    expect(await unreadNotificationCount(db(), executiveId)).toBe(before);

    await markNotificationsRead(await actorCtx(DEMO_ACCOUNTS.finance), [financesRow.id]);
    const finance = await listNotifications(await actorCtx(DEMO_ACCOUNTS.finance), en);
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
    await send([financeId], 'internal', '/clients/abc');
    await send([financeId], 'external', 'https://example.com/help');
    await send([financeId], 'plain-http', 'http://example.com/');
    await send([financeId], 'nowhere', null);
    const rows = await db().select().from(notifications).where(eq(notifications.user_id, financeId));
    expect(rows.find((r) => fileOf(r) === 'nowhere')?.to).toBeNull();
    expect(rows.find((r) => fileOf(r) === 'external')?.to).toBe('https://example.com/help');
    expect(rows.find((r) => fileOf(r) === 'plain-http')?.to).toBe('http://example.com/');
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
        notify(c, { user_ids: [financeId], key: 'import_ready', params: { file: 'bad' }, to });
      } catch (e) {
        error = e;
      }
      expect(error, to).toBeInstanceOf(ValidationFailed);
      expect((error as ValidationFailed).errors[0].key).toBe('to');
    }
  });
});
