// `npm start` (UK, port 8787) and `npm run start:ie` (Ireland, port 8788):
// creates .dev.vars with random secrets when missing, builds, applies the migrations to the region's
// local D1, serves the Worker (scripts/local-runtime.mjs), and seeds the demo data when the database is
// empty.
// `--dev` rebuilds on save instead (remix dev --manual around wrangler dev).
// Other ports: UK_PORT and IE_PORT (give both to both commands); the portal's own address (PUBLIC_URL)
// and the other region's ("Go to Ireland", OTHER_REGION_URL) follow them. PUBLIC_URL and
// OTHER_REGION_URL, when set, are taken as they are (the browser tests set them).
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import {
  applyMigrations,
  bin,
  otherRegionOf,
  portOf,
  requirePatchedRuntime,
  run,
  seedWhenUp,
  wranglerDevArgs,
} from './local-db.mjs';
import { bundle, serve } from './local-runtime.mjs';

requirePatchedRuntime();

const region = process.argv[2] === 'ie' ? 'ie' : 'uk';
const dev = process.argv.includes('--dev');
const port = portOf(region, { own: true });
const persist = process.env.PERSIST_DIR; // tests use a fresh folder
// Several Workers served from one folder (the browser tests): the first builds, the others serve that
// build. Building again under a running wrangler makes it reload, or fail on files the build removed.
const skipBuild = process.env.SKIP_BUILD === '1';

const DEV_SECRETS = ['SESSION_SECRET', 'HANDOVER_SECRET', 'EPDQ_SHA_IN', 'EPDQ_SHA_OUT'];

function ensureDevVars() {
  // Both regions read the same file, so they share HANDOVER_SECRET as deployed regions must.
  // A file from before a secret was added gets the missing ones appended (the others are kept).
  const secret = () => randomBytes(32).toString('base64url');
  const existing = existsSync('.dev.vars') ? readFileSync('.dev.vars', 'utf8') : '';
  const have = new Set(existing.split('\n').map((l) => l.split('=')[0].trim()));
  const missing = DEV_SECRETS.filter((name) => !have.has(name));
  if (!missing.length) return;
  const prefix = existing && !existing.endsWith('\n') ? '\n' : '';
  writeFileSync('.dev.vars', existing + prefix + missing.map((n) => `${n}=${secret()}\n`).join(''));
  console.log(`Added random development secrets to .dev.vars: ${missing.join(', ')}.`);
}

ensureDevVars();
if (!skipBuild) run('node', ['scripts/locales-index.mjs']);
if (!dev && !skipBuild) {
  run(bin('remix'), ['build']);
  run('node', ['scripts/asset-names.mjs']);
  bundle(region);
}
const persistArgs = persist ? ['--persist-to', persist] : [];
applyMigrations(region, persistArgs);

const publicUrl = process.env.PUBLIC_URL || `http://localhost:${port}`;
const otherRegionUrl = process.env.OTHER_REGION_URL || `http://localhost:${portOf(otherRegionOf(region))}`;
const vars = { PUBLIC_URL: publicUrl, OTHER_REGION_URL: otherRegionUrl };
if (process.env.MAINTENANCE) vars.MAINTENANCE = process.env.MAINTENANCE;

if (dev) {
  // Rebuild on save: remix dev around wrangler dev, which reloads the Worker after each build.
  const varArgs = Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const wranglerArgs = [...wranglerDevArgs(region, port), ...persistArgs, ...varArgs];
  const child = spawn(
    bin('remix'),
    ['dev', '--manual', '-c', `${bin('wrangler')} ${wranglerArgs.join(' ')}`],
    {
      stdio: 'inherit',
    },
  );
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  const mf = await serve({ region, port, persistTo: persist, vars });
  console.log(`Serving the ${region.toUpperCase()} Worker on http://127.0.0.1:${port}`);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => void mf.dispose().finally(() => process.exit(0)));
}

// Seed once the server answers.
if ((await seedWhenUp(region, port)) !== null)
  console.log(
    `\n  The ${region === 'ie' ? 'Ireland' : 'UK'} portal is ready at ${publicUrl}\n  Sign in as senior.admin@demo.test / Demo-Passw0rd! (PIN: ${publicUrl}/dev/mailbox)\n`,
  );
