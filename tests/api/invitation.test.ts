import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { invitations, users } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { createInvitation } from '../../workers/domain/auth/service';
import { call, type ErrorEnvelope } from '../support/api';
import { ctx, db, lastPinFor, otherPin, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const HEADER = 'x-invitation-token';
const PHONE = { phone_country: 'GB', phone_number: '7700900456' };

let invitees = 0;
/** A user in status "invited" without a password, and the token of their invitation link. */
async function invitedUser() {
  invitees += 1;
  const user = await buildUser(db(), {
    email: `invitee-${invitees}@example.test`,
    first_name: 'Ivy',
    last_name: 'Invitee',
    roles: ['administrator'],
    status: 'invited',
    password: null,
  });
  const token = await createInvitation(ctx(), user.id);
  return { user, token };
}

function post(path: string, json: unknown, token?: string) {
  return call(`/api/company/auth/${path}`, {
    method: 'POST',
    json,
    headers: token === undefined ? {} : { [HEADER]: token },
  });
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('invitation calls', () => {
  const calls: [string, unknown][] = [
    ['email-verification/send', { email: 'invitee@example.test' }],
    ['email-validate-pin/verify', { email: 'invitee@example.test', pin: '123456' }],
    ['profile-password/set', { password: 'Invited-Pa55!', password_confirmation: 'Invited-Pa55!' }],
    ['phone-number/send', PHONE],
    ['phone-number/set', PHONE],
    ['phone-number/send-new-verification-pin', PHONE],
    ['phone-validate-pin/verify', { ...PHONE, pin: '123456' }],
  ];

  it('answer 401 without the x-invitation-token header', async () => {
    for (const [path, json] of calls) {
      const answer = await post(path, json);
      expect(answer.status, path).toBe(401);
      expect(answer.body, path).toEqual({ message: 'This invitation is no longer valid.', errors: [] });
    }
  });

  it('answer 404 to a token that is not an open invitation', async () => {
    for (const [path, json] of calls) {
      const answer = await post(path, json, 'made-up-token');
      expect(answer.status, path).toBe(404);
      expect((answer.body as ErrorEnvelope).message, path).toBe('This invitation is no longer valid.');
    }
  });

  it('answer 404 to an expired invitation', async () => {
    const { user, token } = await invitedUser();
    await db()
      .update(invitations)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(invitations.user_id, user.id));
    const answer = await post(
      'profile-password/set',
      { password: 'Invited-Pa55!', password_confirmation: 'Invited-Pa55!' },
      token,
    );
    expect(answer.status).toBe(404);
  });

  it('validate their input with the spec’s messages', async () => {
    const { token } = await invitedUser();
    const weak = await post(
      'profile-password/set',
      { password: 'invited1', password_confirmation: 'invited1' },
      token,
    );
    expect(weak.status).toBe(422);
    expect((weak.body as ErrorEnvelope).errors).toEqual(
      expect.arrayContaining([
        { key: 'password', message: 'Password must contain at least 1 uppercase letter.' },
        { key: 'password', message: 'Password must contain at least 1 special character.' },
      ]),
    );
    const mismatch = await post(
      'profile-password/set',
      { password: 'Invited-Pa55!', password_confirmation: 'Invited-Pa55?' },
      token,
    );
    expect((mismatch.body as ErrorEnvelope).errors).toEqual([
      { key: 'password_confirmation', message: 'Passwords do not match' },
    ]);
    const badPin = await post(
      'email-validate-pin/verify',
      { email: 'invitee@example.test', pin: '12' },
      token,
    );
    expect((badPin.body as ErrorEnvelope).errors).toEqual([
      { key: 'pin', message: 'One time pin must be 6 digits.' },
    ]);
    const badPhone = await post('phone-number/send', { phone_country: 'GBR', phone_number: '77009' }, token);
    expect((badPhone.body as ErrorEnvelope).errors).toEqual([
      { key: 'phone_country', message: 'Dial code not found.' },
    ]);
  });

  it('phone-number/set stores the phone and texts a PIN to it; email-verification/send needs a valid email', async () => {
    const { user, token } = await invitedUser();
    const phone = { phone_country: 'gb', phone_number: '7700 900789' };
    expect((await post('phone-number/set', phone, token)).status).toBe(200);
    expect(await lastPinFor('GB:7700900789')).toMatch(/^\d{6}$/);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ phone_country: 'GB', phone_number: '7700900789', phone_verified_at: null });
    const bad = await post('email-verification/send', { email: 'not-an-email' }, token);
    expect(bad.status).toBe(422);
    expect((bad.body as ErrorEnvelope).errors).toEqual([
      { key: 'email', message: 'Invalid email address provided.' },
    ]);
  });

  it('refuse the last step before password, email and phone are done', async () => {
    const { token } = await invitedUser();
    const early = await post('phone-validate-pin/verify', { ...PHONE, pin: '123456' }, token);
    expect(early.status).toBe(422);
    expect((early.body as ErrorEnvelope).errors).toEqual([
      { key: 'pin', message: 'Please complete the previous steps of the invitation first.' },
    ]);
  });

  it('take an invited user through password, email PIN and phone PIN to an active account with a token', async () => {
    const { user, token } = await invitedUser();

    expect(
      (
        await post(
          'profile-password/set',
          { password: 'Invited-Pa55!', password_confirmation: 'Invited-Pa55!' },
          token,
        )
      ).status,
    ).toBe(200);

    expect((await post('email-verification/send', { email: user.email }, token)).status).toBe(200);
    const emailPin = await lastPinFor(user.email);
    expect(
      (await post('email-validate-pin/verify', { email: user.email, pin: otherPin(emailPin) }, token)).status,
    ).toBe(422);
    expect(
      await post('email-validate-pin/verify', { email: user.email, pin: emailPin }, token),
    ).toMatchObject({
      status: 200,
      body: { data: { verified: true } },
    });

    expect((await post('phone-number/send', PHONE, token)).status).toBe(200);
    const firstSmsPin = await lastPinFor('GB:7700900456');
    expect((await post('phone-number/send-new-verification-pin', PHONE, token)).status).toBe(200);
    const smsPin = await lastPinFor('GB:7700900456');
    if (smsPin !== firstSmsPin) {
      // A new PIN replaces the one sent before it.
      expect((await post('phone-validate-pin/verify', { ...PHONE, pin: firstSmsPin }, token)).status).toBe(
        422,
      );
    }

    const done = await post('phone-validate-pin/verify', { ...PHONE, pin: smsPin }, token);
    expect(done.status).toBe(200);
    const data = (
      done.body as { data: { verified: boolean; token: string; token_type: string; user_id: string } }
    ).data;
    expect(data).toMatchObject({ verified: true, token_type: 'Bearer', user_id: user.public_id });

    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after.status).toBe('active');
    expect(after.email_verified_at).not.toBeNull();
    expect(after.phone_verified_at).not.toBeNull();

    const me = await call<{ data: { company: { email: string } } }>('/api/company/auth/get', {
      token: data.token,
    });
    expect(me.status).toBe(200);
    expect(me.body.data.company.email).toBe(user.email);

    // The invitation is spent.
    expect((await post('email-verification/send', { email: user.email }, token)).status).toBe(404);
  });
});
