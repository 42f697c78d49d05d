// `npm run bench:import`: a realistic 5000-row .xlsx (17 columns, a few per cent bad rows, families and
// group leaders) imported into a throw-away UK Worker in local workerd: the time from the upload
// request to the moment the applicants are ready for review (upload and checks, column mapping, the
// staging job on the queue), against the bare exceljs parse of the same file in local workerd.
// Prints figures; record them in docs/performance.md. Figures, never assertions.
import { spawn } from 'node:child_process';
import { benchSheet, importOnce, json, orderPlace, ROWS } from './import-lib.mjs';
import { snapshot, startServer, stats, time } from './server.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const PARSE_PORT = 8798;

async function startParseWorker() {
  const child = spawn(
    'node_modules/.bin/wrangler',
    [
      'dev',
      '--config',
      'scripts/bench/parse-worker.toml',
      '--port',
      String(PARSE_PORT),
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: 'false' },
    },
  );
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  for (let i = 0; i < 120 && !/Ready on/.test(log); i++) await new Promise((r) => setTimeout(r, 500));
  if (!/Ready on/.test(log)) throw new Error(`The parse worker did not start:\n${log}`);
  return {
    url: `http://127.0.0.1:${PARSE_PORT}`,
    stop() {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    },
  };
}

snapshot();
const file = await benchSheet();
console.log(`Sheet: ${ROWS} applicants, ${(file.length / 1024).toFixed(0)} KB .xlsx`);

const parser = await startParseWorker();
const parse = [];
try {
  await fetch(parser.url, { method: 'POST', body: file }); // warm-up
  for (let i = 0; i < RUNS + 2; i++)
    parse.push(await time(async () => json(await fetch(parser.url, { method: 'POST', body: file }))));
} finally {
  parser.stop();
}

const server = await startServer();
const ready = [];
let last;
try {
  const { token, campus, contract } = await orderPlace(server.base);
  // One warm-up import (first requests compile code paths), then the measured ones.
  await importOnce(server.base, token, campus, contract, await benchSheet(50));
  for (let i = 0; i < RUNS; i++) {
    const r = await importOnce(server.base, token, campus, contract, file);
    ready.push(r.ms);
    last = r.view;
    console.log(
      `run ${i + 1}: ${r.ms.toFixed(0)} ms = upload ${r.parts.upload.toFixed(0)} + mapping ${r.parts.mapping.toFixed(0)} + queue and staging ${r.parts.staging.toFixed(0)}`,
    );
  }
} finally {
  server.stop();
}

const p = stats(parse);
const r = stats(ready);
console.log(`\nStaged: ${last.total} rows, ${last.errors} with errors or waiting for a family link\n`);
console.log('| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
console.log(
  `| bare exceljs parse of the sheet (workerd) | ${p.n} | ${p.p50.toFixed(0)} | ${p.p95.toFixed(0)} | ${p.max.toFixed(0)} |`,
);
console.log(
  `| upload to review-ready (workerd, queue) | ${r.n} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} |`,
);
console.log(
  `\nratio (p50): ${(r.p50 / p.p50).toFixed(2)}x the bare parse (target: at most 3x, and under 3000 ms)`,
);
