// `npm run bench:amendments`: quoting and confirming an extension of 5000 policies in a throw-away UK
// Worker in local workerd (targets: quote < 2 s, confirm < 3 s). Each run issues 5000 policies through
// the real checkout (the development route /__dev/amendments/issue; timed apart), then times:
// - POST /api/company/policies/amount (the draft with its 5000 lines, then the quote: every line priced,
//   totals), answered with the quote;
// - POST /api/company/policies/amount/{id}/confirm: above 500 policies the confirmation is a job, so the
//   request answers at once; then the time until the page would see it applied (the job picked up by the
//   queue consumer, the one D1 batch run, polled every 20 ms), and the batch itself as the job measured it.
// Prints figures; record them in docs/performance.md. Figures, never assertions.
import { readFileSync } from 'node:fs';
import { lastPin, snapshot, startServer, stats, time } from './server.mjs';

const POLICIES = Number(process.env.BENCH_POLICIES ?? 5000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.PORT ?? 8796);
const SCHOOL = 'school.admin@demo.test';

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

const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what} answered ${res.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

export async function amendmentsBench({ base }, { policies = POLICIES, runs = RUNS } = {}) {
  const secret = devSecret();
  const token = await apiToken(base, SCHOOL);
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const issue = [];
  const quote = [];
  const confirmRequest = [];
  const applied = [];
  const batch = [];
  for (let run = 0; run < runs; run++) {
    let ids;
    issue.push(
      await time(async () => {
        const body = await json(
          await fetch(`${base}/__dev/amendments/issue`, {
            method: 'POST',
            headers: { 'x-dev-secret': secret, 'content-type': 'application/json' },
            body: JSON.stringify({ email: SCHOOL, applicants: policies, days: 20 }),
          }),
          'issue',
        );
        ids = body.policies.map((p) => p.id);
      }),
    );
    if (ids.length !== policies) throw new Error(`Issued ${ids.length} policies, not ${policies}`);
    let amendment;
    quote.push(
      await time(async () => {
        const body = await json(
          await fetch(`${base}/api/company/policies/amount`, {
            method: 'POST',
            headers: auth,
            body: JSON.stringify({ type: 'extend', policies: ids, new_end_date: day(14 + 27) }),
          }),
          'policies/amount',
        );
        amendment = body.data.amendment;
      }),
    );
    if (amendment.counts.policies !== policies || amendment.counts.with_errors)
      throw new Error(`Unexpected quote: ${JSON.stringify(amendment.counts)}`);
    const t0 = performance.now();
    await json(
      await fetch(`${base}/api/company/policies/amount/${amendment.id}/confirm`, {
        method: 'POST',
        headers: { authorization: auth.authorization },
      }),
      'confirm',
    );
    confirmRequest.push(performance.now() - t0);
    let view;
    for (;;) {
      view = (
        await json(
          await fetch(`${base}/api/company/policies/amount/${amendment.id}?items=1`, {
            headers: { authorization: auth.authorization },
          }),
          'amount/{id}',
        )
      ).data.amendment;
      if (view.status === 'confirmed' || view.job?.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    applied.push(performance.now() - t0);
    if (view.status !== 'confirmed') throw new Error(`Confirmation failed: ${JSON.stringify(view.job)}`);
    if (view.invoices.length !== 1)
      throw new Error(`Expected one supplementary invoice: ${JSON.stringify(view.invoices)}`);
    if (view.job?.result?.apply_ms != null) batch.push(view.job.result.apply_ms);
  }
  return [
    [`issue ${policies} policies through checkout (dev route, not measured work)`, stats(issue)],
    [`POST policies/amount: draft + quote of an extension of ${policies} policies`, stats(quote)],
    [`POST policies/amount/{id}/confirm (starts the job)`, stats(confirmRequest)],
    [`confirm until applied (job picked up, one D1 batch, supplementary invoice)`, stats(applied)],
    [`the confirmation's one D1 batch, as the job measured it`, stats(batch)],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  snapshot();
  const server = await startServer({ port: PORT });
  try {
    const rows = await amendmentsBench(server);
    console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
    for (const [name, s] of rows)
      console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
  } finally {
    server.stop();
  }
}
