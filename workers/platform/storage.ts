/**
 * The one adapter to R2 (env.FILES): uploads checked for size and for their real type (magic bytes, not
 * the name or the browser's word), written under a key of the caller's area, read back as a download and
 * deleted. Every area that stores files uses these functions.
 */
import { ValidationFailed } from '../domain/errors';
import { msg } from '../domain/validation';
import { publicId } from './crypto';
import { inflatedSize, readCentralDirectory, ZipError, ZipTooLarge } from './zip';

/** The default upload limit of spec 000 s.5 ('File cannot be larger than {n}MB'). */
export const DEFAULT_MAX_FILE_MB = 10;

/**
 * Zip-based uploads (Office files) are refused past these, as the central directory declares and as the
 * entries really inflate (a directory can lie): a zip bomb never reaches a reader or another user.
 */
export const MAX_UPLOAD_ZIP_ENTRIES = 1000;
export const MAX_UPLOAD_UNPACKED_BYTES = 150 * 1024 * 1024;

export const FILE_KINDS = {
  pdf: { contentType: 'application/pdf', extension: 'pdf' },
  png: { contentType: 'image/png', extension: 'png' },
  jpg: { contentType: 'image/jpeg', extension: 'jpg' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  webp: { contentType: 'image/webp', extension: 'webp' },
  docx: {
    contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    extension: 'docx',
  },
  xlsx: {
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    extension: 'xlsx',
  },
  csv: { contentType: 'text/csv', extension: 'csv' },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

/**
 * The names of a zip archive's entries (the first `limit`), read from its central directory (the end of
 * the file), so an Office file is told apart by what it holds (word/ or xl/) rather than by its name.
 */
export function zipEntryNames(bytes: Uint8Array, limit = 5000): string[] | null {
  const entries = readCentralDirectory(bytes, 0xffff);
  return Array.isArray(entries) ? entries.slice(0, limit).map((e) => e.name) : null;
}

/** The kind of a file from its first bytes (and, for zip-based Office files, its entries); null if unknown. */
export function sniffFileKind(bytes: Uint8Array): FileKind | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // %PDF-
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpg';
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38])) return 'gif'; // GIF8
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp';
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const names = zipEntryNames(bytes) ?? [];
    if (names.some((n) => n.startsWith('word/'))) return 'docx';
    if (names.some((n) => n.startsWith('xl/'))) return 'xlsx';
    return null;
  }
  // CSV: printable UTF-8 text without NUL bytes in its first 4 KB.
  const head = bytes.subarray(0, 4096);
  if (head.length && !head.includes(0)) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastCompleteUtf8(head)));
      return 'csv';
    } catch {
      return null;
    }
  }
  return null;
}

/** Length of `b` without a multi-byte character cut at its end. */
function lastCompleteUtf8(b: Uint8Array): number {
  let end = b.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = b[end - back];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte
    if (byte >= 0xc0) end -= back; // a lead byte whose sequence may be cut
    break;
  }
  return end;
}

export interface CheckedFile {
  bytes: Uint8Array;
  kind: FileKind;
  contentType: string;
  size: number;
  /** The name as uploaded, without any path, at most 150 characters. */
  name: string;
}

/** A file name safe to keep and to put in a key or a content-disposition header. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .split('')
    .filter((ch) => ch.charCodeAt(0) >= 0x20 && ch.charCodeAt(0) !== 0x7f && ch !== '"')
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  if (!cleaned) return 'file';
  if (cleaned.length <= 150) return cleaned;
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 150 - ext.length) + ext;
}

/**
 * Checks an upload: present, not empty, within the size limit and of one of the allowed kinds by its
 * content. Failures are field errors on `field` ('File cannot be larger than 10MB', ...).
 */
export async function checkUpload(
  file: unknown,
  opts: {
    field: string;
    allowed: readonly FileKind[];
    maxMb?: number;
    /** Refuse a file whose name's extension says another kind than its content (`scan.pdf` holding text). */
    nameMustMatch?: boolean;
  },
): Promise<CheckedFile> {
  const maxMb = opts.maxMb ?? DEFAULT_MAX_FILE_MB;
  if (!(file instanceof Blob) || (file instanceof File && !file.name && file.size === 0)) {
    throw ValidationFailed.field(opts.field, msg('validation.required'));
  }
  if (file.size === 0) throw ValidationFailed.field(opts.field, msg('files.empty'));
  if (file.size > maxMb * 1024 * 1024) {
    throw ValidationFailed.field(opts.field, msg('validation.file_too_large', { size: maxMb }));
  }
  const bytes = new Uint8Array(await file.arrayBuffer());
  const kind = sniffFileKind(bytes);
  if (!kind || !opts.allowed.includes(kind)) {
    throw ValidationFailed.field(
      opts.field,
      msg('files.type_not_allowed', { types: opts.allowed.map((k) => FILE_KINDS[k].extension).join(', ') }),
    );
  }
  const name = cleanFileName(file instanceof File ? file.name : `file.${FILE_KINDS[kind].extension}`);
  if (opts.nameMustMatch && !nameFitsKind(name, kind)) {
    throw ValidationFailed.field(
      opts.field,
      msg('files.type_not_allowed', { types: opts.allowed.map((k) => FILE_KINDS[k].extension).join(', ') }),
    );
  }
  if (kind === 'docx' || kind === 'xlsx') await checkZipLimits(bytes, opts.field);
  return { bytes, kind, contentType: FILE_KINDS[kind].contentType, size: bytes.length, name };
}

