// `node scripts/bench/billing-invoice.mjs` (also run by `npm run bench:billing`): the PDF and
// the Excel of an invoice with 5000 policies, in a throw-away UK Worker in local workerd (target under
// 2 s each). The invoice is made by the real checkout (the development route /__dev/amendments/issue,
// not timed), then GET /api/company/invoices/{id}/pdf and /excel are timed, each RUNS times.
// Prints figures; record them in docs/performance.md. Figures, never assertions.
import { readFileSync } from 'node:fs';
import { lastPin, snapshot, startServer, stats, time } from './server.mjs';

const POLICIES = Number(process.env.BENCH_POLICIES ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.PORT ?? 8811);
const SCHOOL = 'school.admin@demo.test';
const FINANCE = 'finance@demo.test';

function devSecret() {
  return readFileSync('.dev.vars', 'utf8')
    .match(/^SESSION_SECRET=(.*)$/m)[1]
    .trim();
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

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export async function billingInvoiceBench({ base }, { policies = POLICIES, runs = RUNS } = {}) {
  const token = await apiToken(base, SCHOOL);
  const auth = { authorization: `Bearer ${token}` };
  const issued = await json(
    await fetch(`${base}/__dev/amendments/issue`, {
      method: 'POST',
      headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
      body: JSON.stringify({ email: SCHOOL, applicants: policies, days: 20 }),
    }),
    'issue',
  );
  if (issued.policies.length !== policies) throw new Error(`Issued ${issued.policies.length} policies`);
  // Oakwood is invoiced monthly: its checkout issues on account, so finance invoices the day on demand
  // (clients/{id}/generate-invoices), as the monthly task would at the end of the month.
  const finance = { authorization: `Bearer ${await apiToken(base, FINANCE)}` };
  const found = await json(
    await fetch(`${base}/api/company/clients?search=Oakwood`, { headers: finance }),
    'clients',
  );
  const oakwood = found.data.clients.items[0];
  const today = new Date().toISOString().slice(0, 10);
  await json(
    await fetch(`${base}/api/company/clients/${oakwood.id}/generate-invoices`, {
      method: 'POST',
      headers: { ...finance, 'content-type': 'application/json' },
      body: JSON.stringify({ from: today, to: today }),
    }),
    'generate-invoices',
  );
  const list = await json(
    await fetch(`${base}/api/company/invoices?order=date_desc&items=50`, { headers: auth }),
    'invoices',
  );
  // The day's invoice holds the 5000 policies (and any the demo left on account today).
  const invoice = list.data.invoices.items
    .filter((i) => i.policy_count >= policies)
    .sort((a, b) => a.policy_count - b.policy_count)[0];
  if (!invoice)
    throw new Error(
      `No invoice of ${policies} policies among ${JSON.stringify(
        list.data.invoices.items.map((i) => [i.number, i.date, i.policy_count]).slice(0, 10),
      )}`,
    );
  const pdf = [];
  const excel = [];
  let sizes = {};
  for (let run = 0; run < runs; run++) {
    pdf.push(
      await time(async () => {
        const res = await fetch(`${base}/api/company/invoices/${invoice.id}/pdf`, { headers: auth });
        if (!res.ok) throw new Error(`pdf answered ${res.status}`);
        sizes.pdf = (await res.arrayBuffer()).byteLength;
      }),
    );
    excel.push(
      await time(async () => {
        const res = await fetch(`${base}/api/company/invoices/${invoice.id}/excel`, { headers: auth });
        if (!res.ok) throw new Error(`excel answered ${res.status}`);
        sizes.excel = (await res.arrayBuffer()).byteLength;
      }),
    );
  }
  return [
    [`GET invoices/{id}/pdf, ${policies} lines (${Math.round(sizes.pdf / 1024)} KB)`, stats(pdf)],
    [`GET invoices/{id}/excel, ${policies} lines (${Math.round(sizes.excel / 1024)} KB)`, stats(excel)],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  snapshot();
  const server = await startServer({ port: PORT });
  try {
    const rows = await billingInvoiceBench(server);
    console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
    for (const [name, s] of rows)
      console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
  } finally {
    server.stop();
  }
}
