import type { ServerBuild } from '@remix-run/cloudflare';
import { isLanguage } from '../../app/i18n/config';

/**
 * Every page sits under an optional language prefix: `/de/clients`. Remix matches `/xx/clients` too
 * (`xx` as the prefix), and a signed-in guard would redirect such an address before the root loader's
 * 404 could answer. So the front door tells the pages when the first segment of a longer address is
 * neither a language nor the first segment of any page: that address is not a page.
 */
export function unknownPrefixCheck(build: ServerBuild): (pathname: string) => boolean {
  const topSegments = new Set<string>();
  const fullPath = (id: string): string => {
    const route = build.routes[id];
    if (!route) return '';
    const parent = route.parentId ? fullPath(route.parentId) : '';
    return [parent, route.path ?? ''].filter(Boolean).join('/');
  };
  for (const id of Object.keys(build.routes)) {
    // The prefix is the optional `:lang?` segment; what follows it is the page's first segment.
    const segments = fullPath(id)
      .split('/')
      .filter((s) => s && !s.endsWith('?'));
    const first = segments[0];
    if (first && !first.startsWith(':') && first !== '*') topSegments.add(first);
  }
  return (pathname: string) => {
    const segments = pathname.split('/').filter(Boolean);
    if (segments.length < 2) return false;
    const first = segments[0]!;
    // English has no prefix: /en/... is not a page either.
    return (first === 'en' || !isLanguage(first)) && !topSegments.has(first);
  };
}
