const encoder = new TextEncoder();

export function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  // getRandomValues fills at most 65,536 bytes a call.
  for (let i = 0; i < length; i += 65_536) crypto.getRandomValues(bytes.subarray(i, i + 65_536));
  return bytes;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((text.length + 3) % 4);
  const binary = atob(b64);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A random token of 256 bits, URL safe. */
export function randomToken(): string {
  return toBase64Url(randomBytes(32));
}

const PUBLIC_ID_ALPHABET = '0123456789abcdefghijkmnopqrstuvwxyz';
const PUBLIC_ID_LENGTH = 14;

/** A short opaque public id for URLs and the API (about 71 bits). */
export function publicId(): string {
  return publicIds(1)[0];
}

/** `count` public ids from one draw of random bytes (a 5000-row import makes 5000). */
export function publicIds(count: number): string[] {
  const bytes = randomBytes(count * PUBLIC_ID_LENGTH);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let id = '';
    for (let k = i * PUBLIC_ID_LENGTH; k < (i + 1) * PUBLIC_ID_LENGTH; k++)
      id += PUBLIC_ID_ALPHABET[bytes[k] % PUBLIC_ID_ALPHABET.length];
    out.push(id);
  }
  return out;
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
}

export async function hmacSha256(secret: string, message: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(message)));
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ab = encoder.encode(a);
  const bb = encoder.encode(b);
  let diff = ab.length ^ bb.length;
  const len = Math.max(ab.length, bb.length);
  for (let i = 0; i < len; i++) diff |= (ab[i] ?? 0) ^ (bb[i] ?? 0);
  return diff === 0;
}

/** A uniformly random string of decimal digits (rejection sampling, no modulo bias). */
export function randomDigits(length: number): string {
  let out = '';
  while (out.length < length) {
    const [b] = randomBytes(1);
    if (b < 250) out += String(b % 10);
  }
  return out;
}
