/**
 * Whether the page in the browser is ready for a person: a page served without scripts (the sign-in
 * steps, `handle = withoutScripts`) or shown by a browser with JavaScript off (its inline scripts never
 * ran: no Remix context) is ready as it has loaded; any other once the Remix router exists and React owns
 * the body (it has hydrated). Runs in the page (`page.waitForFunction(isHydrated)`).
 */
export function isHydrated(): boolean {
  return (
    !document.querySelector('script[type="module"]') ||
    (document.readyState === 'complete' && !('__remixContext' in window)) ||
    ('__remixRouter' in window &&
      Object.keys(document.body).some((k) => k.startsWith('__reactFiber') || k.startsWith('__reactProps')))
  );
}
