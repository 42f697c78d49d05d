import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { contactMessages, outbox } from '../../drizzle/schema';
import { DEMO_PASSWORD, buildUser } from '../../drizzle/seed/builders';
import { SIGN_IN_LIMITS } from '../../workers/domain/auth/service';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import {
  DEMO_ACCOUNTS,
  db,
  lastPinFor,
  otherPin,
  seedUk,
  uniqueIp,
  userByEmail,
  SETUP_TIMEOUT_MS,
} from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Profile = {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  companies: { id: string; name: string; country_id: number | null }[];
  roles: { name: string; slug: string; permissions: { name: string }[] }[];
};

const SIGN_IN = '/api/company/auth/sign-in';
const GET = '/api/company/auth/get';

let people = 0;
/** A user of one test alone, for calls that change a password or end sessions. */
async function freshUser(extra: { phoneCountry?: string; phoneNumber?: string; roles?: string[] } = {}) {
  people += 1;
  const admin = await userByEmail(DEMO_ACCOUNTS.admin);
  const [membership] = await db().query.userCompanies.findMany({
    where: (t, o) => o.eq(t.user_id, admin.id),
  });
  return buildUser(db(), {
    email: `api-user-${people}@example.test`,
    first_name: 'Api',
    last_name: 'User',
    roles: extra.roles ?? ['finance'],
    companyIds: [membership.company_id],
    phoneCountry: extra.phoneCountry,
    phoneNumber: extra.phoneNumber,
  });
}

