// `npm start` (UK, port 8787) and `npm run start:ie` (Ireland, port 8788):
// creates .dev.vars with random secrets when missing, builds, applies the migrations to the region's
// local D1, serves with wrangler, and seeds the demo data when the database is empty.
// `--dev` rebuilds on save instead (remix dev --manual around wrangler dev).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const region = process.argv[2] === 'ie' ? 'ie' : 'uk';
const dev = process.argv.includes('--dev');
const port = Number(process.env.PORT ?? (region === 'ie' ? 8788 : 8787));
const persist = process.env.PERSIST_DIR; // tests use a fresh folder
// Several Workers served from one folder (the browser tests): the first builds, the others serve that
// build. Building again under a running wrangler makes it reload, or fail on files the build removed.
const skipBuild = process.env.SKIP_BUILD === '1';
const bin = (name) => `node_modules/.bin/${name}`;

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

function devVar(name) {
  const line = readFileSync('.dev.vars', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).trim() : '';
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, {
    stdio: 'inherit',
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

ensureDevVars();
if (!skipBuild) run('node', ['scripts/locales-index.mjs']);
if (!dev && !skipBuild) {
  run(bin('remix'), ['build']);
  run('node', ['scripts/asset-names.mjs']);
}
const persistArgs = persist ? ['--persist-to', persist] : [];
run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--env', region, ...persistArgs]);

const vars = [];
if (process.env.OTHER_REGION_URL) vars.push('--var', `OTHER_REGION_URL:${process.env.OTHER_REGION_URL}`);
if (process.env.PUBLIC_URL) vars.push('--var', `PUBLIC_URL:${process.env.PUBLIC_URL}`);
if (process.env.MAINTENANCE) vars.push('--var', `MAINTENANCE:${process.env.MAINTENANCE}`);
// Two checkouts running Workers at once each need their own inspector port (wrangler's default is 9229).
if (process.env.INSPECTOR_PORT) vars.push('--inspector-port', process.env.INSPECTOR_PORT);
const wranglerArgs = [
  'dev',
  '--env',
  region,
  '--port',
  String(port),
  '--ip',
  '127.0.0.1',
  '--show-interactive-dev-session=false',
  ...persistArgs,
  ...vars,
];
const child = dev
  ? spawn(bin('remix'), ['dev', '--manual', '-c', `${bin('wrangler')} ${wranglerArgs.join(' ')}`], {
      stdio: 'inherit',
    })
  : spawn(bin('wrangler'), wranglerArgs, {
      stdio: 'inherit',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    });

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));

const base = `http://127.0.0.1:${port}`;
// Seed once the server answers (within ten minutes: a machine busy with other work starts slowly).
const seedBy = Date.now() + 600_000;
while (Date.now() < seedBy) {
  await new Promise((r) => setTimeout(r, 500));
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
      console.log(
        `\n  The ${region === 'ie' ? 'Ireland' : 'UK'} portal is ready at http://localhost:${port}\n  Sign in as senior.admin@demo.test / Demo-Passw0rd! (PIN: http://localhost:${port}/dev/mailbox)\n`,
      );
      break;
    }
    if (res.status !== 503) console.error(`Seeding answered ${res.status}: ${await res.text()}`);
  } catch {
    // not up yet
  }
}