/** Whether a file name's extension (if it has one) names the kind its content is. */
function nameFitsKind(name: string, kind: FileKind): boolean {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return true;
  const ext = name.slice(dot + 1).toLowerCase();
  return (
    ext === FILE_KINDS[kind].extension ||
    (kind === 'jpg' && ext === 'jpeg') ||
    (kind === 'csv' && ext === 'txt')
  );
}

/** The zip-bomb check of an Office upload (see MAX_UPLOAD_UNPACKED_BYTES). */
async function checkZipLimits(bytes: Uint8Array, field: string): Promise<void> {
  const refuse = () => ValidationFailed.field(field, msg('files.too_big_unpacked'));
  const entries = readCentralDirectory(bytes, MAX_UPLOAD_ZIP_ENTRIES);
  if (entries === 'too_many') throw refuse();
  if (!entries) throw ValidationFailed.field(field, msg('files.unreadable'));
  let declared = 0;
  for (const e of entries) declared += e.uncompressedSize;
  if (declared > MAX_UPLOAD_UNPACKED_BYTES) throw refuse();
  let actual = 0;
  for (const e of entries) {
    try {
      actual += await inflatedSize(
        bytes,
        e,
        Math.min(e.uncompressedSize, MAX_UPLOAD_UNPACKED_BYTES - actual),
      );
    } catch (x) {
      if (x instanceof ZipTooLarge) throw refuse();
      if (x instanceof ZipError) throw ValidationFailed.field(field, msg('files.unreadable'));
      throw x;
    }
  }
}

/** A new object key: `<prefix>/<random>-<name>` (the random part keeps two uploads of one name apart). */
export function fileKey(prefix: string, name: string): string {
  const safe = cleanFileName(name)
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-+/g, '-')
    .slice(-100);
  return `${prefix.replace(/\/+$/, '')}/${publicId()}-${safe}`;
}

export async function putFile(
  bucket: R2Bucket,
  key: string,
  file: Pick<CheckedFile, 'bytes' | 'contentType' | 'name'>,
) {
  await bucket.put(key, file.bytes, {
    httpMetadata: { contentType: file.contentType },
    customMetadata: { name: file.name },
  });
}

/** Deletes objects; missing keys are not an error (a retried delete must succeed). */
export async function deleteFiles(bucket: R2Bucket, keys: (string | null | undefined)[]) {
  const present = keys.filter((k): k is string => !!k);
  if (present.length) await bucket.delete(present);
}

export async function deleteFile(bucket: R2Bucket, key: string | null | undefined) {
  await deleteFiles(bucket, [key]);
}

/** `attachment; filename=...` with an ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(
  name: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const clean = cleanFileName(name);
  const ascii = clean.replace(/[^\x20-\x7e]/g, '_').replace(/[\\"]/g, '_');
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(clean)}`;
}

/**
 * A download of a stored object, streamed from R2. Null when the object is missing. The content type
 * is the one checked at upload, and the response cannot be sniffed into something else.
 */
export async function fileResponse(
  bucket: R2Bucket,
  key: string,
  opts: { name: string; contentType?: string; disposition?: 'attachment' | 'inline' },
): Promise<Response | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  return new Response(object.body, {
    headers: {
      'content-type': opts.contentType ?? object.httpMetadata?.contentType ?? 'application/octet-stream',
      'content-length': String(object.size),
      'content-disposition': contentDisposition(opts.name, opts.disposition),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}

/** The stored object's bytes and type, or null when it is missing (for jobs that read an upload back). */
export async function getFile(
  bucket: R2Bucket,
  key: string,
): Promise<{ bytes: Uint8Array; contentType: string; name: string | null } | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  return {
    bytes: new Uint8Array(await object.arrayBuffer()),
    contentType: object.httpMetadata?.contentType ?? 'application/octet-stream',
    name: object.customMetadata?.name ?? null,
  };
}

/** The content type of bytes by their magic numbers, or null when the kind is not one we accept. */
export function sniffContentType(bytes: Uint8Array): string | null {
  const kind = sniffFileKind(bytes);
  return kind ? FILE_KINDS[kind].contentType : null;
}
