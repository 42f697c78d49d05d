/**
 * Pages served without JavaScript (docs/page-kit.md, "A page without scripts"; docs/decisions/sign-in.md): a route
 * that needs no script exports `handle = { hydrate: false }`, and the root then renders no `<Scripts/>`,
 * no `<ScrollRestoration/>` and no inline script, Remix v2's documented "disabling JavaScript" pattern.
 * Its forms are plain HTML forms: they post, the action answers or redirects, errors render from the
 * action's answer, and the browser's own checks (required, type=email, lengths) apply before posting.
 */
import { useLocation, useMatches } from '@remix-run/react';
import { useEffect } from 'react';

/** The `handle` of a route served without scripts. */
export const withoutScripts = { hydrate: false } as const;

/** Whether a route handle asks for the page to be served without scripts. */
export function isWithoutScripts(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && (handle as { hydrate?: unknown }).hydrate === false;
}

/**
 * True on a page served without scripts: a component then renders its no-JavaScript form (a
 * `<details>` disclosure instead of a scripted popup). Also true when such a page was reached by a
 * client-side navigation: the plain form works with JavaScript too.
 */
export function useWithoutScripts(): boolean {
  return useMatches().some((m) => isWithoutScripts(m.handle));
}

/**
 * Marks on `<html data-rendered>` the key of the location React has committed. The router moves on in a
 * transition, which React may render later than the router's own state says (a busy device): a page is
 * settled for a person, or a browser test, once this key is the router's (tests/e2e/support/browser.ts,
 * `quiet`). The root layout calls it, so error pages mark too.
 */
export function useRenderedMark(): void {
  const { key } = useLocation();
  useEffect(() => {
    document.documentElement.dataset.rendered = key;
  }, [key]);
}