/** A bad request answers a 4xx with the spec's envelope, and names the field with the spec's text. */
function expectFieldError(
  answer: { status: number; body: unknown },
  key: string,
  message: string,
  status = 422,
) {
  expect(answer.status).toBe(status);
  const body = answer.body as ErrorEnvelope;
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors).toContainEqual({ key, message });
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('POST company/auth/sign-in', () => {
  it('answers 202 pin_required to email and password, then a bearer token with the company data to the PIN', async () => {
    const ip = uniqueIp();
    const first = await call(SIGN_IN, {
      ...post({ email: DEMO_ACCOUNTS.seniorAdmin, password: DEMO_PASSWORD }),
      ip,
    });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({
      data: { pin_required: true },
      message: 'A one time pin has been sent to your email address.',
    });

    const pin = await lastPinFor(DEMO_ACCOUNTS.seniorAdmin);
    const second = await call<{ data: { token: string; token_type: string; company: Profile } }>(SIGN_IN, {
      ...post({ email: DEMO_ACCOUNTS.seniorAdmin, password: DEMO_PASSWORD, pin }),
      ip,
    });
    expect(second.status).toBe(200);
    expect(second.body.data.token_type).toBe('Bearer');
    expect(second.body.data.token.length).toBeGreaterThanOrEqual(40);
    expect(second.body.data.company.email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    expect(second.body.data.company.companies.map((c) => c.name)).toEqual([
      'Albion Student Insurance Ltd',
      'Britannia Travel Cover Ltd',
    ]);

    // The PIN was spent.
    const again = await call(SIGN_IN, {
      ...post({ email: DEMO_ACCOUNTS.seniorAdmin, password: DEMO_PASSWORD, pin }),
      ip,
    });
    expectFieldError(again, 'pin', 'The one time pin is incorrect.');
  });

  it('refuses missing fields with the spec’s messages, one per field', async () => {
    const answer = await call(SIGN_IN, post({}));
    expectFieldError(answer, 'email', 'Email address is required.');
    expectFieldError(answer, 'password', 'This field is required');
    // An empty field is missing, not also invalid.
    expect((answer.body as ErrorEnvelope).errors).toHaveLength(2);
    const emptyPin = await call(
      SIGN_IN,
      post({ email: DEMO_ACCOUNTS.finance, password: DEMO_PASSWORD, pin: '' }),
    );
    expect((emptyPin.body as ErrorEnvelope).errors).toEqual([
      { key: 'pin', message: 'One time pin is required.' },
    ]);
  });

  it('refuses an invalid email with "Invalid email address provided."', async () => {
    expectFieldError(
      await call(SIGN_IN, post({ email: 'not-an-email', password: DEMO_PASSWORD })),
      'email',
      'Invalid email address provided.',
    );
    expectFieldError(
      await call(SIGN_IN, post({ email: `${'a'.repeat(65)}@demo.test`, password: DEMO_PASSWORD })),
      'email',
      'E-mail is too long.',
    );
  });

  it('refuses a PIN that is not 6 digits with "One time pin must be 6 digits."', async () => {
    for (const pin of ['12345', '1234567', '12a456']) {
      expectFieldError(
        await call(SIGN_IN, post({ email: DEMO_ACCOUNTS.finance, password: DEMO_PASSWORD, pin })),
        'pin',
        'One time pin must be 6 digits.',
      );
    }
  });

  it('refuses a wrong password and an unknown account with the same message', async () => {
    const wrong = await call(SIGN_IN, post({ email: DEMO_ACCOUNTS.finance, password: 'Wrong-Passw0rd!' }));
    const unknown = await call(SIGN_IN, post({ email: 'nobody@demo.test', password: DEMO_PASSWORD }));
    for (const answer of [wrong, unknown]) {
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({
        message: 'These credentials do not match our records.',
        errors: [{ key: 'password', message: 'These credentials do not match our records.' }],
      });
    }
  });

  it('refuses a wrong PIN with "The one time pin is incorrect."', async () => {
    const user = await freshUser();
    const ip = uniqueIp();
    await call(SIGN_IN, { ...post({ email: user.email, password: DEMO_PASSWORD }), ip });
    const pin = await lastPinFor(user.email);
    expectFieldError(
      await call(SIGN_IN, {
        ...post({ email: user.email, password: DEMO_PASSWORD, pin: otherPin(pin) }),
        ip,
      }),
      'pin',
      'The one time pin is incorrect.',
    );
  });

  it('answers 429 with retry-after to the 6th attempt on one account', async () => {
    const user = await freshUser();
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect((await call(SIGN_IN, post({ email: user.email, password: 'Wrong-Passw0rd!' }))).status).toBe(
        422,
      );
    }
    const sixth = await call(SIGN_IN, post({ email: user.email, password: DEMO_PASSWORD }));
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ message: 'Too many attempts. Please try again later.', errors: [] });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('lets successful sign-ins from one address through; answers 429 to the 31st failure from it', async () => {
    const ip = uniqueIp();
    // Past the address limit in successes: each still answered on its merits (202, PIN sent).
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress + 2; i++) {
      const user = await freshUser();
      expect(
        (await call(SIGN_IN, { ...post({ email: user.email, password: DEMO_PASSWORD }), ip })).status,
      ).toBe(202);
    }
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++) {
      const failed = await call(SIGN_IN, {
        ...post({ email: `nobody-${i}@demo.test`, password: DEMO_PASSWORD }),
        ip,
      });
      expect(failed.status).toBe(422);
    }
    const user = await freshUser();
    const refused = await call(SIGN_IN, { ...post({ email: user.email, password: DEMO_PASSWORD }), ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 300_000);

  it('answers malformed JSON and a body that is not an object with a 4xx envelope, never a 500', async () => {
    const malformed = await call(SIGN_IN, {
      method: 'POST',
      raw: '{"email":',
      contentType: 'application/json',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      message: 'The request body could not be read.',
      errors: [{ key: 'body', message: 'The request body could not be read.' }],
    });
    for (const json of [null, [], 'text', 42]) {
      const answer = await call(SIGN_IN, post(json));
      expect(answer.status, JSON.stringify(json)).toBe(422);
      expect((answer.body as ErrorEnvelope).errors.length).toBeGreaterThan(0);
    }
  });
});

describe('GET company/auth/get and POST company/auth/logout', () => {
  it('answers the current user in data.company: companies with id, name, country_id and roles with permissions', async () => {
    const token = await apiToken(DEMO_ACCOUNTS.finance);
    const answer = await call<{ data: { company: Profile } }>(GET, { token });
    expect(answer.status).toBe(200);
    const profile = answer.body.data.company;
    expect(profile).toMatchObject({
      email: DEMO_ACCOUNTS.finance,
      first_name: 'Fiona',
      last_name: 'Finance',
    });
    expect(profile.companies).toHaveLength(1);
    expect(profile.companies[0]).toMatchObject({ name: 'Albion Student Insurance Ltd' });
    expect(typeof profile.companies[0].country_id).toBe('number');
    expect(profile.roles.map((r) => r.name)).toEqual(['Finance']);
    expect(profile.roles[0].permissions).toContainEqual({ name: 'read_billing' });
    expect(profile.roles[0].permissions).not.toContainEqual({ name: 'read_mi_admin_report' });
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('lists under each role only the permissions of that role', async () => {
    const user = await freshUser({ roles: ['finance', 'external'] });
    const token = await apiToken(user.email);
    const { body } = await call<{ data: { company: Profile } }>(GET, { token });
    const finance = body.data.company.roles.find((r) => r.slug === 'finance')!;
    const external = body.data.company.roles.find((r) => r.slug === 'external')!;
    // read_partner_applicants is an External permission, not a Finance one.
    expect(external.permissions).toContainEqual({ name: 'read_partner_applicants' });
    expect(finance.permissions).not.toContainEqual({ name: 'read_partner_applicants' });
    expect(external.permissions).not.toContainEqual({ name: 'read_billing' });
  });

  it('answers 401 without a token or with an unknown one', async () => {
    for (const token of [null, 'not-a-real-token']) {
      const answer = await call(GET, { token });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ message: 'Unauthenticated.', errors: [] });
    }
  });

  it('logout ends the token on the server: the next call answers 401', async () => {
    const token = await apiToken(DEMO_ACCOUNTS.executive);
    expect((await call(GET, { token })).status).toBe(200);
    const out = await call('/api/company/auth/logout', { method: 'POST', token });
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ data: null, message: 'You have been signed out.' });
    expect((await call(GET, { token })).status).toBe(401);
  });

  it('logout without a session answers 200 and changes nothing', async () => {
    expect((await call('/api/company/auth/logout', { method: 'POST' })).status).toBe(200);
  });
});

