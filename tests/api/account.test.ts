/** The sessions calls of account details and the support view (the other-user token) over the API. */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD } from '../../drizzle/seed/builders';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const GET = '/api/company/auth/get';
const SESSIONS = '/api/company/user/sessions';

type Listed = { data: { sessions: { id: number; device_label: string; current: boolean; kind: string }[] } };

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('GET user/sessions and DELETE user/sessions/{id}', () => {
  it('lists the caller’s sessions and ends one: that token is refused on its next call', async () => {
    const current = await apiToken(DEMO_ACCOUNTS.external);
    const other = await apiToken(DEMO_ACCOUNTS.external);
    const listed = await call<Listed>(SESSIONS, { token: current });
    expect(listed.status).toBe(200);
    const mine = listed.body.data.sessions;
    expect(mine.filter((s) => s.current)).toHaveLength(1);
    const target = mine.find((s) => !s.current)!;
    expect(target.kind).toBe('api');
    const ended = await call(`${SESSIONS}/${target.id}`, { method: 'DELETE', token: current });
    expect(ended.status).toBe(200);
    const statuses = await Promise.all(
      [other, current].map(async (t) => (await call(GET, { token: t })).status),
    );
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it('answers 404 for another user’s session and 422 for an id that is not one; 401 without a token', async () => {
    const mine = await apiToken(DEMO_ACCOUNTS.executive);
    const theirs = await apiToken(DEMO_ACCOUNTS.finance);
    const theirId = (await call<Listed>(SESSIONS, { token: theirs })).body.data.sessions.find(
      (s) => s.current,
    )!.id;
    expect((await call(`${SESSIONS}/${theirId}`, { method: 'DELETE', token: mine })).status).toBe(404);
    expect((await call(GET, { token: theirs })).status).toBe(200);
    const bad = await call<ErrorEnvelope>(`${SESSIONS}/abc`, { method: 'DELETE', token: mine });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].key).toBe('id');
    expect((await call(SESSIONS)).status).toBe(401);
  });

  it('POST user/sessions/end-others keeps only the caller’s token', async () => {
    const current = await apiToken(DEMO_ACCOUNTS.accountManager);
    const other = await apiToken(DEMO_ACCOUNTS.accountManager);
    const answer = await call<{ data: { ended: number } }>(`${SESSIONS}/end-others`, {
      method: 'POST',
      token: current,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.ended).toBeGreaterThanOrEqual(1);
    expect((await call(GET, { token: other })).status).toBe(401);
    expect((await call(GET, { token: current })).status).toBe(200);
  });

  it('PATCH user/update-password with sign_out_other_sessions false keeps the other tokens', async () => {
    const current = await apiToken(DEMO_ACCOUNTS.campusEmployee);
    const other = await apiToken(DEMO_ACCOUNTS.campusEmployee);
    const answer = await call('/api/company/user/update-password', {
      method: 'PATCH',
      json: {
        current_password: DEMO_PASSWORD,
        password: 'Kept-Other-0nes!',
        password_confirmation: 'Kept-Other-0nes!',
        sign_out_other_sessions: false,
      },
      token: current,
    });
    expect(answer.status).toBe(200);
    expect((await call(GET, { token: other })).status).toBe(200);
    const back = await call('/api/company/user/update-password', {
      method: 'PATCH',
      json: {
        current_password: 'Kept-Other-0nes!',
        password: DEMO_PASSWORD,
        password_confirmation: DEMO_PASSWORD,
      },
      token: current,
    });
    expect(back.status).toBe(200);
    expect((await call(GET, { token: other })).status).toBe(401);
  });
});

describe('POST support/view-as/{id} and support/stop', () => {
  type View = { data: { token: string; token_type: string; expires_at: string; user: { email: string } } };

  it('gives a senior admin a 5-minute token that answers as the school user, until stopped', async () => {
    const admin = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
    const school = await userByEmail(DEMO_ACCOUNTS.schoolAdmin);
    const view = await call<View>(`/api/company/support/view-as/${school.public_id}`, {
      method: 'POST',
      token: admin,
    });
    expect(view.status).toBe(200);
    expect(view.body.data.token_type).toBe('Bearer');
    expect(view.body.data.user.email).toBe(DEMO_ACCOUNTS.schoolAdmin);
    const token = view.body.data.token;
    const me = await call<{ data: { company: { email: string } } }>(GET, { token });
    expect(me.body.data.company.email).toBe(DEMO_ACCOUNTS.schoolAdmin);
    // May not change the user's password.
    const refused = await call<ErrorEnvelope>('/api/company/user/update-password', {
      method: 'PATCH',
      json: {
        current_password: DEMO_PASSWORD,
        password: 'Taken-0ver!',
        password_confirmation: 'Taken-0ver!',
      },
      token,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('This cannot be done in the support view.');
    const stopped = await call('/api/company/support/stop', { method: 'POST', token });
    expect(stopped.status).toBe(200);
    expect((await call(GET, { token })).status).toBe(401);
    expect((await call(GET, { token: admin })).status).toBe(200);
  });

  it('refuses company-family users (403), users it cannot see (404) and callers who are not senior admins (403)', async () => {
    const admin = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
    const finance = await userByEmail(DEMO_ACCOUNTS.finance);
    const company = await call<ErrorEnvelope>(`/api/company/support/view-as/${finance.public_id}`, {
      method: 'POST',
      token: admin,
    });
    expect(company.status).toBe(403);
    expect(company.body.message).toBe('Only school users can be viewed in the support view.');
    expect(
      (await call('/api/company/support/view-as/nosuchuser', { method: 'POST', token: admin })).status,
    ).toBe(404);
    const administrator = await apiToken(DEMO_ACCOUNTS.admin);
    const school = await userByEmail(DEMO_ACCOUNTS.campusEmployee);
    expect(
      (
        await call(`/api/company/support/view-as/${school.public_id}`, {
          method: 'POST',
          token: administrator,
        })
      ).status,
    ).toBe(403);
    expect((await call('/api/company/support/stop', { method: 'POST', token: admin })).status).toBe(409);
  });
});
