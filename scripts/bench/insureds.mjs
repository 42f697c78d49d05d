// `npm run bench:insureds`: the insureds list at 100,000 policies, in a throw-away UK Worker in local
// workerd. Seeds the policies (insureds-seed.mjs), then times the /insureds page (server-rendered HTML,
// the same session as a signed-in browser) and GET /api/company/policies with typical filters (none, a
// name prefix, a status, a date range, a campus) for a company user and a school user, and prints the
// EXPLAIN QUERY PLAN of each filter's statements: none may scan the policies table. Figures, never
// assertions; record them in docs/performance.md. BENCH_POLICIES and BENCH_RUNS change the sizes.
import { startServer, snapshot, stats, time } from './server.mjs';
import { apiToken, explainList, seedInsureds } from './insureds-seed.mjs';

const COUNT = Number(process.env.BENCH_POLICIES ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 8795);
const day = (n) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

snapshot();
const server = await startServer({ port: PORT });
const rows = [];
const plans = [];
try {
  const t0 = performance.now();
  const seeded = await seedInsureds(server.base, { count: COUNT });
  console.log(
    `seeded ${seeded.policies} policies over ${seeded.campuses} campuses in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  // One sign-in per user (a second PIN could be read before it arrives).
  const tokens = {
    'admin@demo.test': await apiToken(server.base, 'admin@demo.test'),
    'school.admin@demo.test': await apiToken(server.base, 'school.admin@demo.test'),
  };
  const campusRes = await fetch(`${server.base}/api/company/policies?items=1&order=issued_at_desc`, {
    headers: { authorization: `Bearer ${tokens['admin@demo.test']}` },
  });
  const campus = (await campusRes.json()).data.policies.items[0].campus.id;
  const users = [
    ['company', 'admin@demo.test'],
    ['school', 'school.admin@demo.test'],
  ];
  const filters = [
    ['none', {}],
    ['name prefix', { last_name: 'Kow' }],
    ['status', { status: 'active' }],
    ['date range', { start_from: day(-30), start_to: day(30) }],
    ['campus', { campus }],
    ['policy id', { policy_id: 'P0005' }],
    ['type', { type: 'group_leader' }],
  ];
  for (const [who, email] of users) {
    const token = tokens[email];
    for (const [name, f] of filters) {
      if (who === 'school' && name === 'campus') continue;
      const q = new URLSearchParams(f).toString();
      const page = [];
      const api = [];
      let total = 0;
      // Warm-up: the first requests compile code paths.
      for (let i = 0; i < 3; i++)
        await (
          await fetch(`${server.base}/insureds?${q}`, { headers: { cookie: `uk_sid=${token}` } })
        ).text();
      for (let i = 0; i < RUNS; i++) {
        page.push(
          await time(async () => {
            const res = await fetch(`${server.base}/insureds?${q}`, {
              headers: { cookie: `uk_sid=${token}` },
            });
            const html = await res.text();
            if (res.status !== 200 || !html.includes('<table'))
              throw new Error(`/insureds?${q} answered ${res.status}`);
          }),
        );
        api.push(
          await time(async () => {
            const res = await fetch(`${server.base}/api/company/policies?${q}`, {
              headers: { authorization: `Bearer ${token}` },
            });
            const body = await res.json();
            if (res.status !== 200)
              throw new Error(`GET policies?${q} answered ${res.status}: ${JSON.stringify(body)}`);
            total = body.data.policies.meta.total;
          }),
        );
      }
      rows.push([`/insureds page, ${who} user, ${name} (${total} rows)`, stats(page)]);
      rows.push([`GET /api/company/policies, ${who} user, ${name}`, stats(api)]);
      const plan = await explainList(server.base, email, f);
      plans.push([`${who} user, ${name}`, plan]);
    }
  }
} finally {
  server.stop();
}

console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
for (const [name, s] of rows)
  console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
console.log('\nEXPLAIN QUERY PLAN of each filter (rows of a page; count):');
let scans = 0;
for (const [name, plan] of plans) {
  console.log(`- ${name}`);
  for (const part of ['rows', 'count']) {
    console.log(`    ${part}: ${plan[part].join(' | ')}`);
    if (plan[part].some((d) => /^SCAN policies\b/.test(d))) scans++;
  }
}
console.log(
  scans ? `\n${scans} statement(s) SCAN the policies table` : '\nNo statement scans the policies table.',
);
