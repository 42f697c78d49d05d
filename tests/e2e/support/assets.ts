/**
 * The browser gets the build's scripts and styles (/build/*) from the built files, not from the local Worker.
 *
 * Why: deployed, Cloudflare serves these files and the Worker never sees them, and it spares the local
 * runtime every page's scripts and styles (docs/decisions/platform.md, "The local runtime"). The
 * files are the same bytes the Workers would serve (the build the Workers run), with the same headers
 * (public/_headers).
 * The real serving stays tested: sign-in.test.ts reads a served script's headers, and kit.test.ts
 * loads a page's scripts from the Worker with `{ servedAssets: true }`.
 */
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { IE_URL, MAINTENANCE_URL, UK_URL } from './servers';

const ORIGINS = new Set([UK_URL, IE_URL, MAINTENANCE_URL].map((u) => new URL(u).origin));

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Headers public/_headers gives /build/* (the block for /build/* and the one for every file). */
let headers: Record<string, string> | undefined;
function buildHeaders(publicDir: string): Record<string, string> {
  if (headers) return headers;
  const found: Record<string, string> = {};
  let applies = false;
  for (const line of readFileSync(join(publicDir, '_headers'), 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    if (!/^\s/.test(line)) applies = line.trim() === '/*' || line.trim() === '/build/*';
    else if (applies) {
      const at = line.indexOf(':');
      found[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
    }
  }
  return (headers = found);
}

const files = new Map<string, Buffer | null>();
function read(publicDir: string, path: string): Buffer | null {
  if (!files.has(path)) {
    const file = normalize(join(publicDir, decodeURIComponent(path)));
    let body: Buffer | null = null;
    if (file.startsWith(join(publicDir, 'build'))) {
      try {
        body = readFileSync(file);
      } catch {
        body = null;
      }
    }
    files.set(path, body);
  }
  return files.get(path)!;
}

/** Answers the context's requests for /build/* of the test Workers from the built files; 404 for a missing one. */
export async function serveBuildFromDisk(context: BrowserContext): Promise<void> {
  const publicDir = join(inject('appDir'), 'public');
  await context.route(
    (url) => ORIGINS.has(url.origin) && url.pathname.startsWith('/build/'),
    (route) => {
      const { pathname } = new URL(route.request().url());
      const body = read(publicDir, pathname);
      if (!body) return route.fulfill({ status: 404, body: 'Not Found' });
      return route.fulfill({
        status: 200,
        body,
        headers: {
          ...buildHeaders(publicDir),
          'content-type': TYPES[extname(pathname)] ?? 'application/octet-stream',
        },
      });
    },
  );
}
