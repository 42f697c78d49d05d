// `npm run bench:billing` (part): the billing summary at 50,000 invoices, in a throw-away UK Worker in
// local workerd. Seeds BENCH_INVOICES invoices (default 50,000) of the demo company over 200 new clients
// and 14 months, a third paid, a sixth part paid, with their payments, straight into the local D1 with
// set-based SQL (wrangler d1 execute), then times GET /api/company/billing/summary and the /billing page
// (server-rendered HTML, the same session as a signed-in browser) for the finance user. Figures, never
// assertions; record them in docs/performance.md.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, snapshot, stats, time } from './server.mjs';
import { apiToken } from './insureds-seed.mjs';

const COUNT = Number(process.env.BENCH_INVOICES ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 8796);

function sql(server, text) {
  const file = join(server.persist, 'seed.sql');
  writeFileSync(file, text);
  const r = spawnSync(
    'npx',
    [
      'wrangler',
      'd1',
      'execute',
      'DB',
      '--local',
      '--env',
      'uk',
      '--persist-to',
      server.persist,
      '--file',
      file,
      '--yes',
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`d1 execute failed:\n${r.stdout}\n${r.stderr}`);
}

snapshot();
const server = await startServer({ port: PORT });
try {
  const t0 = performance.now();
  const company = `(SELECT id FROM companies WHERE name LIKE 'Albion%' ORDER BY id LIMIT 1)`;
  sql(
    server,
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
     INSERT INTO clients (public_id, name, company_id, type) SELECT 'benchc' || i, 'Bench Client ' || i, ${company}, 'school' FROM n;
     WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${COUNT})
     INSERT INTO invoices (public_id, number, company_id, client_id, status, payment_method, currency, date, due_at,
       insurance_cost_minor, tax_minor, total_minor, paid_minor, type, payment_reference, created_at, updated_at)
     SELECT 'benchi' || i, 'BENCH' || printf('%07d', i), ${company},
       (SELECT id FROM clients WHERE public_id = 'benchc' || (1 + i % 200)),
       CASE WHEN i % 3 = 0 THEN 'paid' ELSE 'unpaid' END, 'invoiced_directly', 'GBP',
       date('now', '-' || (i % 425) || ' days'), date('now', '-' || (i % 425) || ' days', '+30 days'),
       10000 + i % 5000, 2000, 12000 + i % 5000,
       CASE WHEN i % 3 = 0 THEN 12000 + i % 5000 WHEN i % 6 = 1 THEN 4000 ELSE 0 END,
       'invoice', 'BENCHREF' || i, 0, 0 FROM n;
     INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, amount_minor, currency, paid_on, created_at, updated_at)
       SELECT 'bencht' || id, id, 'payment', 'manual', 'succeeded', paid_minor, currency, date(date, '+10 days'), 0, 0
       FROM invoices WHERE public_id LIKE 'benchi%' AND paid_minor > 0;`,
  );
  console.log(`seeded ${COUNT} invoices in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const token = await apiToken(server.base, 'finance@demo.test');
  const api = [];
  const page = [];
  let outstanding = null;
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${server.base}/api/company/billing/summary`, {
      headers: { authorization: `Bearer ${token}` },
    });
    outstanding = (await r.json()).data.currencies;
    await (await fetch(`${server.base}/billing`, { headers: { cookie: `uk_sid=${token}` } })).text();
  }
  for (let i = 0; i < RUNS; i++) {
    api.push(
      await time(async () => {
        const r = await fetch(`${server.base}/api/company/billing/summary`, {
          headers: { authorization: `Bearer ${token}` },
        });
        if (!r.ok) throw new Error(`summary answered ${r.status}`);
        await r.text();
      }),
    );
    page.push(
      await time(async () => {
        const r = await fetch(`${server.base}/billing`, { headers: { cookie: `uk_sid=${token}` } });
        if (!r.ok) throw new Error(`/billing answered ${r.status}`);
        await r.text();
      }),
    );
  }
  console.log('outstanding:', JSON.stringify(outstanding));
  const fmt = (s) => `median ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms (n=${s.n})`;
  console.log(`GET /api/company/billing/summary at ${COUNT} invoices: ${fmt(stats(api))}`);
  console.log(`/billing page at ${COUNT} invoices: ${fmt(stats(page))}`);
} finally {
  server.stop();
}
