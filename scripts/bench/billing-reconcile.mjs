// Part of `npm run bench:billing` (also alone: `npm run bench:reconcile`): reconciling a 2000-line bank
// statement in a throw-away UK Worker in local workerd (target: under 3 s for upload + match + confirm).
// Each run writes 2000 unpaid invoices (the development route /__dev/reconciliation/invoices; not timed),
// builds the camt.053 statement paying each by its payment reference (/__dev/reconciliation/statement),
// then times, as finance through the API:
// - POST /api/company/bank-statements/upload: the file checked, stored in R2, read, its 2000 credits
//   matched and stored (one D1 batch), answered with the statement under review;
// - POST /api/company/bank-statements/{id}/confirm: 2000 payments recorded, the invoices settled and the
//   activity log written in one D1 batch;
// - both together.
// Prints figures; record them in docs/performance.md. Figures, never assertions.
import { readFileSync } from 'node:fs';
import { lastPin, snapshot, startServer, stats, time } from './server.mjs';

const LINES = Number(process.env.BENCH_LINES ?? 2000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.PORT ?? 8797);
const FINANCE = 'finance@demo.test';

function devSecret() {
  return readFileSync('.dev.vars', 'utf8')
    .match(/^SESSION_SECRET=(.*)$/m)[1]
    .trim();
}

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

async function apiToken(base, email) {
  const headers = { 'content-type': 'application/json' };
  const body = { email, password: 'Demo-Passw0rd!' };
  await (
    await fetch(`${base}/api/company/auth/sign-in`, { method: 'POST', headers, body: JSON.stringify(body) })
  ).text();
  const pin = await lastPin(base, email);
  const res = await fetch(`${base}/api/company/auth/sign-in`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...body, pin }),
  });
  return (await res.json()).data.token;
}

export async function reconcileBench({ base }, { lines = LINES, runs = RUNS } = {}) {
  const dev = (path, body) =>
    fetch(`${base}/__dev/reconciliation/${path}`, {
      method: 'POST',
      headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const token = await apiToken(base, FINANCE);
  const auth = { authorization: `Bearer ${token}` };
  const upload = [];
  const confirm = [];
  const total = [];
  for (let run = 0; run < runs; run++) {
    await json(await dev('invoices', { email: FINANCE, count: lines }), 'dev invoices');
    const { xml } = await json(await dev('statement', { email: FINANCE, every: true }), 'dev statement');
    let statement;
    const up = await time(async () => {
      const form = new FormData();
      form.set('file', new Blob([xml], { type: 'application/xml' }), `bench-${run}.xml`);
      const body = await json(
        await fetch(`${base}/api/company/bank-statements/upload`, {
          method: 'POST',
          headers: auth,
          body: form,
        }),
        'upload',
      );
      statement = body.data.bank_statement;
    });
    if (statement.line_count !== lines || statement.counts.matched !== lines)
      throw new Error(`Unexpected statement: ${JSON.stringify(statement.counts)} of ${statement.line_count}`);
    let confirmed;
    const co = await time(async () => {
      confirmed = (
        await json(
          await fetch(`${base}/api/company/bank-statements/${statement.id}/confirm`, {
            method: 'POST',
            headers: auth,
          }),
          'confirm',
        )
      ).data.bank_statement;
    });
    if (confirmed.counts.recorded !== lines)
      throw new Error(`Recorded ${confirmed.counts.recorded} of ${lines}`);
    upload.push(up);
    confirm.push(co);
    total.push(up + co);
  }
  return [
    [`POST bank-statements/upload: camt.053 of ${lines} credits read, matched, stored`, stats(upload)],
    [`POST bank-statements/{id}/confirm: ${lines} payments, invoices settled, logged`, stats(confirm)],
    [`reconciling a ${lines}-line statement (upload + match + confirm)`, stats(total)],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  snapshot();
  const server = await startServer({ port: PORT });
  try {
    const rows = await reconcileBench(server);
    console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
    for (const [name, s] of rows)
      console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
  } finally {
    server.stop();
  }
}
