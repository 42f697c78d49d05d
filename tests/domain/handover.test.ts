import { beforeAll, describe, expect, it } from 'vitest';
import {
  HANDOVER_LIFETIME_MS,
  acceptHandover,
  createHandoverUrl,
  safePath,
} from '../../workers/domain/auth/handover';
import { resolveActor } from '../../workers/domain/auth/sessions';
import { Forbidden, Unauthenticated } from '../../workers/domain/errors';
import type { Env } from '../../workers/env';
import { fromBase64Url, toBase64Url } from '../../workers/platform/crypto';
import { DEMO_ACCOUNTS, actorFor, ctx, db, seedUk, testEnv, SETUP_TIMEOUT_MS } from '../support/world';

/** This test file's Worker is the UK one; the Irish Worker is the same code with the other region's vars. */
const IRELAND = (): Env => ({
  ...testEnv(),
  REGION: 'ie',
  OTHER_REGION_URL: 'http://localhost:8787',
  PUBLIC_URL: 'http://localhost:8788',
});

const T0 = new Date('2026-04-01T09:00:00Z');

/** A hand-over link made in Ireland for the senior admin, pointing at this (UK) Worker. */
async function linkFromIreland(path = '/clients', now = T0) {
  const actor = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
  const url = new URL(await createHandoverUrl(ctx({ env: IRELAND(), actor, now }), path));
  return { url, token: url.searchParams.get('otherUserToken')!, jti: url.pathname.split('/').pop()! };
}

function claimsOf(token: string) {
  return JSON.parse(new TextDecoder().decode(fromBase64Url(token.split('.')[0])));
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the hand-over to be refused');
}

beforeAll(async () => {
  await seedUk();
}, SETUP_TIMEOUT_MS);

describe('region hand-over links', () => {
  it('are only made for a user holding a token for the other region', async () => {
    const admin = await actorFor(DEMO_ACCOUNTS.admin);
    expect(admin.holds_other_region_token).toBe(false);
    await expect(createHandoverUrl(ctx({ actor: admin }), '/clients')).rejects.toBeInstanceOf(Forbidden);
    await expect(createHandoverUrl(ctx(), '/clients')).rejects.toBeInstanceOf(Unauthenticated);
  });

  it('point at the other region’s /auth/token/{jti} with otherUserToken and path', async () => {
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    const url = new URL(await createHandoverUrl(ctx({ actor: senior, now: T0 }), '/clients/{id}'));
    expect(url.origin).toBe(testEnv().OTHER_REGION_URL);
    const [, auth, tokenSegment, jti] = url.pathname.split('/');
    expect([auth, tokenSegment]).toEqual(['auth', 'token']);
    expect(url.searchParams.get('path')).toBe('/clients/{id}');
    const claims = claimsOf(url.searchParams.get('otherUserToken')!);
    expect(claims).toEqual({
      email: DEMO_ACCOUNTS.seniorAdmin,
      region: 'ie',
      exp: T0.getTime() + HANDOVER_LIFETIME_MS,
      jti,
    });
    expect(HANDOVER_LIFETIME_MS).toBeLessThanOrEqual(60_000);
  });

  it('carry only a local path: anything else becomes /home', () => {
    expect(safePath('/insureds?page=2')).toBe('/insureds?page=2');
    // Browsers read a backslash as a slash and drop tabs and line breaks, so each of these leads off-site.
    for (const bad of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r/evil.example',
      'insureds',
      '',
      null,
    ]) {
      expect(safePath(bad), String(bad)).toBe('/home');
    }
  });
});

describe('accepting a hand-over', () => {
  it('signs the user in once; the same token a second time is refused', async () => {
    const { token, jti } = await linkFromIreland();
    const now = new Date(T0.getTime() + 5_000);
    const signedIn = await acceptHandover(ctx({ now }), { token, jti });
    expect(signedIn.actor.email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    expect(signedIn.actor.holds_other_region_token).toBe(true);
    const resolved = await resolveActor(db(), signedIn.token, now);
    expect(resolved?.session.holds_other_region_token).toBe(true);

    expect(await refusal(acceptHandover(ctx({ now }), { token, jti }))).toBeInstanceOf(Unauthenticated);
  });

  it('refuses a token made for the other region', async () => {
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    // Made here in the UK, so it names Ireland.
    const url = new URL(await createHandoverUrl(ctx({ actor: senior, now: T0 }), '/clients'));
    const token = url.searchParams.get('otherUserToken')!;
    const error = await refusal(acceptHandover(ctx({ now: T0 }), { token }));
    expect(error).toBeInstanceOf(Unauthenticated);
    expect((error as Error).message).toBe('auth.handover_invalid');
  });

  it('refuses an expired token', async () => {
    const { token, jti } = await linkFromIreland();
    const late = new Date(T0.getTime() + HANDOVER_LIFETIME_MS);
    expect(await refusal(acceptHandover(ctx({ now: late }), { token, jti }))).toBeInstanceOf(Unauthenticated);
  });

  it('refuses a token whose claims were changed or whose signature was altered', async () => {
    const { token, jti } = await linkFromIreland();
    const [body, signature] = token.split('.');
    const claims = claimsOf(token);
    const forgedBody = toBase64Url(
      new TextEncoder().encode(JSON.stringify({ ...claims, email: DEMO_ACCOUNTS.admin })),
    );
    const now = new Date(T0.getTime() + 1000);
    const flipped = (signature.startsWith('A') ? 'B' : 'A') + signature.slice(1);
    for (const forged of [`${forgedBody}.${signature}`, `${body}.${flipped}`, body, `${body}.`]) {
      expect(await refusal(acceptHandover(ctx({ now }), { token: forged, jti })), forged).toBeInstanceOf(
        Unauthenticated,
      );
    }
    // The genuine token was not spent by the forgeries.
    await expect(acceptHandover(ctx({ now }), { token, jti })).resolves.toMatchObject({
      actor: { email: DEMO_ACCOUNTS.seniorAdmin },
    });
  });

  it('refuses a token signed with another secret', async () => {
    const actor = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    const env = { ...IRELAND(), HANDOVER_SECRET: 'not-the-shared-secret-0123456789' };
    const url = new URL(await createHandoverUrl(ctx({ env, actor, now: T0 }), '/clients'));
    const token = url.searchParams.get('otherUserToken')!;
    expect(await refusal(acceptHandover(ctx({ now: T0 }), { token }))).toBeInstanceOf(Unauthenticated);
  });

  it('refuses a token presented under another jti in the path', async () => {
    const { token } = await linkFromIreland();
    const other = await linkFromIreland();
    expect(await refusal(acceptHandover(ctx({ now: T0 }), { token, jti: other.jti }))).toBeInstanceOf(
      Unauthenticated,
    );
  });
});
