/**
 * Demo data of issuing (issue 10, H1): the regions' taxes and a client invoiced monthly.
 *
 * - United Kingdom: insurance premium tax at the HIGHER rate, 20 % (since 1 October 2016), which is the
 *   rate for travel insurance; the standard rate (12 %) the demo seeded before is deactivated. The
 *   country's page says so (taxes.notes.gb).
 * - Ireland: the 3 % levy on premiums, and its "stamp duty applicable" flag on (€1 per policy whose
 *   premium is at least €20, taxes.ts).
 *
 * Call `seedIssuing(db)` after the demo companies, clients and policies exist (drizzle/seed/demo.ts).
 * It reads what is there and is safe to run again.
 */
import { and, eq } from 'drizzle-orm';
import { countries, taxRates } from '../schema';
import type { DB } from '../../workers/platform/db';
import { countryId } from './builders';

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

/** Everything of issuing's demo data. */
export async function seedIssuing(db: DB): Promise<void> {
  await seedRegionTaxes(db);
}
