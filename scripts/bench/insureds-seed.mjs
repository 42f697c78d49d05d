// The insureds benchmark's data, for reuse by other benchmarks (the amendments' quote and confirm):
// `seedInsureds(base, { count, clients, campuses })` fills a running local Worker (startServer) with
// `count` issued policies of the demo company over new clients and campuses, through the development
// route POST /__dev/policies/seed (drizzle/seed/policy-volume.ts). `apiToken(base, email)` signs in.
import { readFileSync } from 'node:fs';
import { lastPin } from './server.mjs';

export function devSecret(dir = '.') {
  return readFileSync(`${dir}/.dev.vars`, 'utf8')
    .match(/^SESSION_SECRET=(.*)$/m)[1]
    .trim();
}

export async function seedInsureds(base, { count = 100_000, clients = 5, campuses = 3 } = {}) {
  const res = await fetch(`${base}/__dev/policies/seed`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ count, clients, campuses }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`policies/seed answered ${res.status}: ${text}`);
  return JSON.parse(text);
}

/** A bearer token of a demo user (the same token is the page session: cookie `sid`). */
export async function apiToken(base, email) {
  const headers = { 'content-type': 'application/json' };
  const body = { email, password: 'Demo-Passw0rd!' };
  await (
    await fetch(`${base}/api/company/auth/sign-in`, { method: 'POST', headers, body: JSON.stringify(body) })
  ).text();
  // The PIN is sent during the sign-in request; the mailbox is read a few times in case it was late.
  let pin = null;
  for (let i = 0; i < 20 && !pin; i++) {
    await new Promise((r) => setTimeout(r, 300));
    pin = await lastPin(base, email).catch(() => null);
  }
  if (!pin) throw new Error(`No PIN for ${email}`);
  const res = await fetch(`${base}/api/company/auth/sign-in`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ...body, pin }),
  });
  return (await res.json()).data.token;
}

/** EXPLAIN QUERY PLAN of the list's statements (ids of a page, count) for a user and filters. */
export async function explainList(base, email, filters) {
  const res = await fetch(`${base}/__dev/policies/explain`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, filters }),
  });
  if (!res.ok) throw new Error(`policies/explain answered ${res.status}: ${await res.text()}`);
  return res.json();
}
