/**
 * Zip archives (an .xlsx, a .docx) read where they lie in memory: the central directory without
 * inflating anything, and one entry inflated by the platform's own DecompressionStream (native code,
 * several times faster than a JavaScript inflater), never past a given size.
 */

const u16 = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u32 = (b: Uint8Array, o: number) =>
  (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/** A zip that cannot be read (damaged, or a compression other than stored and deflate). */
export class ZipError extends Error {}

/** An entry that inflates past the limit it was read with. */
export class ZipTooLarge extends ZipError {}

/**
 * The entries of a zip archive from its central directory, without inflating anything. Null when the
 * archive is malformed (no end record, a directory outside the file, zip64 markers); 'too_many' past
 * `maxEntries`.
 */
export function readCentralDirectory(bytes: Uint8Array, maxEntries: number): ZipEntry[] | 'too_many' | null {
  const min = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= min; i--) {
    if (u32(bytes, i) !== 0x06054b50) continue;
    const count = u16(bytes, i + 10);
    const size = u32(bytes, i + 12);
    let offset = u32(bytes, i + 16);
    if (count === 0xffff || offset === 0xffffffff || size === 0xffffffff) return null;
    if (count > maxEntries) return 'too_many';
    if (offset + size > bytes.length) return null;
    const decoder = new TextDecoder();
    const entries: ZipEntry[] = [];
    for (let n = 0; n < count; n++) {
      if (offset + 46 > bytes.length || u32(bytes, offset) !== 0x02014b50) return null;
      const nameLength = u16(bytes, offset + 28);
      const extraLength = u16(bytes, offset + 30);
      const commentLength = u16(bytes, offset + 32);
      const entry: ZipEntry = {
        method: u16(bytes, offset + 10),
        compressedSize: u32(bytes, offset + 20),
        uncompressedSize: u32(bytes, offset + 24),
        localHeaderOffset: u32(bytes, offset + 42),
        name: decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength)),
      };
      if (entry.compressedSize === 0xffffffff || entry.uncompressedSize === 0xffffffff) return null;
      entries.push(entry);
      offset += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  }
  return null;
}

/** The bytes of an entry as stored (deflated when its method is 8), found through its local header. */
export function storedBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const o = entry.localHeaderOffset;
  if (o + 30 > bytes.length || u32(bytes, o) !== 0x04034b50) throw new ZipError('bad local header');
  const start = o + 30 + u16(bytes, o + 26) + u16(bytes, o + 28);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw new ZipError('entry outside the file');
  if (entry.method !== 0 && entry.method !== 8) throw new ZipError(`compression method ${entry.method}`);
  return data;
}

/**
 * Inflates a deflated entry's bytes chunk by chunk, handing each to `take`; stops (ZipTooLarge) as soon
 * as more than `limit` bytes came out. Answers the inflated size.
 */
async function inflate(data: Uint8Array, limit: number, take?: (chunk: Uint8Array) => void): Promise<number> {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  writer.write(data as Uint8Array<ArrayBuffer>).catch(() => {});
  writer.close().catch(() => {});
  const reader = stream.readable.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return total;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw new ZipTooLarge(`more than ${limit} bytes`);
      }
      take?.(value);
    }
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(e instanceof Error ? e.message : 'cannot inflate');
  }
}

/** How many bytes an entry really inflates to, counting up to `limit` (ZipTooLarge past it). */
export async function inflatedSize(bytes: Uint8Array, entry: ZipEntry, limit: number): Promise<number> {
  const data = storedBytes(bytes, entry);
  if (entry.method === 0) {
    if (data.length > limit) throw new ZipTooLarge(`more than ${limit} bytes`);
    return data.length;
  }
  return inflate(data, limit);
}

/** An entry's contents, at most `limit` bytes (ZipTooLarge past it). */
export async function entryContents(bytes: Uint8Array, entry: ZipEntry, limit: number): Promise<Uint8Array> {
  const data = storedBytes(bytes, entry);
  if (entry.method === 0) {
    if (data.length > limit) throw new ZipTooLarge(`more than ${limit} bytes`);
    return data;
  }
  const chunks: Uint8Array[] = [];
  const size = await inflate(data, limit, (c) => chunks.push(c));
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
