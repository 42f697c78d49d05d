import { beforeAll, describe, expect, it, vi } from 'vitest';
import { notify } from '../../workers/domain/notifications/service';
import { runBatch } from '../../workers/platform/db';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, ctx, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Listed = {
  data: {
    notifications: {
      items: { id: number; title: string; read: boolean; to: string | null }[];
      meta: { unread: number };
    };
  };
};

let financeToken: string;
let executiveToken: string;

beforeAll(async () => {
  await seedUk();
  const finance = await userByEmail(DEMO_ACCOUNTS.finance);
  const executive = await userByEmail(DEMO_ACCOUNTS.executive);
  const c = ctx();
  await runBatch(c.db, [
    ...notify(c, {
      user_ids: [finance.id],
      key: 'import_ready',
      params: { file: 'first.xlsx' },
      to: '/insureds',
    }),
    ...notify(c, {
      user_ids: [finance.id],
      key: 'import_failed',
      params: { file: 'second.xlsx' },
      to: 'https://example.com/',
    }),
    ...notify(c, { user_ids: [executive.id], key: 'welcome' }),
  ]);
  financeToken = await apiToken(DEMO_ACCOUNTS.finance);
  executiveToken = await apiToken(DEMO_ACCOUNTS.executive);
}, SETUP_TIMEOUT_MS);

describe('notifications API', () => {
  it('answers 401 without a token', async () => {
    expect((await call('/api/company/notifications/list')).status).toBe(401);
    expect((await call('/api/company/notifications/read', { method: 'POST', json: {} })).status).toBe(401);
  });

  it('lists the caller’s own notifications in data.notifications.items with the unread count', async () => {
    const answer = await call<Listed>('/api/company/notifications/list', { token: financeToken });
    expect(answer.status).toBe(200);
    const { items, meta } = answer.body.data.notifications;
    expect(items.map((n) => n.title).sort()).toEqual([
      'Spreadsheet could not be read',
      'Spreadsheet ready to review',
    ]);
    expect(meta.unread).toBe(2);
    expect(items.every((n) => n.read === false)).toBe(true);
  });

  it('answers the texts in the language the caller asks for', async () => {
    const answer = await call<Listed>('/api/company/notifications/school/list?items=5', {
      token: financeToken,
      headers: { 'accept-language': 'it-IT,it;q=0.9' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.notifications.items.map((n) => n.title).sort()).toEqual([
      'Foglio pronto da verificare',
      'Impossibile leggere il foglio',
    ]);
  });

  it('marks read only the caller’s rows: another user’s id is ignored', async () => {
    const executive = await call<Listed>('/api/company/notifications/list', { token: executiveToken });
    const theirs = executive.body.data.notifications.items[0];
    const finance = await call<Listed>('/api/company/notifications/list', { token: financeToken });
    const [first] = finance.body.data.notifications.items;

    const answer = await call('/api/company/notifications/read', {
      method: 'POST',
      json: { ids: [first.id, theirs.id] },
      token: financeToken,
    });
    expect(answer).toMatchObject({ status: 200, body: { message: 'Action was performed successfully.' } });

    const after = await call<Listed>('/api/company/notifications/list', { token: financeToken });
    expect(after.body.data.notifications.meta.unread).toBe(1);
    expect(after.body.data.notifications.items.find((n) => n.id === first.id)?.read).toBe(true);
    const executiveAfter = await call<Listed>('/api/company/notifications/list', { token: executiveToken });
    expect(executiveAfter.body.data.notifications.items.find((n) => n.id === theirs.id)?.read).toBe(false);

    await call('/api/company/notifications/read', { method: 'POST', json: { ids: [] }, token: financeToken });
    const none = await call<Listed>('/api/company/notifications/list', { token: financeToken });
    expect(none.body.data.notifications.meta.unread).toBe(1);

    await call('/api/company/notifications/read', { method: 'POST', json: {}, token: financeToken });
    const all = await call<Listed>('/api/company/notifications/list', { token: financeToken });
    expect(all.body.data.notifications.meta.unread).toBe(0);
  });

  it('refuses ids that are not positive whole numbers', async () => {
    const answer = await call('/api/company/notifications/read', {
      method: 'POST',
      json: { ids: ['x', -1] },
      token: financeToken,
    });
    expect(answer.status).toBe(422);
    expect((answer.body as ErrorEnvelope).errors.map((e) => e.key)).toEqual(['ids.0', 'ids.1']);
  });

  it('serves the school list with an item limit', async () => {
    const answer = await call<Listed>('/api/company/notifications/school/list?items=1', {
      token: financeToken,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.notifications.items).toHaveLength(1);
    expect(
      (await call('/api/company/notifications/school/list?items=0', { token: financeToken })).status,
    ).toBe(422);
  });
});
