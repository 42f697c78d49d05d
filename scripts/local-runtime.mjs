// The portal's local runtime (`npm start`, the browser tests, the benchmarks): the Worker that
// `wrangler deploy` would upload, run by Miniflare on workerd and listening on the region's port itself.
//
// `wrangler dev` puts two more layers in front of the Worker: a proxy Worker in a second workerd that
// forwards every request over HTTP, and an inspector proxy that keeps a DevTools session open on the
// runtime. Both held requests: the proxy answered POSTs "Your worker restarted mid-request" when its
// connection to the runtime dropped, and parked failed GETs until another request came; the inspector
// traced every D1 result and R2 put, and the runtime then stopped reporting queue deliveries as done.
// Here a request goes from the socket to the Worker in the one runtime, as in production.
// docs/decisions/platform.md, "The local runtime", says why; `npm run dev` keeps wrangler dev for its
// rebuild-on-save.
import { existsSync, mkdirSync, readFileSync, statSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from 'wrangler';
import { bin } from './local-db.mjs';

/** Where the bundled Worker is kept: one bundle serves both regions (their differences are bindings). */
export const BUNDLE_DIR = '.wrangler/local-bundle';

const bundleFile = () => join(BUNDLE_DIR, 'index.js');

/** Whether the bundle exists and is newer than the build it was made from. */
export function bundleIsFresh() {
  if (!existsSync(bundleFile()) || !existsSync('build/index.js')) return false;
  return statSync(bundleFile()).mtimeMs >= statSync('build/index.js').mtimeMs;
}

/**
 * Bundles build/index.js as `wrangler deploy` does (the same aliases, Node.js compatibility and
 * definitions), unminified so that local stack traces name functions. Written to a temporary folder
 * and then moved into place, so a runtime starting beside it never reads half a bundle.
 */
export function bundle(region = 'uk') {
  const tmp = `${BUNDLE_DIR}.${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const r = spawnSync(
    bin('wrangler'),
    [
      'deploy',
      '--dry-run',
      '--env',
      region,
      '--outdir',
      tmp,
      '--minify',
      'false',
      '--upload-source-maps',
      'false',
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
    },
  );
  if (r.status !== 0) {
    console.error(`Bundling the Worker failed (wrangler deploy --dry-run):\n${r.stdout}\n${r.stderr}`);
    process.exit(r.status ?? 1);
  }
  rmSync(BUNDLE_DIR, { recursive: true, force: true });
  renameSync(tmp, BUNDLE_DIR);
}

/**
 * Serves a region's Worker on 127.0.0.1:`port` with its D1, R2 and queues kept under `persistTo`
 * (wrangler's layout, so `wrangler d1 migrations apply --local` and `wrangler d1 execute --local` see
 * the same database). `vars` override the configuration's variables and .dev.vars' secrets. Resolves with the Miniflare
 * instance once it listens.
 */
export async function serve({ region, port, persistTo = '.wrangler/state', vars = {} }) {
  if (!bundleIsFresh()) bundle(region);
  const configPath = resolve('wrangler.toml');
  const config = unstable_readConfig({ config: configPath, env: region });
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath, region);
  mkdirSync(persistTo, { recursive: true });
  const mf = new Miniflare({
    host: '127.0.0.1',
    port,
    // No request to Cloudflare for the request.cf object: a fixed local one.
    cf: false,
    log: new Log(LogLevel.INFO),
    // INSPECTOR_PORT: DevTools (and npm run bench:import:profile) attach to the runtime there.
    ...(process.env.INSPECTOR_PORT ? { inspectorPort: Number(process.env.INSPECTOR_PORT) } : {}),
    defaultPersistRoot: join(persistTo, 'v3'),
    // POST /cdn-cgi/handler/scheduled runs the cron handler, as under wrangler dev.
    unsafeTriggerHandlers: true,
    workers: [
      {
        ...workerOptions,
        name: config.name,
        // The one module `wrangler deploy` uploads, given whole: Miniflare would otherwise follow its
        // imports and refuse the dynamic ones (libraries' optional imports) that workerd leaves alone.
        modules: [{ type: 'ESModule', path: resolve(bundleFile()), contents: readFileSync(bundleFile()) }],
        bindings: { ...workerOptions.bindings, ...vars },
      },
    ],
  });
  await mf.ready;
  return mf;
}
