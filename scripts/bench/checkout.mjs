// `npm run bench:checkout`: checkout of a 5000-applicant cart to an issued invoice in a throw-away UK
// Worker in local workerd. Each run puts one open batch of valid applicants into the demo school's cart
// (through the ordering domain, by the development route /__dev/ordering/open-batch; timed apart), then
// times POST /api/company/policy-batches/confirm-open: 5000 policies with numbers, the invoice with its
// items, the batch confirmed; once without and once with the welcome emails (5000 outbox rows, queued).
// Prints figures; record them in docs/performance.md. Figures, never assertions.
// `checkoutBench(server)` is exported for other benchmark scripts (bench:import runs it after its own).
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { lastPin, startServer, stats, time } from './server.mjs';

const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SCHOOL = 'school.admin@demo.test';

function devSecret(dir = '.') {
  return readFileSync(`${dir}/.dev.vars`, 'utf8')
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

export async function checkoutBench({ base }, { applicants = APPLICANTS, runs = RUNS } = {}) {
  const secret = devSecret();
  const token = await apiToken(base, SCHOOL);
  const fill = [];
  const plain = [];
  const welcome = [];
  // The runs without welcome emails first: the emails of a run are delivered by the queue consumer in the
  // background, on the same local database, and would slow the runs after them.
  for (let run = 0; run < runs * 2; run++) {
    const withWelcome = run >= runs;
    fill.push(
      await time(async () => {
        const res = await fetch(`${base}/__dev/ordering/open-batch`, {
          method: 'POST',
          headers: { 'x-dev-secret': secret, 'content-type': 'application/json' },
          body: JSON.stringify({ email: SCHOOL, applicants }),
        });
        const text = await res.text();
        if (!res.ok) throw new Error(`open-batch answered ${res.status}: ${text}`);
      }),
    );
    let answer;
    const ms = await time(async () => {
      const res = await fetch(`${base}/api/company/policy-batches/confirm-open`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          checkout_key: randomBytes(18).toString('base64url'),
          payment_method: 'invoiced_directly',
          send_welcome_email: withWelcome,
        }),
      });
      answer = await res.json();
      if (!res.ok) throw new Error(`confirm-open answered ${res.status}: ${JSON.stringify(answer)}`);
    });
    const count = answer.data.invoice?.policy_count;
    if (count !== applicants) throw new Error(`Expected ${applicants} policies, the invoice has ${count}`);
    (withWelcome ? welcome : plain).push(ms);
  }
  return [
    [`fill the cart: ${applicants} applicants staged and opened (dev route, not checkout)`, stats(fill)],
    [`POST policy-batches/confirm-open, ${applicants} applicants → issued invoice`, stats(plain)],
    [`the same with welcome emails (${applicants} outbox rows, queued)`, stats(welcome)],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startServer({ port: 8797 });
  try {
    const rows = await checkoutBench(server);
    console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
    for (const [name, s] of rows)
      console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
  } finally {
    server.stop();
  }
}
