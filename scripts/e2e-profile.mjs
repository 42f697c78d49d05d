// `npm run profile:e2e -- <file>`: where the browser suite's time went, from the lines a run with
// E2E_PROFILE=<file> wrote (tests/e2e/support/profile.ts): per kind of step, how many, their total time
// (summed over both shards, so it can pass the wall time) and the median and slowest.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? process.env.E2E_PROFILE;
if (!file) {
  console.error('usage: npm run profile:e2e -- <file written by a run with E2E_PROFILE=<file>>');
  process.exit(2);
}
const kinds = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const { kind, ms } = JSON.parse(line);
  if (!kinds.has(kind)) kinds.set(kind, []);
  kinds.get(kind).push(ms);
}
const rows = [...kinds].map(([kind, times]) => {
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return { kind, n: times.length, total, p50: times[Math.floor(times.length / 2)], max: times.at(-1) };
});
rows.sort((a, b) => b.total - a.total);
const s = (ms) => (ms / 1000).toFixed(1);
console.log('| step | n | total s | p50 s | max s |');
console.log('|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.kind} | ${r.n} | ${s(r.total)} | ${s(r.p50)} | ${s(r.max)} |`);