describe('POST company/auth/contact-us', () => {
  const message = {
    first_name: 'Pat',
    last_name: 'Visitor',
    email: 'pat.visitor@example.test',
    reason: 'I cannot receive my one time pin.',
  };

  it('stores the message and queues an email to support', async () => {
    const answer = await call('/api/company/auth/contact-us', post(message));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ data: null, message: expect.any(String) });
    const stored = await db().select().from(contactMessages).where(eq(contactMessages.email, message.email));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ first_name: 'Pat', last_name: 'Visitor', reason: message.reason });
    const queued = await db().select().from(outbox).where(eq(outbox.template, 'contact_us'));
    expect(queued).toHaveLength(1);
    expect(queued[0].body_text).toContain(message.reason);
    expect(queued[0].body_text).toContain(message.email);
  });

  it('refuses missing and invalid fields with the spec’s messages', async () => {
    const empty = await call('/api/company/auth/contact-us', post({}));
    expectFieldError(empty, 'first_name', 'This field is required');
    expectFieldError(empty, 'last_name', 'This field is required');
    expectFieldError(empty, 'email', 'Email address is required.');
    expectFieldError(empty, 'reason', 'This field is required');
    const bad = await call(
      '/api/company/auth/contact-us',
      post({ ...message, first_name: 'R2D2', email: 'pat@' }),
    );
    expectFieldError(bad, 'first_name', 'Name has invalid characters');
    expectFieldError(bad, 'email', 'Invalid email address provided.');
  });
});

