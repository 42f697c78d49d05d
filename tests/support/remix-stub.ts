/**
 * Stands in for @remix-run/cloudflare in API tests. Its CommonJS build does not load in the test
 * runner's module loader, and the API under test never reaches Remix: `createApp()` without a build
 * answers every non-API path itself. Test files that import workers/http.ts start with
 * `vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'))`.
 */
export function createRequestHandler(): never {
  throw new Error('Remix is not available in API tests');
}
