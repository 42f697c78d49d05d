import { describe, expect, it } from 'vitest';
import type { ServerBuild } from '@remix-run/cloudflare';
import { unknownPrefixCheck } from '@server/web/page-prefix';

/** The route table as the Remix compiler writes it for a few of our flat routes. */
const routes = {
  root: { id: 'root', path: '' },
  'routes/($lang)._index': { id: 'routes/($lang)._index', parentId: 'root', path: ':lang?', index: true },
  'routes/($lang)._main': { id: 'routes/($lang)._main', parentId: 'root', path: ':lang?' },
  'routes/($lang)._main.home': {
    id: 'routes/($lang)._main.home',
    parentId: 'routes/($lang)._main',
    path: 'home',
  },
  'routes/($lang)._main.clients.$id._index': {
    id: 'routes/($lang)._main.clients.$id._index',
    parentId: 'routes/($lang)._main',
    path: 'clients/:id',
    index: true,
  },
  'routes/($lang).auth': { id: 'routes/($lang).auth', parentId: 'root', path: ':lang?/auth' },
  'routes/($lang).auth.login': {
    id: 'routes/($lang).auth.login',
    parentId: 'routes/($lang).auth',
    path: 'login',
  },
  'routes/actions.language': { id: 'routes/actions.language', parentId: 'root', path: 'actions/language' },
  'routes/($lang).$': { id: 'routes/($lang).$', parentId: 'root', path: ':lang?/*' },
} as unknown as ServerBuild['routes'];

describe('unknown page prefixes', () => {
  const isUnknown = unknownPrefixCheck({ routes } as ServerBuild);

  it('knows the pages with and without a language prefix', () => {
    for (const path of [
      '/home',
      '/de/home',
      '/auth/login',
      '/fr/auth/login',
      '/clients/abc123',
      '/actions/language',
    ]) {
      expect(isUnknown(path), path).toBe(false);
    }
  });

  it('calls a longer address under something that is neither a language nor a page unknown', () => {
    for (const path of ['/xx/home', '/en/home', '/nope/auth/login']) expect(isUnknown(path), path).toBe(true);
  });

  it('leaves one-segment addresses to the pages (the landing route answers those)', () => {
    for (const path of ['/', '/xx', '/de']) expect(isUnknown(path), path).toBe(false);
  });
});
