/**
 * Demo data of issuing: the regions' taxes and a client invoiced monthly.
 *
 * - United Kingdom: insurance premium tax at the HIGHER rate, 20 % (since 1 October 2016), which is the
 *   rate for travel insurance; the standard rate (12 %) the demo seeded before is deactivated. The
 *   country's page says so (taxes.notes.gb).
 * - Ireland: the 3 % levy on premiums, and its "stamp duty applicable" flag on (€1 per policy whose
 *   premium is at least €20, taxes.ts).
 *
 * - Oakwood (the demo school, on monthly terms): four policies ordered today on account, which the
 *   generate-invoices page previews and the daily task invoices once the month has ended.
 *
 * Call `seedIssuing(db, env)` after the demo companies, clients and policies exist (drizzle/seed/demo.ts).
 * It reads what is there and is safe to run again.
 */
import { and, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { campuses, clients, contracts, countries, policies, taxRates, users } from '../schema';
import type { DB } from '../../workers/platform/db';
import type { Env } from '../../workers/env';
import { loadActor } from '../../workers/domain/access/actor';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { isPeriodic } from '../../workers/domain/invoices/periodic';
import { randomToken } from '../../workers/platform/crypto';
import { todayIso } from '../../workers/domain/validation';
import { buildPolicyBatch, countryId, seedApplicants } from './builders';

export const DEMO_TAX_RATES = {
  GB: { rate_bp: 2000, start_date: '2016-10-01' },
  IE: { rate_bp: 300, start_date: '2009-05-01' },
} as const;

/** The demo countries' tax rates: UK IPT 20 % (travel insurance), Ireland 3 % levy and stamp duty. */
export async function seedRegionTaxes(db: DB): Promise<void> {
  const now = new Date();
  for (const [code, rate] of Object.entries(DEMO_TAX_RATES)) {
    const id = await countryId(db, code);
    const active = await db
      .select({ rate_bp: taxRates.rate_bp, start_date: taxRates.start_date })
      .from(taxRates)
      .where(and(eq(taxRates.country_id, id), eq(taxRates.active, true)));
    const done =
      active.length === 1 && active[0]!.rate_bp === rate.rate_bp && active[0]!.start_date === rate.start_date;
    if (done) continue;
    // One active rate per country (as the countries page keeps it): the others are kept, inactive.
    await db.update(taxRates).set({ active: false, updated_at: now }).where(eq(taxRates.country_id, id));
    await db
      .insert(taxRates)
      .values({ country_id: id, rate_bp: rate.rate_bp, start_date: rate.start_date, active: true });
  }
  await db
    .update(countries)
    .set({ stamp_duty_applicable: true, updated_at: now })
    .where(eq(countries.abbreviation, 'IE'));
}

/** The demo school on monthly terms, whose recent orders are on account until the month ends. */
export const DEMO_PERIODIC_CLIENT = 'Oakwood International School';
const DEMO_ORDERING_USER = 'admin@demo.test';

/**
 * A few policies on account for the demo client on monthly terms, booked today through the real checkout
 * (so the generate-invoices page and the daily task have something to invoice). Skipped when the client
 * is not on periodic terms or already has policies on account this month.
 */
export async function seedOnAccountPolicies(db: DB, env: Env, now = new Date()): Promise<number> {
  const [client] = await db.select().from(clients).where(eq(clients.name, DEMO_PERIODIC_CLIENT)).limit(1);
  if (!client || !isPeriodic(client.payment_terms)) return 0;
  const today = todayIso(now);
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)` })
    .from(policies)
    .where(
      and(
        eq(policies.client_id, client.id),
        isNull(policies.invoice_id),
        gte(policies.booking_date, `${today.slice(0, 8)}01`),
      ),
    );
  if (Number(n) > 0) return 0;
  const [row] = await db
    .select({ campus_id: campuses.id, contract_id: contracts.id })
    .from(contracts)
    .innerJoin(campuses, eq(campuses.id, contracts.campus_id))
    .where(
      and(
        eq(campuses.client_id, client.id),
        eq(contracts.status, 'active'),
        lte(contracts.start_date, today),
        or(
          isNull(contracts.end_date),
          gte(contracts.end_date, todayIso(new Date(now.getTime() + 90 * 86_400_000))),
        ),
      ),
    )
    .orderBy(campuses.id, contracts.id)
    .limit(1);
  const [user] = await db.select().from(users).where(eq(users.email, DEMO_ORDERING_USER)).limit(1);
  if (!row || !user) return 0;
  const actor = await loadActor(db, user.id);
  if (!actor) return 0;
  const day = (d: number) => todayIso(new Date(now.getTime() + d * 86_400_000));
  await buildPolicyBatch(db, {
    campusId: row.campus_id,
    contractId: row.contract_id,
    createdBy: user.id,
    applicants: seedApplicants(4, { start_date: day(21), end_date: day(50) }).map((a) => ({
      ...a,
      date_of_birth: '2007-03-14',
    })),
  });
  await confirmOpenBatches(
    { db, env, now, actor, lang: 'en' },
    {
      checkout_key: randomToken(),
      client_id: client.public_id,
      payment_method: 'invoiced_directly',
      send_welcome_email: false,
    },
  );
  return 4;
}

/**
 * Everything of issuing's demo data: the regions' taxes, then policies on account for the monthly
 * client. Call after the demo clients, contracts, policies and billing data exist.
 */
export async function seedIssuing(db: DB, env: Env): Promise<void> {
  await seedRegionTaxes(db);
  await seedOnAccountPolicies(db, env);
}
