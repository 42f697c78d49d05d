/**
 * The shape of an API key: `ep_live_` (or `ep_test_` outside production), 30 random base62 characters
 * (about 178 bits) and 6 base62 characters of the CRC32 of the random part. The prefix lets secret
 * scanners and people recognise a key; the checksum lets a typo or a made-up string be refused without
 * reading the database. Only the key's SHA-256 is stored (high entropy: no slow hash needed).
 */
import { randomBytes, sha256Hex } from '../../platform/crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const API_KEY_PREFIXES = ['ep_live_', 'ep_test_'] as const;
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^ep_(live|test)_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/;

let crcTable: Uint32Array | null = null;
/** CRC-32 (IEEE 802.3), as zlib computes it. */
export function crc32(text: string): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) crc = crcTable[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function base62(value: number, length: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < length; i++) {
    out = BASE62[v % 62] + out;
    v = Math.floor(v / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    // 248 = 4 * 62: bytes at or above it are dropped, so every character is equally likely.
    for (const b of randomBytes(length * 2)) if (b < 248 && out.length < length) out += BASE62[b % 62];
  }
  return out;
}

/** A new key: the text shown once, and what is stored. */
export async function newApiKey(live: boolean): Promise<{ key: string; hash: string; hint: string }> {
  const random = randomBase62(RANDOM_LENGTH);
  const key = `${live ? API_KEY_PREFIXES[0] : API_KEY_PREFIXES[1]}${random}${base62(crc32(random), CHECKSUM_LENGTH)}`;
  return { key, hash: await sha256Hex(key), hint: random.slice(0, 4) };
}

/** True when the text has the shape of an API key (a bearer token the API should read as one). */
export function looksLikeApiKey(text: string): boolean {
  return text.startsWith('ep_live_') || text.startsWith('ep_test_');
}

/** True when the text is a well-formed key whose checksum matches. */
export function hasValidChecksum(text: string): boolean {
  const m = KEY_PATTERN.exec(text);
  return !!m && base62(crc32(m[2]), CHECKSUM_LENGTH) === m[3];
}

export const API_KEY_DISPLAY_PREFIX = (live: boolean) => (live ? API_KEY_PREFIXES[0] : API_KEY_PREFIXES[1]);