describe('forgot and reset password', () => {
  it('by email: sends a PIN, verifies it, and resets the password with it', async () => {
    const user = await freshUser();
    const ip = uniqueIp();
    const sent = await call('/api/company/auth/email/forgot-password', {
      ...post({ email: user.email }),
      ip,
    });
    expect(sent.status).toBe(200);
    const pin = await lastPinFor(user.email);

    expectFieldError(
      await call(
        '/api/company/auth/email/forgot-password/verify',
        post({ email: user.email, pin: otherPin(pin) }),
      ),
      'pin',
      'The one time pin is incorrect.',
    );
    const verified = await call(
      '/api/company/auth/email/forgot-password/verify',
      post({ email: user.email, pin }),
    );
    expect(verified).toMatchObject({ status: 200, body: { data: { valid: true } } });

    const reset = await call(
      '/api/company/auth/reset-password',
      post({ email: user.email, pin, password: 'Brand-New-Pa55!', password_confirmation: 'Brand-New-Pa55!' }),
    );
    expect(reset.status).toBe(200);
    const signIn = await call(SIGN_IN, post({ email: user.email, password: 'Brand-New-Pa55!' }));
    expect(signIn.status).toBe(202);
  });

  it('answers the same to an unknown address, and sends nothing', async () => {
    const before = (await db().select().from(outbox)).length;
    const answer = await call('/api/company/auth/email/forgot-password', post({ email: 'ghost@demo.test' }));
    expect(answer.status).toBe(200);
    expect((await db().select().from(outbox)).length).toBe(before);
  });

  it('refuses a bad email, weak passwords and a confirmation that does not match, with the spec’s texts', async () => {
    expectFieldError(
      await call('/api/company/auth/email/forgot-password', post({ email: 'nope' })),
      'email',
      'Invalid email address provided.',
    );
    const base = { email: DEMO_ACCOUNTS.finance, pin: '123456' };
    expectFieldError(
      await call(
        '/api/company/auth/reset-password',
        post({ ...base, password: 'NoSpecial123', password_confirmation: 'NoSpecial123' }),
      ),
      'password',
      'Password must contain at least 1 special character.',
    );
    const weak = await call(
      '/api/company/auth/reset-password',
      post({ ...base, password: 'short', password_confirmation: 'short' }),
    );
    expectFieldError(weak, 'password', 'Password must be at least 8 characters long.');
    expectFieldError(weak, 'password', 'Password must contain at least 1 uppercase letter.');
    expectFieldError(weak, 'password', 'Password must contain at least 1 number.');
    expectFieldError(
      await call(
        '/api/company/auth/reset-password',
        post({ ...base, password: 'Good-Passw0rd!', password_confirmation: 'Good-Passw0rd?' }),
      ),
      'password_confirmation',
      'Passwords do not match',
    );
    expectFieldError(
      await call('/api/company/auth/reset-password', post({ ...base, pin: '' })),
      'pin',
      'One time pin is required.',
    );
  });

  it('refuses a reset with a PIN that was never sent', async () => {
    const user = await freshUser();
    expectFieldError(
      await call(
        '/api/company/auth/reset-password',
        post({
          email: user.email,
          pin: '123456',
          password: 'Good-Passw0rd!',
          password_confirmation: 'Good-Passw0rd!',
        }),
      ),
      'pin',
      'The one time pin is incorrect.',
    );
  });

  it('by phone: sends a PIN by SMS, verifies it, and resets the password with it', async () => {
    const user = await freshUser({ phoneCountry: 'GB', phoneNumber: '7700900123' });
    const phone = { phone_country: 'gb', phone_number: '7700 900123' };
    expect((await call('/api/company/auth/phone/forgot-password', post(phone))).status).toBe(200);
    const pin = await lastPinFor('GB:7700900123');
    const verified = await call('/api/company/auth/phone/forgot-password/verify', post({ ...phone, pin }));
    expect(verified).toMatchObject({ status: 200, body: { data: { valid: true } } });
    const reset = await call(
      '/api/company/auth/reset-password/phone',
      post({ ...phone, pin, password: 'Phone-Reset-9!', password_confirmation: 'Phone-Reset-9!' }),
    );
    expect(reset.status).toBe(200);
    const signIn = await call(SIGN_IN, post({ email: user.email, password: 'Phone-Reset-9!' }));
    expect(signIn.status).toBe(202);
  });

  it('refuses an empty phone number or country with one "required" message each', async () => {
    const answer = await call(
      '/api/company/auth/phone/forgot-password',
      post({ phone_country: '', phone_number: '' }),
    );
    expect((answer.body as ErrorEnvelope).errors).toEqual([
      { key: 'phone_country', message: 'This field is required' },
      { key: 'phone_number', message: 'This field is required' },
    ]);
  });

  it('refuses a bad phone number or phone country with the spec’s texts', async () => {
    expectFieldError(
      await call(
        '/api/company/auth/phone/forgot-password',
        post({ phone_country: 'GB', phone_number: '77a0' }),
      ),
      'phone_number',
      'Value must be digit',
    );
    expectFieldError(
      await call(
        '/api/company/auth/phone/forgot-password',
        post({ phone_country: 'G', phone_number: '7700900123' }),
      ),
      'phone_country',
      'Dial code not found.',
    );
    expectFieldError(
      await call(
        '/api/company/auth/phone/forgot-password',
        post({ phone_country: 'GB', phone_number: '12' }),
      ),
      'phone_number',
      'Minimum of "3" characters required',
    );
    expectFieldError(
      await call(
        '/api/company/auth/phone/forgot-password/verify',
        post({ phone_country: 'GB', phone_number: '7700900123', pin: '12' }),
      ),
      'pin',
      'One time pin must be 6 digits.',
    );
    expectFieldError(
      await call(
        '/api/company/auth/reset-password/phone',
        post({
          phone_country: 'GB',
          phone_number: '7700900123',
          pin: '123456',
          password: 'Good-Passw0rd!',
          password_confirmation: 'Good-Passw0rd',
        }),
      ),
      'password_confirmation',
      'Passwords do not match',
    );
  });
});

