/**
 * Stands in for the `brotli` decoder @cantoo/fontkit imports for WOFF2 fonts (1.3 MB of JavaScript, most
 * of the Worker's size). Our fonts are WOFF (public/fonts), which fontkit inflates without it; a WOFF2
 * font would fail here, plainly. Aliased in wrangler.toml and vitest.config.ts.
 */
export default function decompress(): never {
  throw new Error('WOFF2 fonts are not supported: use the WOFF files of public/fonts.');
}
