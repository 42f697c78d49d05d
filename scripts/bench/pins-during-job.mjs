// `npm run bench:pins`: sign-ins while a big PDF job runs, in a throw-away UK Worker in the local runtime
// (the same local runtime as `npm start` and the browser tests). Starts the invoices ZIP job over every
// invoice finance can see (the demo has about 224: above 200, so a queued job of PDFs), and while its
// queue deliveries render the PDFs, signs in over the API again and again, as a person would: password,
// the PIN from the development mailbox, PIN. Prints the job's time, each sign-in's steps (how long
// until the PIN was in the mailbox) and the slowest request: none may be held (BENCH_HELD_MS, 10 s,
// counts as held). Figures, never assertions; record them in docs/performance.md.
// BENCH_URL=http://localhost:8787 measures a Worker already running (`npm start`) instead of a fresh one;
// BENCH_FORMAT=excel runs the Excel job instead; BENCH_PORT picks the fresh one's port (default 8797).
import { startServer, snapshot, stats } from './server.mjs';

const PORT = Number(process.env.BENCH_PORT ?? 8797);
const FORMAT = process.env.BENCH_FORMAT ?? 'pdf';
const HELD_MS = Number(process.env.BENCH_HELD_MS ?? 10_000);
const JOB_LIMIT_MS = Number(process.env.BENCH_JOB_LIMIT_MS ?? 600_000);
const FINANCE = 'finance@demo.test';
const SIGNER = 'admin@demo.test';
const PASSWORD = 'Demo-Passw0rd!';

const requests = [];
/** fetch that records each request's time (the slowest one, and any held). */
async function timed(label, url, init) {
  const t = performance.now();
  const res = await fetch(url, init);
  const body = await res.text();
  const ms = performance.now() - t;
  requests.push({ label, ms });
  return { status: res.status, body, ms };
}

const json = (body) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

async function newestPin(base, email) {
  const { body } = await timed('GET /dev/mailbox', `${base}/dev/mailbox?to=${encodeURIComponent(email)}`);
  return body.match(/\b(\d{6})\b/)?.[1] ?? null;
}

/**
 * One API sign-in: password (the PIN is sent), the PIN read from the mailbox (waited for, at most
 * 60 s), then the PIN. Answers the token and the times of its steps.
 */
async function signIn(base, email) {
  const started = performance.now();
  const before = await newestPin(base, email);
  const password = await timed(
    'POST sign-in (password)',
    `${base}/api/company/auth/sign-in`,
    json({ email, password: PASSWORD }),
  );
  if (password.status !== 202) throw new Error(`sign-in answered ${password.status}: ${password.body}`);
  const asked = performance.now();
  let pin = null;
  while (performance.now() - asked < 60_000) {
    const newest = await newestPin(base, email);
    if (newest && newest !== before) {
      pin = newest;
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!pin) throw new Error(`No PIN for ${email} within 60 s of the password step`);
  const pinMs = performance.now() - asked;
  const done = await timed(
    'POST sign-in (PIN)',
    `${base}/api/company/auth/sign-in`,
    json({ email, password: PASSWORD, pin }),
  );
  if (done.status !== 200) throw new Error(`PIN step answered ${done.status}: ${done.body}`);
  return {
    token: JSON.parse(done.body).data.token,
    passwordMs: password.ms,
    pinMs,
    totalMs: performance.now() - started,
  };
}

async function allInvoiceIds(base, token) {
  const ids = [];
  for (let page = 1; ; page++) {
    const { status, body } = await timed(
      'GET /api/company/invoices',
      `${base}/api/company/invoices?items=100&page=${page}`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    if (status !== 200) throw new Error(`invoices answered ${status}: ${body}`);
    const { items, meta } = JSON.parse(body).data.invoices;
    ids.push(...items.map((i) => i.id));
    if (ids.length >= meta.total || !items.length) return ids;
  }
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
const figures = (samples) => {
  const { n, p50, p95, max } = stats(samples);
  return `n ${n}, p50 ${Math.round(p50)} ms, p95 ${Math.round(p95)} ms, max ${Math.round(max)} ms`;
};

/** BENCH_URL: a Worker already running (`npm start`), else a throw-away one. */
async function server() {
  if (process.env.BENCH_URL) return { base: process.env.BENCH_URL.replace(/\/$/, ''), stop() {} };
  snapshot();
  const started = performance.now();
  const running = await startServer({ port: PORT });
  console.log(`Worker up with demo data in ${s(performance.now() - started)}`);
  return running;
}

const { base, stop } = await server();
try {
  const finance = await signIn(base, FINANCE);
  const ids = await allInvoiceIds(base, finance.token);
  const auth = { authorization: `Bearer ${finance.token}` };

  const jobStarted = performance.now();
  const start = await timed('POST invoices/download', `${base}/api/company/invoices/download`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ ids, format: FORMAT }),
  });
  if (start.status !== 202) throw new Error(`download answered ${start.status}: ${start.body.slice(0, 300)}`);
  const job = JSON.parse(start.body).data.job;
  console.log(`${FORMAT} job over ${ids.length} invoices started (${job.total} to render)`);

  // Sign-ins, one after another, while the job runs.
  const signIns = [];
  let running = true;
  const signer = (async () => {
    while (running) signIns.push(await signIn(base, SIGNER));
  })();

  let status = job;
  const progress = [];
  while (status.status !== 'done' && status.status !== 'failed') {
    if (performance.now() - jobStarted > JOB_LIMIT_MS) break;
    await new Promise((r) => setTimeout(r, 500));
    const poll = await timed('GET job status', `${base}${job.status_url}`, { headers: auth });
    status = JSON.parse(poll.body).data.job;
    if (progress.at(-1)?.done !== status.done)
      progress.push({ at: performance.now() - jobStarted, done: status.done });
  }
  const jobMs = performance.now() - jobStarted;
  running = false;
  await signer;

  console.log(
    `\njob: ${status.status} (${status.done}/${status.total}) in ${s(jobMs)}` +
      (status.status === 'done' ? `, ZIP ${(status.size / 1_048_576).toFixed(1)} MB` : ' (gave up waiting)'),
  );
  console.log(`progress: ${progress.map((p) => `${p.done} at ${s(p.at)}`).join(', ')}`);
  console.log(`sign-ins during the job: ${signIns.length}`);
  if (signIns.length) {
    console.log(`  password step answered:  ${figures(signIns.map((x) => x.passwordMs))}`);
    console.log(`  PIN in the mailbox after: ${figures(signIns.map((x) => x.pinMs))}`);
    console.log(`  whole sign-in:           ${figures(signIns.map((x) => x.totalMs))}`);
  }
  const slowest = [...requests].sort((a, b) => b.ms - a.ms).slice(0, 3);
  const held = requests.filter((r) => r.ms > HELD_MS);
  console.log(
    `requests: ${requests.length}; slowest: ${slowest.map((r) => `${r.label} ${Math.round(r.ms)} ms`).join(', ')}`,
  );
  console.log(`held (over ${s(HELD_MS)}): ${held.length}`);
  if (status.status !== 'done') process.exitCode = 1;
} finally {
  stop();
}