describe('PATCH company/user/update-password', () => {
  it('changes the password, keeps this token and ends the user’s other tokens', async () => {
    const user = await freshUser();
    const current = await apiToken(user.email);
    const other = await apiToken(user.email);
    const answer = await call('/api/company/user/update-password', {
      ...patch({
        current_password: DEMO_PASSWORD,
        password: 'Updated-Pa55!',
        password_confirmation: 'Updated-Pa55!',
      }),
      token: current,
    });
    expect(answer.status).toBe(200);
    expect((await call(GET, { token: current })).status).toBe(200);
    expect((await call(GET, { token: other })).status).toBe(401);
  });

  it('refuses a wrong current password and bad new ones; needs a token', async () => {
    const token = await apiToken(DEMO_ACCOUNTS.accountManager);
    expectFieldError(
      await call('/api/company/user/update-password', {
        ...patch({
          current_password: 'Wrong-Pa55!',
          password: 'Updated-Pa55!',
          password_confirmation: 'Updated-Pa55!',
        }),
        token,
      }),
      'current_password',
      'The current password is incorrect.',
    );
    expectFieldError(
      await call('/api/company/user/update-password', {
        ...patch({
          current_password: DEMO_PASSWORD,
          password: 'Updated-Pa55!',
          password_confirmation: 'other',
        }),
        token,
      }),
      'password_confirmation',
      'Passwords do not match',
    );
    const anonymous = await call(
      '/api/company/user/update-password',
      patch({
        current_password: DEMO_PASSWORD,
        password: 'Updated-Pa55!',
        password_confirmation: 'Updated-Pa55!',
      }),
    );
    expect(anonymous.status).toBe(401);
  });
});

describe('PATCH company/users/company/{id}/update-profile', () => {
  it('updates the caller’s own names and landing page; refuses bad input and another user’s id', async () => {
    const user = await freshUser();
    const token = await apiToken(user.email);
    const path = `/api/company/users/company/${user.public_id}/update-profile`;
    const updated = await call<{ data: { user: Profile & { landing_page: string } } }>(path, {
      ...patch({ first_name: 'Renamed', last_name: 'Person', landing_page: 'clients' }),
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.user).toMatchObject({ first_name: 'Renamed', landing_page: 'clients' });
    const bad = await call(path, {
      ...patch({ first_name: 'R2', last_name: '', landing_page: 'nowhere' }),
      token,
    });
    expectFieldError(bad, 'first_name', 'Name has invalid characters');
    expectFieldError(bad, 'last_name', 'This field is required');
    const finance = await userByEmail(DEMO_ACCOUNTS.finance);
    const notMine = await call(`/api/company/users/company/${finance.public_id}/update-profile`, {
      ...patch({ first_name: 'Hacked', last_name: 'Name', landing_page: 'clients' }),
      token,
    });
    expect(notMine.status).toBe(404);
    expect((await userByEmail(DEMO_ACCOUNTS.finance)).first_name).toBe('Fiona');
  });
});

describe('verification status', () => {
  it('answers whether an email or phone has been verified, and refuses bad input', async () => {
    const known = await call(`/api/company/auth/verification-status/email?email=${DEMO_ACCOUNTS.finance}`, {
      method: 'GET',
    });
    expect(known).toMatchObject({ status: 200, body: { data: { verified: true } } });
    const unknown = await call('/api/company/auth/verification-status/email?email=ghost@demo.test', {
      method: 'GET',
    });
    expect(unknown).toMatchObject({ status: 200, body: { data: { verified: false } } });
    expectFieldError(
      await call('/api/company/auth/verification-status/email?email=nope', { method: 'GET' }),
      'email',
      'Invalid email address provided.',
    );
    const phone = await call(
      '/api/company/auth/verification-status/phone?country_code=GB&phone_number=7700900999',
      {
        method: 'GET',
      },
    );
    expect(phone).toMatchObject({ status: 200, body: { data: { verified: false } } });
    expectFieldError(
      await call('/api/company/auth/verification-status/phone?country_code=GB', { method: 'GET' }),
      'phone_number',
      'This field is required',
    );
  });
});

function post(json: unknown) {
  return { method: 'POST', json };
}

function patch(json: unknown) {
  return { method: 'PATCH', json };
}
