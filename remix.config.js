/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ['**/.*', '**/*.test.*'],
  server: './workers/entry.ts',
  serverBuildPath: 'build/index.js',
  serverModuleFormat: 'esm',
  serverPlatform: 'neutral',
  serverConditions: ['workerd', 'worker', 'browser'],
  serverMainFields: ['browser', 'module', 'main'],
  serverMinify: false,
  // Bundle every dependency except exceljs, which wrangler bundles with nodejs_compat, and @cantoo/pdf-lib,
  // whose ES build imports JSON with import attributes (`with { type: 'json' }`) that the Remix compiler's
  // esbuild cannot parse; wrangler's newer esbuild bundles it.
  serverDependenciesToBundle: [/^(?!exceljs|@cantoo\/pdf-lib).*/],
  tailwind: false,
  postcss: true,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
  },
};
