// `npm run bench:billing`: the billing benchmarks one after another: the summary at 50,000
// invoices (billing-summary.mjs), and, where they exist, the invoice PDF and Excel of 5000 policies
// (billing-invoice.mjs) and reconciling a 2000-line bank statement (billing-reconcile.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

for (const name of ['billing-summary', 'billing-invoice', 'billing-reconcile']) {
  const file = `scripts/bench/${name}.mjs`;
  if (!existsSync(file)) {
    console.log(`(${file} not present: skipped)`);
    continue;
  }
  console.log(`--- ${name}`);
  const r = spawnSync('node', [file], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
}
