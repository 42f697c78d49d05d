// `npm run bench:messages`: the message centre at 100,000 messages over 10,000 conversations, in a
// throw-away UK Worker in local workerd. Seeds the threads (drizzle/seed/message-volume.ts, through the
// development route POST /__dev/conversations/seed), then times GET /api/company/conversations (the
// inbox: folders, a status, a client, a search over subject and text) and GET conversations/unread for a
// company user and a school user, and prints the EXPLAIN QUERY PLAN of each statement: none may scan the
// conversations or messages table except the search's text match inside one thread's messages.
// Figures, never assertions; record them in docs/performance.md. BENCH_CONVERSATIONS, BENCH_PER_THREAD
// and BENCH_RUNS change the sizes.
import { startServer, snapshot, stats, time } from './server.mjs';
import { apiToken, devSecret } from './insureds-seed.mjs';

const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 10_000);
const PER_THREAD = Number(process.env.BENCH_PER_THREAD ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PORT = Number(process.env.BENCH_PORT ?? 8796);
const STAFF = 'admin@demo.test';
const SCHOOL = 'school.admin@demo.test';

async function dev(base, path, body) {
  const res = await fetch(`${base}/__dev/conversations/${path}`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`conversations/${path} answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

snapshot();
const server = await startServer({ port: PORT });
const rows = [];
const plans = [];
try {
  const t0 = performance.now();
  const seeded = await dev(server.base, 'seed', {
    conversations: CONVERSATIONS,
    per_thread: PER_THREAD,
    company_email: STAFF,
    school_email: SCHOOL,
    readers: [STAFF, SCHOOL],
  });
  console.log(
    `seeded ${seeded.conversations} conversations, ${seeded.messages} messages over ${seeded.clients} clients and ${seeded.campuses} campuses in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const tokens = {
    [STAFF]: await apiToken(server.base, STAFF),
    [SCHOOL]: await apiToken(server.base, SCHOOL),
  };
  const first = await (
    await fetch(`${server.base}/api/company/conversations?items=1`, {
      headers: { authorization: `Bearer ${tokens[STAFF]}` },
    })
  ).json();
  const client = first.data.conversations?.items?.[0]?.client?.id ?? first.data.items?.[0]?.client?.id;
  const filters = [
    ['inbox', {}],
    ['flagged', { folder: 'flagged' }],
    ['archived', { folder: 'archived' }],
    ['status', { status: 'waiting_on_client' }],
    ['unread only', { unread: '1' }],
    ['client', { client_id: client }],
    ['search', { search: 'refund' }],
    ['page 20', { page: '20' }],
  ];
  for (const [who, email] of [
    ['company', STAFF],
    ['school', SCHOOL],
  ]) {
    const headers = { authorization: `Bearer ${tokens[email]}` };
    for (const [name, f] of filters) {
      if (who === 'school' && name === 'client') continue;
      const q = new URLSearchParams(f).toString();
      const samples = [];
      let total = 0;
      for (let i = 0; i < 3; i++)
        await (await fetch(`${server.base}/api/company/conversations?${q}`, { headers })).text();
      for (let i = 0; i < RUNS; i++)
        samples.push(
          await time(async () => {
            const res = await fetch(`${server.base}/api/company/conversations?${q}`, { headers });
            const body = await res.json();
            if (res.status !== 200)
              throw new Error(`GET conversations?${q} answered ${res.status}: ${JSON.stringify(body)}`);
            total = (body.data.conversations ?? body.data).meta?.total ?? 0;
          }),
        );
      rows.push([`GET conversations, ${who} user, ${name} (${total} threads)`, stats(samples)]);
      plans.push([`${who} user, ${name}`, await dev(server.base, 'explain', { email, filters: f })]);
    }
    const unread = [];
    let count = 0;
    for (let i = 0; i < RUNS; i++)
      unread.push(
        await time(async () => {
          const res = await fetch(`${server.base}/api/company/conversations/unread`, { headers });
          const body = await res.json();
          if (res.status !== 200) throw new Error(`GET conversations/unread answered ${res.status}`);
          count = body.data.count;
        }),
      );
    rows.push([`GET conversations/unread, ${who} user (${count} unread)`, stats(unread)]);
  }
} finally {
  server.stop();
}

console.log('\n| measure | n | p50 ms | p95 ms | max ms |\n|---|---|---|---|---|');
for (const [name, s] of rows)
  console.log(`| ${name} | ${s.n} | ${s.p50.toFixed(1)} | ${s.p95.toFixed(1)} | ${s.max.toFixed(1)} |`);
console.log('\nEXPLAIN QUERY PLAN of each statement (the inbox page and count, the unread count):');
let scans = 0;
for (const [name, plan] of plans) {
  console.log(`- ${name}`);
  for (const [part, statements] of Object.entries(plan))
    statements.forEach((details, i) => {
      console.log(`    ${part} ${i + 1}: ${details.join(' | ')}`);
      if (details.some((d) => /^SCAN (conversations|conversation_messages)\b/.test(d))) scans++;
    });
}
console.log(
  scans
    ? `\n${scans} statement(s) SCAN a message centre table`
    : '\nNo statement scans a message centre table.',
);
