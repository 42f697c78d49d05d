import { scrypt } from 'node:crypto';
import { constantTimeEqual, fromBase64Url, randomBytes, toBase64Url } from '../crypto';

/**
 * Password hashing with scrypt (node:crypto under nodejs_compat, which deployed Workers run).
 * PBKDF2 is not used: deployed Workers refuse it above 100,000 iterations, below current advice.
 * The parameters are stored inside each hash (`scrypt$N$r$p$salt$hash`) so they can be raised later;
 * a hash made with weaker parameters is rehashed at the next sign-in (see `needsRehash`).
 * N=2^15, r=8, p=3 is one of OWASP's recommended scrypt settings and needs 32 MiB, well within a
 * Worker's 128 MB.
 */
export const PASSWORD_PARAMS = { N: 2 ** 15, r: 8, p: 3, keyLength: 32, saltLength: 16 } as const;

type PasswordParams = { [K in keyof typeof PASSWORD_PARAMS]: number };

/** The parameters new hashes are made with, and that an older hash is rehashed to: PASSWORD_PARAMS. */
let current: PasswordParams = PASSWORD_PARAMS;

/**
 * Makes new hashes with other parameters. Only the unit tests call it (tests/setup.ts), with a low cost:
 * they sign in thousands of times to test what a sign-in does, not what scrypt costs, which
 * tests/domain/passwords.test.ts checks at PASSWORD_PARAMS. As bcrypt's cost in other frameworks' tests.
 */
export function hashPasswordsWith(params: PasswordParams): void {
  current = params;
}

function derive(password: string, salt: Uint8Array, N: number, r: number, p: number, keyLength: number) {
  return new Promise<Uint8Array>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem: 256 * N * r }, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key)),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p, keyLength, saltLength } = current;
  const salt = randomBytes(saltLength);
  const key = await derive(password, salt, N, r, p, keyLength);
  return `scrypt$${N}$${r}$${p}$${toBase64Url(salt)}$${toBase64Url(key)}`;
}

export function parseHash(hash: string) {
  const [algo, n, r, p, salt, key] = hash.split('$');
  if (algo !== 'scrypt' || !salt || !key) return null;
  return { N: Number(n), r: Number(r), p: Number(p), salt: fromBase64Url(salt), key: fromBase64Url(key) };
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  // Without a stored hash, still spend the same time so the answer does not reveal whether the account exists.
  const parsed = hash ? parseHash(hash) : null;
  if (!parsed) {
    await derive(
      password,
      randomBytes(current.saltLength),
      current.N,
      current.r,
      current.p,
      current.keyLength,
    );
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.N, parsed.r, parsed.p, parsed.key.length);
  return constantTimeEqual(toBase64Url(key), toBase64Url(parsed.key));
}

export function needsRehash(hash: string): boolean {
  const parsed = parseHash(hash);
  if (!parsed) return true;
  return parsed.N < current.N || parsed.r < current.r || parsed.p < current.p;
}
