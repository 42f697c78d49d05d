/** Local addresses, pure and free of zod (pages read it; validation.ts re-exports it for the domain). */

/**
 * Whether a path stays on this site. Browsers read a backslash as a slash and drop tabs and line breaks
 * anywhere in a URL, so `/\evil.example` and `/<tab>/evil.example` lead off-site like `//evil.example`.
 */
export function isLocalPath(path: string): boolean {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return false;
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return false;
  }
  return true;
}
