/**
 * The two regions' cookies never collide. Run side by side on one machine (localhost:8787 and :8788),
 * both portals' cookies reach both, since cookies do not tell ports apart: each region's names start with
 * the region, and a portal reads only its own. Deployed, each region is a host of its own and the names
 * are the spec's (`__Host-` bound to the host; the language cookie `i18n_redirected`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { env, SELF } from 'cloudflare:test';
import { createSession } from '../../workers/domain/auth/sessions';
import { COOKIE_MAX_AGE, cookieName, type CookieName } from '../../workers/web/cookies';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, db, seedUk, userByEmail } from '../support/world';

const ALL = Object.keys(COOKIE_MAX_AGE) as CookieName[];
const local = (REGION: 'uk' | 'ie', port: number) => ({ REGION, PUBLIC_URL: `http://localhost:${port}` });

/** The names of the cookies a response sets. */
const setNames = (res: Response) => res.headers.getSetCookie().map((line) => line.split('=')[0]);

describe('cookie names per region', () => {
  it('gives every cookie of each region its own name on one local host, and the spec’s names deployed', () => {
    expect(ALL).toEqual(
      expect.arrayContaining(['sid', 'csrf', 'i18n_redirected', 'pin', 'toast', 'view_as']),
    );
    const uk = ALL.map((n) => cookieName(local('uk', 8787), n));
    const ie = ALL.map((n) => cookieName(local('ie', 8788), n));
    expect(new Set([...uk, ...ie]).size).toBe(ALL.length * 2);
    expect(uk.every((n) => n.startsWith('uk_'))).toBe(true);
    expect(ie.every((n) => n.startsWith('ie_'))).toBe(true);
    for (const REGION of ['uk', 'ie'] as const) {
      const deployed = { REGION, PUBLIC_URL: `https://${REGION}.portal.example` };
      expect(cookieName(deployed, 'sid')).toBe('__Host-sid');
      expect(cookieName(deployed, 'csrf')).toBe('__Host-csrf');
      expect(cookieName(deployed, 'i18n_redirected')).toBe('i18n_redirected');
    }
  });
});

describe('a portal reads only its own region’s cookies', () => {
  let token: string;
  beforeAll(async () => {
    await seedUk();
    const user = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    ({ token } = await createSession(db(), {
      userId: user.id,
      kind: 'web',
      stage: 'active',
      now: new Date(),
    }));
  }, SETUP_TIMEOUT_MS);

  const home = (cookie: string) =>
    SELF.fetch('http://localhost:8787/home', { headers: { cookie }, redirect: 'manual' });

  it('sets the UK’s names (the tests’ Worker is the UK one over local http)', async () => {
    expect(env.REGION).toBe('uk');
    const res = await SELF.fetch('http://localhost:8787/auth/login');
    expect(res.status).toBe(200);
    expect(setNames(res)).toContain('uk_csrf');
    expect(setNames(res)).not.toContain('csrf');
  });

  it('keeps its session beside Ireland’s cookies, and takes no session from an Irish cookie', async () => {
    // Both portals' cookies, as a browser sends them to localhost whatever the port.
    const both = await home(`ie_sid=irish-session-token; ie_csrf=irish; uk_sid=${token}`);
    expect(both.status).toBe(200);
    expect(setNames(both)).not.toContain('ie_sid');
    // The UK session under Ireland's name (or the old shared name) signs nobody in here.
    for (const cookie of [`ie_sid=${token}`, `sid=${token}`]) {
      const res = await home(cookie);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toMatch(/\/auth\/login/);
    }
  });
});
