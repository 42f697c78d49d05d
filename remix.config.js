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
  // Bundle every dependency except exceljs, which wrangler bundles with nodejs_compat, and the PDF library
  // (@cantoo/pdf-lib, @cantoo/fontkit): pdf-lib's ES build imports JSON with import attributes that the
  // Remix compiler's esbuild cannot parse, and wrangler's bundling aliases fontkit's WOFF2 decoder away
  // (wrangler.toml [alias]).
  serverDependenciesToBundle: [/^(?!exceljs|@cantoo\/).*/],
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
