/**
 * The page kit's two halves (app/lib/loaders.server.ts, app/lib/actions.server.ts), through the built
 * Worker as a browser without JavaScript reaches them: real Remix routes, real sessions and CSRF, the
 * seeded world. A loader maps who may open the page and the domain's refusals in one place; an action
 * never echoes a secret field back, and a toast survives a post without JavaScript.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { products } from '../../drizzle/schema';
import { createSession } from '../../workers/domain/auth/sessions';
import { cookieName } from '../../workers/web/cookies';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, db, userByEmail } from '../support/world';
import { seedContractsWorld } from '../support/contracts';

const ORIGIN = 'http://localhost:8787';
const CSRF = 'page-kit-csrf-token';

async function sessionOf(email: string): Promise<string> {
  const user = await userByEmail(email);
  const { token } = await createSession(db(), {
    userId: user.id,
    kind: 'web',
    stage: 'active',
    now: new Date(),
  });
  return token;
}

function cookies(token: string | null, more: Record<string, string> = {}): string {
  const all: Record<string, string> = { [cookieName(env, 'csrf')]: CSRF, ...more };
  if (token) all[cookieName(env, 'sid')] = token;
  return Object.entries(all)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');
}

const get = (path: string, token: string | null, more?: Record<string, string>) =>
  SELF.fetch(ORIGIN + path, { headers: { cookie: cookies(token, more) }, redirect: 'manual' });

const post = (path: string, token: string | null, fields: Record<string, string>) =>
  SELF.fetch(ORIGIN + path, {
    method: 'POST',
    headers: { cookie: cookies(token), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: CSRF, ...fields }).toString(),
    redirect: 'manual',
  });

/** The value of a cookie a response sets ('' when it clears it), or null when it sets none by that name. */
function setCookie(res: Response, name: string): string | null {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    if (pair.slice(0, at).trim() === name) return decodeURIComponent(pair.slice(at + 1));
  }
  return null;
}

let admin: string;
let school: string;
/** Reads every page and changes nothing. */
let readOnly: string;
let productId: string;

beforeAll(async () => {
  const world = await seedContractsWorld();
  productId = world.product.public_id;
  admin = await sessionOf(DEMO_ACCOUNTS.seniorAdmin);
  school = await sessionOf(DEMO_ACCOUNTS.schoolAdmin);
  readOnly = await sessionOf(DEMO_ACCOUNTS.executive);
}, SETUP_TIMEOUT_MS);

describe('a page loader', () => {
  it('opens the page for a user with the permission', async () => {
    const res = await get(`/products/${productId}`, admin);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('</html>');
  });

  it('sends a signed-out person to the login page, in their language', async () => {
    const res = await get(`/fr/products/${productId}`, null);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/fr/auth/login');
  });

  it('sends a user without the permission home', async () => {
    const res = await get(`/products/${productId}`, school);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/home');
  });

  it('answers a record that does not exist, and an address parameter that does not parse, with the 404 page', async () => {
    expect((await get('/products/no-such-product', admin)).status).toBe(404);
    expect((await get('/products/no-such-product/pricing', admin)).status).toBe(404);
    expect((await get(`/products/${'x'.repeat(41)}`, admin)).status).toBe(404);
  });

  it('reads the list query leniently: a value that does not parse is dropped, not a failure', async () => {
    expect((await get(`/products/${productId}/pricing?period=someday`, admin)).status).toBe(200);
    expect((await get(`/products/${productId}/logs?page=minus-one`, admin)).status).toBe(200);
    expect((await get('/clients?tab=nonsense&status=whatever', admin)).status).toBe(200);
  });

  it('sends an address with empty parameters on to the one with only the filters in use', async () => {
    const sent = await get('/clients?search=&status=&tab=archived&page=', admin);
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('/clients?tab=archived');
    const allEmpty = await get('/de/insureds?last_name=&status=', admin);
    expect(allEmpty.status).toBe(302);
    expect(allEmpty.headers.get('location')).toBe('/de/insureds');
    expect((await get('/clients?tab=archived', admin)).status).toBe(200);
  });

  it('answers an address segment outside its list with the 404 page', async () => {
    expect((await get('/insureds/amend/trip-dates', admin)).status).toBe(200);
    expect((await get('/insureds/amend/sideways', admin)).status).toBe(404);
    expect((await get('/user-privileges/school', admin)).status).toBe(200);
    expect((await get('/user-privileges/company', admin)).status).toBe(404);
  });

  it('opens a guest page to a guest only, and a public page to anyone', async () => {
    expect((await get('/auth/login', null)).status).toBe(200);
    const signedIn = await get('/auth/login', admin);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get('location')).toBe('/home');
    expect((await get('/cookie-notice', null)).status).toBe(200);
    expect((await get('/cookie-notice', admin)).status).toBe(200);
  });
});

