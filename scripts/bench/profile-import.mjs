// `npm run bench:import:profile`: a CPU profile of one 5000-row import inside local workerd, taken
// through the local runtime's inspector on INSPECTOR_PORT, 9229 by default (the same V8 the Worker runs in,
// D1 and R2 calls included as idle time).
// Writes import.cpuprofile (open it in Chrome DevTools' Performance panel) and prints the functions
// that took the most time. A tool for finding where the time goes, not a figure to record.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import WebSocket from 'ws';
import { benchSheet, importOnce, orderPlace, ROWS } from './import-lib.mjs';
import { snapshot, startServer } from './server.mjs';

const out = resolve(process.env.PROFILE_OUT ?? 'import.cpuprofile');
// The Worker started below opens its inspector there (scripts/local-runtime.mjs).
const INSPECTOR = Number((process.env.INSPECTOR_PORT ??= '9229'));

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((t) => t.webSocketDebuggerUrl);
  if (!target) throw new Error(`No inspector target on port ${port}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((ok, fail) => ws.on('open', ok).on('error', fail));
  let id = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (!pending.has(m.id)) return;
    pending.get(m.id)(m);
    pending.delete(m.id);
  });
  return {
    call: (method, params = {}) =>
      new Promise((ok) => {
        pending.set(++id, ok);
        ws.send(JSON.stringify({ id, method, params }));
      }),
    close: () => ws.close(),
  };
}

/** Self time per function (ms), biggest first. */
function hotspots(profile, top = 30) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const n = byId.get(profile.samples[i]);
    const f = n.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
}

/** Time per function including what it calls (ms), for the functions named in PROFILE_FUNCTIONS. */
function inclusive(profile, names) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map(names.map((n) => [n, 0]));
  for (let i = 0; i < profile.samples.length; i++) {
    const seen = new Set();
    for (let id = profile.samples[i]; id != null; id = parent.get(id)) {
      const name = byId.get(id).callFrame.functionName;
      if (total.has(name) && !seen.has(name)) {
        seen.add(name);
        total.set(name, total.get(name) + (profile.timeDeltas[i] ?? 0) / 1000);
      }
    }
  }
  return [...total.entries()];
}

const FUNCTIONS = (
  process.env.PROFILE_FUNCTIONS ??
  'uploadImport,checkSheetFile,readXlsx,toSheet,confirmMapping,runStaging,stagedRows,stageEnrollments,enrollmentValues,revalidateBatch,batchCounts,runBatch,importProgress'
).split(',');

snapshot();
const file = await benchSheet();
const server = await startServer();
try {
  const { token, campus, contract } = await orderPlace(server.base);
  // Warm-up imports first, so the profile shows steady work, not compilation.
  await importOnce(server.base, token, campus, contract, await benchSheet(50));
  await importOnce(server.base, token, campus, contract, file);
  const cdp = await inspector(INSPECTOR);
  await cdp.call('Profiler.enable');
  await cdp.call('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.call('Profiler.start');
  const r = await importOnce(server.base, token, campus, contract, file);
  const { result } = await cdp.call('Profiler.stop');
  cdp.close();
  writeFileSync(out, JSON.stringify(result.profile));
  console.log(`${ROWS} applicants: ${r.ms.toFixed(0)} ms (${JSON.stringify(r.parts)}); profile in ${out}\n`);
  console.log('Self time:');
  for (const [name, ms] of hotspots(result.profile)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
  console.log('\nIncluding what they call:');
  for (const [name, ms] of inclusive(result.profile, FUNCTIONS))
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${name}`);
} finally {
  server.stop();
}
