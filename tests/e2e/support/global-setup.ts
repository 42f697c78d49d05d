/**
 * Starts the Workers for the browser tests with `node scripts/start.mjs <region>` (migrations on a fresh
 * local D1, the local runtime of `npm start`, demo seed), each in its own process group so teardown can
 * stop the whole tree (node, workerd) by group id. Output goes to test-output/e2e-logs/<name>.log.
 *
 * The servers run from a snapshot of the working tree in a temporary folder (node_modules linked): a
 * build elsewhere in the tree (a colleague's `npm run build` or `npm run dev`) would otherwise swap or
 * delete the assets of pages under test. E2E_IN_PLACE=1 runs them in the working tree itself.
 *
 * One build serves them all: the working tree's build when it is newer than every source (`npm test` and
 * `npm run test:e2e` build just before), copied into the snapshot, or else one made here; then bundled
 * once (scripts/bundle.mjs), and the Workers start at once from that bundle, none building.
 */
import { profile } from './profile';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { TestProject } from 'vitest/node';
import { SHARDS, serversOf } from './servers';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the Workers run from (a snapshot of the working tree, or the tree itself). */
    appDir: string;
    /**
     * The run's own folder, shared by its test files: signIn() keeps sessions in sessions/ (browser.ts),
     * axe records the page states that passed in axe-passed/ (axe.ts).
     */
    runDir: string;
  }
}

interface Instance {
  name: string;
  region: 'uk' | 'ie';
  url: string;
  otherRegionUrl: string;
  maintenance: boolean;
}

/** Shard 0's three Workers, and a UK Worker for each further shard (servers.ts). */
const INSTANCES: Instance[] = Array.from({ length: SHARDS }, (_, shard): Instance[] => {
  const { UK_URL, IE_URL, MAINTENANCE_URL } = serversOf(shard);
  if (shard > 0) {
    return [{ name: `uk-${shard}`, region: 'uk', url: UK_URL, otherRegionUrl: IE_URL, maintenance: false }];
  }
  return [
    { name: 'uk', region: 'uk', url: UK_URL, otherRegionUrl: IE_URL, maintenance: false },
    { name: 'ie', region: 'ie', url: IE_URL, otherRegionUrl: UK_URL, maintenance: false },
    { name: 'uk-maintenance', region: 'uk', url: MAINTENANCE_URL, otherRegionUrl: IE_URL, maintenance: true },
  ];
}).flat();

// Per step; a loaded two-core machine has needed over two minutes for build, migrations and start.
const START_TIMEOUT_MS = 300_000;
const root = process.cwd();
const logDir = join(root, 'test-output', 'e2e-logs');
/** Where start.mjs runs; set by setup(). */
let appDir = root;
let snapshotDir: string | null = null;

/** Copies the working tree without what a build or a run produces; links node_modules. */
function snapshot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'e2e-app-'));
  const skip = new Set(['node_modules', '.git', 'build', '.wrangler', 'test-output', '.dev.vars']);
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => {
      const rel = relative(root, src);
      if (!rel) return true;
      return !skip.has(rel.split(sep)[0]) && rel !== join('public', 'build');
    },
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/** The newest modification time of the files under `path` (a file or a folder). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** What a build is made from: a build older than any of it is stale. */
const BUILD_INPUTS = ['app', 'workers', 'drizzle', 'public', 'package.json', 'remix.config.js'];

/** The working tree's build, when it exists and is newer than its sources. */
function freshBuild(): boolean {
  const built = existsSync(join(root, 'build', 'index.js'))
    ? statSync(join(root, 'build', 'index.js')).mtimeMs
    : 0;
  if (!built || !existsSync(join(root, 'public', 'build'))) return false;
  const sources = Math.max(
    ...BUILD_INPUTS.map((p) => (p === 'public' ? newestOutsideBuild(join(root, p)) : newest(join(root, p)))),
  );
  return sources < built;
}

/** public/ without public/build (the build's own output). */
function newestOutsideBuild(dir: string): number {
  if (!existsSync(dir)) return 0;
  let max = 0;
  for (const entry of readdirSync(dir)) if (entry !== 'build') max = Math.max(max, newest(join(dir, entry)));
  return max;
}

/**
 * Puts a build into appDir (a copy of the working tree's fresh one, or `npm run build` there), and the
 * Worker bundled from it that the runtimes serve.
 */
