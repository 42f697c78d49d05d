/**
 * The development routes the browser tests use to put data in place through the real domain (only
 * served with the development secret): issued policies through the real checkout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { UK_URL } from './servers';

export function devSecret(): string {
  const vars = readFileSync(join(inject('appDir'), '.dev.vars'), 'utf8');
  return vars.match(/^SESSION_SECRET=(.*)$/m)![1].trim();
}

export interface IssuedPolicy {
  id: string;
  policy_number: string;
  first_name: string;
  last_name: string;
  type: string;
  invoice_id: string;
  client_id: string;
}

/**
 * Policies issued through the real checkout by /__dev/amendments/issue (body: email, applicants,
 * first_names, days, payment_method). Invoiced at once by card unless the body says otherwise: a policy
 * on account has no invoice to charge or credit until its month ends.
 */
export async function issuePolicies(body: Record<string, unknown>, base = UK_URL): Promise<IssuedPolicy[]> {
  const res = await fetch(`${base}/__dev/amendments/issue`, {
    method: 'POST',
    headers: { 'x-dev-secret': devSecret(), 'content-type': 'application/json' },
    body: JSON.stringify({ payment_method: 'credit_card', ...body }),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`issue answered ${res.status}: ${text}`);
  return (JSON.parse(text) as { policies: IssuedPolicy[] }).policies;
}
