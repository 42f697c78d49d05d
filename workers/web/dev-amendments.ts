import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { campuses, policies, users } from '../../drizzle/schema';
import { buildPolicyBatch, seedApplicants, type ApplicantSeed } from '../../drizzle/seed/builders';
import type { Env } from '../env';
import { createDb } from '../platform/db';
import { randomToken } from '../platform/crypto';
import { loadActor } from '../domain/access/actor';
import { buildWeeklyContract } from '../../drizzle/seed/amendments';
import { confirmOpenBatches } from '../domain/checkout/service';
import type { PaymentChoice } from '../domain/checkout/terms';
import type { ActorCtx } from '../domain/context';
import { devOnly } from './dev';

/**
 * Development-only (devOnly: absent in production, needs the local SESSION_SECRET): issues policies for a
 * user through the real checkout, so the amendment browser tests and the amendment bench start from
 * policies as customers get them, under a contract priced per week (drizzle/seed/amendments.ts). POST /__dev/amendments/issue { email, applicants?, first_names?,
 * family? (the first student gets an immediate family member), start_in_days?, days?, payment_method? }.
 * `payment_method` is the checkout's choice (default the client's usual one: on account under the demo
 * school's monthly terms, so no invoice until the month ends; `credit_card` invoices at once). Answers the
 * policies (public id, number, names), their invoice and client.
 */
export const devAmendments = new Hono<{ Bindings: Env }>().use('*', devOnly).post('/issue', async (c) => {
  const input = (await c.req.json()) as {
    email: string;
    applicants?: number;
    first_names?: string[];
    family?: boolean;
    start_in_days?: number;
    days?: number;
    payment_method?: PaymentChoice;
  };
  const db = createDb(c.env.DB);
  const [user] = await db.select().from(users).where(eq(users.email, input.email.toLowerCase()));
  if (!user) return c.json({ message: 'No such user' }, 404);
  const actor = await loadActor(db, user.id);
  if (!actor) return c.json({ message: 'The user cannot act' }, 400);
  const ctx: ActorCtx = { db, env: c.env, now: new Date(), actor, lang: 'en' };
  const [campus] = await db
    .select()
    .from(campuses)
    .where(eq(campuses.client_id, user.client_id ?? -1))
    .orderBy(campuses.id)
    .limit(1);
  if (!campus) return c.json({ message: 'No campus' }, 404);
  const contractRow = await buildWeeklyContract(db, campus.id);
  const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
  const from = input.start_in_days ?? 14;
  const trip = { start_date: day(from), end_date: day(from + (input.days ?? 20) - 1) };
  const applicants: ApplicantSeed[] = seedApplicants(
    Math.min(Math.max(input.applicants ?? 3, 1), 5000),
    trip,
  ).map((a, i) => ({
    ...a,
    first_name: input.first_names?.[i] ?? a.first_name,
    date_of_birth: '2006-05-17',
  }));
  if (input.family)
    applicants.push({
      first_name: 'Family',
      last_name: `${applicants[0].last_name}`,
      type: 'immediate_family',
      date_of_birth: '2008-01-01',
      dependency_index: 0,
      ...trip,
    });
  const { batch } = await buildPolicyBatch(db, {
    campusId: campus.id,
    contractId: contractRow.id,
    createdBy: user.id,
    applicants,
  });
  await confirmOpenBatches(ctx, {
    checkout_key: randomToken(),
    send_welcome_email: false,
    payment_method: input.payment_method,
  });
  const issued = await db
    .select({
      id: policies.public_id,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      type: policies.type,
      invoice_id: sql<string | null>`(SELECT public_id FROM invoices WHERE id = ${policies.invoice_id})`,
      client_id: sql<string>`(SELECT public_id FROM clients WHERE id = ${policies.client_id})`,
    })
    .from(policies)
    .where(eq(policies.batch_id, batch.id))
    .orderBy(policies.id);
  return c.json({ policies: issued });
});