function prepareBuild(log: (line: string) => void) {
  if (appDir !== root && freshBuild()) {
    cpSync(join(root, 'build'), join(appDir, 'build'), { recursive: true });
    cpSync(join(root, 'public', 'build'), join(appDir, 'public', 'build'), { recursive: true });
    log("e2e: using the working tree's build");
  } else if (!(appDir === root && freshBuild())) {
    log('e2e: building (npm run build)');
    const r = spawnSync('npm', ['run', 'build'], { cwd: appDir, env: childEnv(), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
  }
  const r = spawnSync(process.execPath, ['scripts/bundle.mjs'], {
    cwd: appDir,
    env: childEnv(),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`Bundling the Worker failed:\n${r.stdout}\n${r.stderr}`);
}

interface Running {
  instance: Instance;
  child: ChildProcess;
  persistDir: string;
  log: () => string;
  exited: () => boolean;
}

const running: Running[] = [];

const portOf = (url: string) => Number(new URL(url).port);
/** Node connects to the address the runtime listens on (127.0.0.1), whatever host the browser uses. */
const probeUrl = (url: string, path: string) => `http://127.0.0.1:${portOf(url)}${path}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function status(url: string): Promise<number | null> {
  try {
    const res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

/**
 * The environment of `npm start`, not of vitest: vitest sets NODE_ENV=test, which would make start.mjs's
 * `remix build` produce a test build instead of the production one a person runs.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_ENV;
  for (const key of Object.keys(env)) if (key.startsWith('VITEST')) delete env[key];
  return env;
}

function start(instance: Instance): Running {
  const persistDir = mkdtempSync(join(tmpdir(), `e2e-${instance.name}-`));
  const logFile = createWriteStream(join(logDir, `${instance.name}.log`));
  let output = '';
  let exited = false;
  const child = spawn(process.execPath, ['scripts/start.mjs', instance.region], {
    cwd: appDir,
    detached: true, // own process group: teardown kills -pid
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...childEnv(),
      PORT: String(portOf(instance.url)),
      PERSIST_DIR: persistDir,
      OTHER_REGION_URL: instance.otherRegionUrl,
      PUBLIC_URL: instance.url,
      MAINTENANCE: instance.maintenance ? '1' : '0',
      // One folder, one build, made before any Worker starts (prepareBuild).
      SKIP_BUILD: '1',
      WRANGLER_SEND_METRICS: 'false',
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    },
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    logFile.write(chunk);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  child.on('exit', () => {
    exited = true;
    logFile.end();
  });
  const r: Running = { instance, child, persistDir, log: () => output, exited: () => exited };
  running.push(r);
  return r;
}

async function waitUntil(r: Running, what: string, ready: () => Promise<boolean>) {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (r.exited()) break;
    if (await ready()) return;
    await sleep(250);
  }
  const tail = r.log().split('\n').slice(-40).join('\n');
  throw new Error(
    `${r.instance.name} Worker on ${r.instance.url} ${r.exited() ? 'exited' : 'timed out'} before ${what}.\n` +
      `Last output (full log: test-output/e2e-logs/${r.instance.name}.log):\n${tail}`,
  );
}

/** Ready: a normal instance has loaded the demo data and serves the login page; the maintenance one answers 503. */
async function waitReady(r: Running) {
  const { instance } = r;
  if (instance.maintenance) {
    await waitUntil(r, 'answering 503', async () => (await status(probeUrl(instance.url, '/'))) === 503);
  } else {
    await waitUntil(r, 'loading the demo data', async () => /Demo data loaded/.test(r.log()));
    await waitUntil(
      r,
      'serving /auth/login',
      async () => (await status(probeUrl(instance.url, '/auth/login'))) === 200,
    );
  }
}

function killGroup(r: Running, signal: NodeJS.Signals) {
  if (r.exited() || r.child.pid === undefined) return;
  try {
    process.kill(-r.child.pid, signal);
  } catch {
    // the group is already gone
  }
}

async function stopAll() {
  for (const r of running) killGroup(r, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (running.some((r) => !r.exited()) && Date.now() < deadline) await sleep(100);
  for (const r of running) killGroup(r, 'SIGKILL');
  for (const r of running) rmSync(r.persistDir, { recursive: true, force: true });
  running.length = 0;
  if (snapshotDir) rmSync(snapshotDir, { recursive: true, force: true });
  snapshotDir = null;
}

// If vitest dies without running teardown, do not leave the servers holding the ports.
const onExit = () => {
  for (const r of running) killGroup(r, 'SIGKILL');
};

export default async function setup(project: TestProject) {
  mkdirSync(logDir, { recursive: true });
  for (const instance of INSTANCES) {
    if (await portInUse(portOf(instance.url))) {
      throw new Error(
        `Port ${portOf(instance.url)} is already taken (a server left over from an earlier run?). ` +
          `Stop that process, then run the browser tests again.`,
      );
    }
  }
  process.once('exit', onExit);
  const started = Date.now();
  if (process.env.E2E_IN_PLACE !== '1') appDir = snapshotDir = snapshot();
  project.provide('appDir', appDir);
  const runDir = mkdtempSync(join(tmpdir(), 'e2e-run-'));
  project.provide('runDir', runDir);
  try {
    prepareBuild((line) => console.log(line));
    await Promise.all(INSTANCES.map((instance) => waitReady(start(instance))));
  } catch (e) {
    rmSync(runDir, { recursive: true, force: true });
    await stopAll();
    throw e;
  }
  profile({ kind: 'Workers start (before the first test)', ms: Date.now() - started });
  console.log(
    `e2e: ${running.length} Workers ready in ${((Date.now() - started) / 1000).toFixed(1)} s, running from ${appDir}`,
  );
  return async () => {
    rmSync(runDir, { recursive: true, force: true });
    await stopAll();
    process.off('exit', onExit);
  };
}
