import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiToken, call } from '../support/api';
import { DEMO_ACCOUNTS, seedUk, SETUP_TIMEOUT_MS } from '../support/world';
import { SECURITY_HEADERS } from '../../workers/http';
import { newCspNonce, pageCsp } from '../../workers/web/csp';
import staticHeaders from '../../public/_headers?raw';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const MAINTENANCE_MESSAGE = 'Service is currently under maintenance. Please try again later.';

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('the API front door', () => {
  it('answers an unknown /api path with the 404 envelope', async () => {
    for (const [method, path] of [
      ['GET', '/api/company/does-not-exist'],
      ['POST', '/api/nothing/here'],
      ['GET', '/api/company/auth/sign-in'],
      ['DELETE', '/api/company/auth/get'],
    ]) {
      const answer = await call(path, { method });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body, `${method} ${path}`).toEqual({ message: 'Not found', errors: [] });
    }
  });

  it('sets the security headers and a request id on every answer', async () => {
    const answer = await call('/api/company/auth/get');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('x-request-id')).toBeTruthy();
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('gives static files (public/_headers) the same security headers as its own answers', () => {
    const block = staticHeaders
      .split(/\r?\n(?=\S)/)
      .find((b) => b.startsWith('/*\n') || b.startsWith('/*\r'));
    expect(block, 'a /* rule in public/_headers').toBeTruthy();
    const headers = Object.fromEntries(
      block!
        .split(/\r?\n/)
        .slice(1)
        .filter((line) => /^\s+\S/.test(line))
        .map((line) => {
          const [name, ...value] = line.trim().split(':');
          return [name.toLowerCase(), value.join(':').trim()];
        }),
    );
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
    expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
  });
});

describe('the page Content-Security-Policy', () => {
  const directives = (csp: string) =>
    Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([k, ...v]) => [k, v]),
    );

  it("runs scripts only from the portal or with the page's nonce, never inline without it", () => {
    const csp = directives(
      pageCsp('abc123', { EPDQ_URL: '/dev/epdq/x.asp', PUBLIC_URL: 'http://localhost:8787' }),
    );
    expect(csp['script-src']).toEqual(["'self'", "'nonce-abc123'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
    expect(newCspNonce()).not.toBe(newCspNonce());
  });

  it("lets forms post only to the portal, the other region (the hand-over's redirect) and the card provider's page", () => {
    const csp = directives(
      pageCsp('n', {
        EPDQ_URL: 'https://payments.epdq.co.uk/ncol/prod/orderstandard_utf8.asp',
        PUBLIC_URL: 'https://portal.example',
        OTHER_REGION_URL: 'https://ie.portal.example/',
      }),
    );
    expect(csp['form-action']).toEqual([
      "'self'",
      'https://ie.portal.example',
      'https://payments.epdq.co.uk',
    ]);
  });
});

describe('GET company/jobs/{id}', () => {
  it('answers 401 without a token and 404 for a job that is not the caller’s', async () => {
    expect((await call('/api/company/jobs/abc')).status).toBe(401);
    const token = await apiToken(DEMO_ACCOUNTS.admin);
    const answer = await call('/api/company/jobs/no-such-job', { token });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ message: 'Not found', errors: [] });
  });
});

describe('maintenance switch', () => {
  it('answers every /api call 503 with the spec’s message while MAINTENANCE is "1"', async () => {
    const token = await apiToken(DEMO_ACCOUNTS.finance);
    const env = { MAINTENANCE: '1' };
    for (const [method, path, json] of [
      ['POST', '/api/company/auth/sign-in', { email: DEMO_ACCOUNTS.finance, password: 'x' }],
      ['GET', '/api/company/auth/get', undefined],
      ['GET', '/api/company/notifications/list', undefined],
      ['POST', '/api/company/auth/contact-us', {}],
      ['GET', '/api/unknown', undefined],
    ] as const) {
      const answer = await call(path, { method, json, token, env });
      expect(answer.status, path).toBe(503);
      expect(answer.body, path).toEqual({ message: MAINTENANCE_MESSAGE, errors: [] });
    }
    // The same token works again once the switch is off.
    expect((await call('/api/company/auth/get', { token })).status).toBe(200);
  });

  it('answers pages 503 with the maintenance page', async () => {
    const answer = await call('/insureds', { env: { MAINTENANCE: '1' } });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('600');
    // An HTML page of the Worker's own carries a policy too: no script may run in it.
    expect(answer.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(String(answer.body)).toContain(
      'Our website is currently undergoing scheduled maintenance. Please check back later.',
    );
  });
});
