/**
 * The company a session works in belongs to that session: it starts from the account's stored choice at
 * sign-in, and a change in one session (a browser's top bar) never moves another session of the same
 * account (a second browser, a phone, an API client), whose lists keep their totals.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies, users } from '../../drizzle/schema';
import { DEMO_PASSWORD } from '../../drizzle/seed/builders';
import { selectCompany } from '../../workers/domain/account/service';
import { completeSignIn, startSignIn } from '../../workers/domain/auth/service';
import { resolveActor } from '../../workers/domain/auth/sessions';
import type { ActorCtx } from '../../workers/domain/context';
import { apiToken, call } from '../support/api';
import { ctx, db, DEMO_ACCOUNTS, lastPinFor, seedUk, SETUP_TIMEOUT_MS, uniqueIp } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Me = { data: { company: { selected_company_id: string | null } } };
type UserList = { data: { users: { meta: { total: number } } } };

let albion: string;
let britannia: string;

beforeAll(async () => {
  await seedUk();
  const rows = await db().select().from(companies);
  albion = rows.find((c) => c.name === 'Albion Student Insurance Ltd')!.public_id;
  britannia = rows.find((c) => c.name === 'Britannia Travel Cover Ltd')!.public_id;
}, SETUP_TIMEOUT_MS);

/** A browser sign-in (password, then the emailed PIN): the session's token. */
async function browserSignIn(email: string): Promise<string> {
  const c = ctx({ ip: uniqueIp() });
  const { pendingToken } = await startSignIn(c, { email, password: DEMO_PASSWORD });
  const { token } = await completeSignIn(c, { pendingToken, pin: await lastPinFor(email) });
  return token;
}

async function switchCompany(token: string, company: string | null) {
  const resolved = await resolveActor(db(), token, new Date());
  await selectCompany({ ...ctx(), actor: resolved!.actor } as ActorCtx, company);
}

const selectedOf = async (token: string) =>
  (await call<Me>('/api/company/auth/get', { token })).body.data.company.selected_company_id;
const usersTotal = async (token: string) =>
  (await call<UserList>('/api/company/users/company/list', { token })).body.data.users.meta.total;

describe('the company a session works in', () => {
  it('a switch in one browser moves neither another browser nor an API client; the next sign-in starts from it', async () => {
    const account = DEMO_ACCOUNTS.seniorAdmin;
    await db().update(users).set({ selected_company_id: null }).where(eq(users.email, account));
    const firstBrowser = await browserSignIn(account);
    const secondBrowser = await browserSignIn(account);
    const apiClient = await apiToken(account);
    for (const token of [firstBrowser, secondBrowser, apiClient])
      expect(await selectedOf(token)).toBe(albion);
    const apiTotal = await usersTotal(apiClient);

    await switchCompany(firstBrowser, britannia);
    expect(await selectedOf(firstBrowser)).toBe(britannia);
    expect(await selectedOf(secondBrowser)).toBe(albion);
    expect(await selectedOf(apiClient)).toBe(albion);
    expect(await usersTotal(apiClient)).toBe(apiTotal);
    expect(await usersTotal(firstBrowser)).not.toBe(apiTotal);

    // "All companies" in the second browser: the first keeps Britannia.
    await switchCompany(secondBrowser, null);
    expect(await selectedOf(secondBrowser)).toBeNull();
    expect(await selectedOf(firstBrowser)).toBe(britannia);
    expect(await selectedOf(apiClient)).toBe(albion);

    // A new sign-in starts from the account's last choice.
    expect(await selectedOf(await apiToken(account))).toBeNull();
  });
});
