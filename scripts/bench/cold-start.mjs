// `npm run bench:coldstart`: how long a fresh Worker takes to start and answer its first page.
//
// Builds the Worker as `wrangler deploy` would (a dry run: the module that is uploaded), then, RUNS
// times, starts it alone in a fresh workerd (Miniflare, the UK bindings, the static assets) and measures
//   - start: until workerd is ready, which includes compiling the module and running its top level (what
//     Cloudflare's startup limit measures), less the same for a one-line Worker (workerd's own start);
//   - first page: GET /auth/login just after, the first request of the isolate (translations read,
//     first render);
//   - second page: the same again, warm.
// Each as wall time and as the CPU time workerd spent (from /proc, 10 ms steps): on a shared machine the
// CPU time is the steadier figure. Prints the medians and the module's size. `--bundle <file.js>` measures a module built elsewhere
// (e.g. an older build's dry-run output) instead of building one. Run after `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';

const RUNS = Number(process.env.RUNS ?? 7);
const at = process.argv.indexOf('--bundle');
const toml = readFileSync('wrangler.toml', 'utf8');
const compatibilityDate = /compatibility_date = "([^"]+)"/.exec(toml)[1];

function build() {
  const out = mkdtempSync(join(tmpdir(), 'cold-start-'));
  const run = spawnSync(
    'node_modules/.bin/wrangler',
    ['deploy', '--dry-run', '--env', 'uk', '--outdir', out],
    {
      encoding: 'utf8',
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false' },
    },
  );
  if (run.status !== 0) throw new Error(`wrangler deploy --dry-run failed:\n${run.stdout}\n${run.stderr}`);
  process.on('exit', () => rmSync(out, { recursive: true, force: true }));
  return join(out, 'index.js');
}

const bundle = resolve(at > 0 ? process.argv[at + 1] : build());
const code = readFileSync(bundle);

function options(script) {
  return {
    modulesRoot: dirname(bundle),
    modules: [
      {
        type: 'ESModule',
        path: join(dirname(bundle), script === code ? basename(bundle) : 'hello.js'),
        contents: script,
      },
    ],
    compatibilityDate,
    compatibilityFlags: ['nodejs_compat'],
    assets: { directory: 'public', binding: 'ASSETS', routerConfig: { has_user_worker: true } },
    d1Databases: ['DB'],
    r2Buckets: ['FILES'],
    queueProducers: { JOBS: 'enrolment-jobs-uk' },
    bindings: {
      REGION: 'uk',
      APP_ENV: 'development',
      MAINTENANCE: '0',
      PRODUCT_NAME: 'Enrolment',
      PUBLIC_URL: 'http://localhost:8787',
      OTHER_REGION_URL: 'http://localhost:8788',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
      HANDOVER_SECRET: 'bench-handover-secret-0123456789abcdef',
    },
  };
}

/** CPU time (user + system, ms) of this process's workerd children, alive ones, from /proc. */
function workerdCpu() {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (comm === 'workerd' && Number(fields[1]) === process.pid)
        ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10;
}

/** Wall and CPU time of `fn`. */
async function measure(fn) {
  const cpu = workerdCpu();
  const t = performance.now();
  const value = await fn();
  return { value, wall: performance.now() - t, cpu: workerdCpu() - cpu };
}

async function startOnce(script) {
  const t0 = performance.now();
  const mf = new Miniflare(options(script));
  await mf.ready;
  return { mf, wall: performance.now() - t0, cpu: workerdCpu() };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const hello = Buffer.from('export default { fetch: () => new Response("ok") };');
const keys = ['base', 'start', 'first', 'second'];
const wall = Object.fromEntries(keys.map((k) => [k, []]));
const cpu = Object.fromEntries(keys.map((k) => [k, []]));
const page = (mf) =>
  mf.dispatchFetch('http://localhost/auth/login').then(async (r) => (await r.arrayBuffer(), r.status));
for (let i = 0; i < RUNS; i++) {
  const empty = await startOnce(hello);
  wall.base.push(empty.wall);
  cpu.base.push(empty.cpu);
  await empty.mf.dispose();
  const { mf, wall: w, cpu: c } = await startOnce(code);
  wall.start.push(w);
  cpu.start.push(c);
  for (const k of ['first', 'second']) {
    const m = await measure(() => page(mf));
    if (m.value !== 200) throw new Error(`GET /auth/login answered ${m.value}`);
    wall[k].push(m.wall);
    cpu[k].push(m.cpu);
  }
  await mf.dispose();
}

const row = (name, k, less) =>
  `| ${name.padEnd(44)} | ${String(Math.round(median(wall[k]) - (less ? median(wall.base) : 0))).padStart(7)} | ${String(Math.round(median(cpu[k]) - (less ? median(cpu.base) : 0))).padStart(6)} |`;
console.log(
  `Worker module ${bundle}: ${(code.length / 1024).toFixed(0)} KiB, ${(gzipSync(code).length / 1024).toFixed(0)} KiB gzipped`,
);
console.log(
  `${RUNS} fresh starts, medians; a one-line Worker starts in ${Math.round(median(wall.base))} ms wall, ${Math.round(median(cpu.base))} ms CPU:\n`,
);
console.log('| measure                                      | wall ms | CPU ms |');
console.log('| -------------------------------------------- | ------- | ------ |');
console.log(row('start (ready, less a one-line Worker)', 'start', true));
console.log(row('first page, GET /auth/login (cold isolate)', 'first'));
console.log(row('second page (warm)', 'second'));
