import { beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_PARAMS,
  hashPassword,
  hashPasswordsWith,
  needsRehash,
  parseHash,
  verifyPassword,
} from '../../workers/platform/auth/password';

// The suite hashes at a low cost (tests/setup.ts, again before each file); this file checks the deployed one.
beforeAll(() => hashPasswordsWith(PASSWORD_PARAMS));

describe('password hashing', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('Correct-Horse-9');
    expect(await verifyPassword('Correct-Horse-9', hash)).toBe(true);
    expect(await verifyPassword('correct-horse-9', hash)).toBe(false);
  });

  it('stores its parameters in the hash and salts every hash differently', async () => {
    const a = await hashPassword('Same-Passw0rd!');
    const b = await hashPassword('Same-Passw0rd!');
    expect(a).not.toBe(b);
    expect(parseHash(a)).toMatchObject({ N: PASSWORD_PARAMS.N, r: PASSWORD_PARAMS.r, p: PASSWORD_PARAMS.p });
  });

  it('keeps parameters that deployed Workers accept and OWASP recommends', () => {
    // Deployed Workers have 128 MB of memory; scrypt needs 128 * N * r bytes.
    const memoryBytes = 128 * PASSWORD_PARAMS.N * PASSWORD_PARAMS.r;
    expect(memoryBytes).toBeLessThanOrEqual(64 * 1024 * 1024);
    // OWASP: N=2^15, r=8, p=3 or stronger (work ~ N * r * p).
    expect(PASSWORD_PARAMS.N * PASSWORD_PARAMS.r * PASSWORD_PARAMS.p).toBeGreaterThanOrEqual(2 ** 15 * 8 * 3);
    expect(PASSWORD_PARAMS.saltLength).toBeGreaterThanOrEqual(16);
  });

  it('asks to rehash hashes made with weaker parameters', () => {
    expect(needsRehash('scrypt$16384$8$1$c2FsdA$a2V5')).toBe(true);
    expect(needsRehash('scrypt$32768$8$3$c2FsdA$a2V5')).toBe(false);
    expect(needsRehash('pbkdf2$1000$x$y')).toBe(true);
  });

  it('refuses a missing hash without throwing', async () => {
    expect(await verifyPassword('anything', null)).toBe(false);
  });
});