describe('a page action', () => {
  it('answers a post about a record that does not exist with the 404 page, and changes nothing', async () => {
    const res = await post('/products/no-such-product/limits?index', admin, {});
    expect(res.status).toBe(404);
  });

  it('refuses an intent the user may not do, and changes nothing', async () => {
    const res = await post(`/products/${productId}`, readOnly, { intent: 'status', status: 'archived' });
    expect(res.status).toBe(403);
    const [row] = await db().select().from(products).where(eq(products.public_id, productId));
    expect(row.status).toBe('active');
  });

  it('never sends a password back in the refused form', async () => {
    const typed = 'Wrong-Current-Passw0rd!';
    const res = await post('/account-details', admin, {
      intent: 'password',
      current_password: typed,
      password: 'Brand-New-Passw0rd!',
      password_confirmation: 'Brand-New-Passw0rd!',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('current_password');
    expect(html).not.toContain(typed);
    expect(html).not.toContain('Brand-New-Passw0rd!');
  });

  it('shows a toast after a post without JavaScript, once', async () => {
    const res = await post(`/products/${productId}`, admin, { intent: 'status', status: 'archived' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/products/${productId}`);
    const toast = setCookie(res, cookieName(env, 'toast'));
    expect(toast).toBeTruthy();
    expect(JSON.parse(toast!).message).toBe('products.messages.archived');

    const page = await get(`/products/${productId}`, admin, {
      [cookieName(env, 'toast')]: encodeURIComponent(toast!),
    });
    expect(page.status).toBe(200);
    expect(setCookie(page, cookieName(env, 'toast'))).toBe('');
    const [row] = await db().select().from(products).where(eq(products.public_id, productId));
    expect(row.status).toBe('archived');
  });

  it('shows a toast that comes with data on the page that carries the data, without JavaScript', async () => {
    const res = await post('/api-keys?index', school, {
      intent: 'generate',
      name: 'Kit partner',
      permissions: 'read_insured',
    });
    expect(res.status).toBe(200);
    // No flash cookie: the next page would say it again, away from the key.
    expect(setCookie(res, cookieName(env, 'toast'))).toBeNull();
    const html = await res.text();
    expect(html).toContain('data-testid="new-api-key"');
    const message = html.slice(html.indexOf('data-testid="flow-toast"'));
    expect(message).toContain('The API key has been generated. Copy it now: it will not be shown again.');
  });

  it("answers the page's scripts in place, the toast in the flash cookie for the data loaded next", async () => {
    // Remix's single fetch posts a form the page's scripts send to the page's address with `.data`.
    const res = await post(`/products/${productId}.data`, admin, { intent: 'status', status: 'active' });
    expect(res.status).toBe(200);
    expect(JSON.parse(setCookie(res, cookieName(env, 'toast'))!).message).toBe('products.messages.activated');
    const [row] = await db().select().from(products).where(eq(products.public_id, productId));
    expect(row.status).toBe('active');
  });
});
