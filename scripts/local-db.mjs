// A region's local database, shared by `npm start` (scripts/start.mjs), `npm run db:migrate`
// (scripts/migrate.mjs) and `npm run seed` (scripts/seed.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

export const bin = (name) => `node_modules/.bin/${name}`;

/**
 * Stops with a clear message when the installed wrangler or miniflare lacks the fixes `patches/` carries
 * (applied by `npm install`'s postinstall): a node_modules installed before a patch was added serves the
 * portal with the faults it fixes (dropped connections, a stalled local queue), with no other sign of it.
 */
export function requirePatchedRuntime() {
  const marks = [
    ['node_modules/wrangler/wrangler-dist/ProxyWorker.js', 'isSameUserWorkerOrigin'],
    ['node_modules/miniflare/dist/src/index.js', 'server.keepAliveTimeout = 0'],
  ];
  const patched = ([file, mark]) => !existsSync(file) || readFileSync(file, 'utf8').includes(mark);
  if (marks.every(patched)) return;
  console.error(
    'The installed wrangler or miniflare is missing the fixes in patches/ (node_modules is older than them).\n' +
      'Run `npm install` (it applies them), then start again.',
  );
  process.exit(1);
}

/** Runs a command with wrangler's network lookups off; exits with its status when it fails. */
export function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

/** The region named on the command line (`ie`), else the UK. */
export const regionArg = (argv) => (argv.includes('ie') ? 'ie' : 'uk');

const DEFAULT_PORTS = { uk: 8787, ie: 8788 };

/**
 * The port a region's local portal listens on: UK_PORT / IE_PORT when set, else 8787 / 8788. PORT, when
 * set, is the port of the region being started (`own`), as before UK_PORT and IE_PORT existed.
 */
export const portOf = (region, { own = false } = {}) =>
  Number((own && process.env.PORT) || process.env[`${region.toUpperCase()}_PORT`] || DEFAULT_PORTS[region]);

/** The other region of `region`. */
export const otherRegionOf = (region) => (region === 'ie' ? 'uk' : 'ie');

/** A value of .dev.vars (the local secrets npm start writes). */
export function devVar(name) {
  const line = readFileSync('.dev.vars', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).trim() : '';
}

/** `wrangler dev` serving a region's Worker on a local port, with the options every local run needs. */
export const wranglerDevArgs = (region, port) => [
  'dev',
  '--env',
  region,
  '--port',
  String(port),
  '--ip',
  '127.0.0.1',
  '--show-interactive-dev-session=false',
  // Two checkouts running Workers at once each need their own inspector port (wrangler's default is 9229).
  ...(process.env.INSPECTOR_PORT ? ['--inspector-port', process.env.INSPECTOR_PORT] : []),
];

/** Applies the migrations in drizzle/migrations that the region's local D1 has not had yet. */
export function applyMigrations(region, persistArgs = []) {
  run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--env', region, ...persistArgs]);
}

/**
 * Loads the demo data through the local Worker at `port` once it answers (POST /__dev/seed, which
 * seeds only an empty database). Returns whether it seeded, or null when the Worker never answered.
 */
// Ten minutes of tries: a machine busy with other work starts the Worker slowly.
export async function seedWhenUp(region, port, tries = 1200) {
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < tries; i++) {
    try {
      const res = await fetch(`${base}/__dev/seed`, {
        method: 'POST',
        headers: { 'x-dev-secret': devVar('SESSION_SECRET') },
      });
      if (res.ok) {
        const { seeded } = await res.json();
        console.log(
          seeded
            ? `Demo data loaded into the ${region.toUpperCase()} database.`
            : 'Database already has data; not seeding.',
        );
        return seeded;
      }
      if (res.status !== 503) console.error(`Seeding answered ${res.status}: ${await res.text()}`);
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return null;
}
