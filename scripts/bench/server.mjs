// Starts a throw-away Worker (fresh local D1, demo data) for benchmarks and screenshots, and stops it.
import { spawn } from 'node:child_process';
import { cpSync, createWriteStream, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';

/**
 * `build: false` serves the build and bundle as they are (several Workers started beside each other from
 * one build); `publicUrl` and `otherRegionUrl` are the portal's own address and the other region's.
 */
export async function startServer({
  port = 8799,
  region = 'uk',
  build = true,
  publicUrl = `http://127.0.0.1:${port}`,
  otherRegionUrl,
} = {}) {
  const persist = mkdtempSync(join(tmpdir(), 'bench-'));
  const child = spawn('node', ['scripts/start.mjs', region], {
    env: {
      ...process.env,
      PORT: String(port),
      PERSIST_DIR: persist,
      PUBLIC_URL: publicUrl,
      ...(otherRegionUrl ? { OTHER_REGION_URL: otherRegionUrl } : {}),
      ...(build ? {} : { SKIP_BUILD: '1' }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  // BENCH_SERVER_LOG=file keeps the Worker's output (console.log from the code under measurement).
  const keep = process.env.BENCH_SERVER_LOG ? createWriteStream(process.env.BENCH_SERVER_LOG) : null;
  child.stdout.on('data', (d) => ((log += d), keep?.write(d)));
  child.stderr.on('data', (d) => ((log += d), keep?.write(d)));
  let exited = false;
  child.on('exit', () => (exited = true));
  const base = `http://127.0.0.1:${port}`;
  // A build, the migrations and the seed: about a minute, several on a machine busy with other work.
  const limit = Date.now() + Number(process.env.BENCH_START_MS ?? 600_000);
  while (Date.now() < limit && !exited && !/Demo data loaded|already has data/.test(log))
    await new Promise((r) => setTimeout(r, 500));
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    rmSync(persist, { recursive: true, force: true });
  };
  if (!/Demo data loaded|already has data/.test(log)) {
    stop();
    throw new Error(`Server did not start:\n${log}`);
  }
  return {
    base,
    /** The local D1/R2 folder (PERSIST_DIR of start.mjs), for benchmarks that seed with SQL. */
    persist,
    stop,
  };
}

/** Reads the newest 6-digit PIN sent to an address from the development mailbox. */
export async function lastPin(base, email) {
  const html = await (await fetch(`${base}/dev/mailbox?to=${encodeURIComponent(email)}`)).text();
  const match = html.match(/\b(\d{6})\b/);
  if (!match) throw new Error(`No PIN for ${email}`);
  return match[1];
}

export function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
  return { n: s.length, p50: at(50), p95: at(95), max: s[s.length - 1] };
}

export async function time(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * Runs from a snapshot of the working tree (node_modules linked), as the browser tests do: a build by
 * anyone else in the tree would otherwise swap the assets under the benchmark in the middle of a run.
 */
export function snapshot() {
  const root = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), 'bench-app-'));
  const skip = new Set(['node_modules', '.git', 'build', '.wrangler', 'test-output']);
  cpSync(root, dir, {
    recursive: true,
    filter: (src) => {
      const rel = relative(root, src);
      return !rel || (!skip.has(rel.split(sep)[0]) && rel !== join('public', 'build'));
    },
  });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  process.chdir(dir);
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
