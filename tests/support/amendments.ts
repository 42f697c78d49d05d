/**
 * Test world of amendments: the checkout world with the test product priced per week (the contract's
 * 95.00 per started week, UK tax 12 %), and a helper that issues policies through the real checkout, so
 * every amendment test starts from policies as customers get them.
 */
import { eq, inArray } from 'drizzle-orm';
import { invoices, policies, products, units } from '../../drizzle/schema';
import { seedApplicants, type ApplicantSeed } from '../../drizzle/seed/builders';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import {
  asSchool,
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  trip,
  type CheckoutWorld,
} from './checkout';

export type PolicyRow = typeof policies.$inferSelect;

export async function seedAmendmentsWorld(): Promise<CheckoutWorld> {
  const w = await seedCheckoutWorld();
  // Invoiced at checkout: the demo school's monthly terms would issue on account (periodic invoicing),
  // and amendments start from invoiced policies.
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  const [week] = await db().insert(units).values({ name: 'Week (amendment tests)', days: 7 }).returning();
  await db().update(products).set({ unit_id: week.id }).where(eq(products.id, w.product.id));
  return w;
}

/** Issues the applicants (default: `count` students on a 20-day trip starting in 10 days) through checkout. */
export async function issuePolicies(
  w: CheckoutWorld,
  applicants: ApplicantSeed[] | number,
  opts: { campus?: 'north' | 'south' } = {},
): Promise<PolicyRow[]> {
  await openBatch(
    w,
    typeof applicants === 'number' ? seedApplicants(applicants, trip(20)) : applicants,
    opts,
  );
  const result = await confirmOpenBatches(
    await asSchool(),
    confirmOpenSchema.parse({ checkout_key: checkoutKey() }),
  );
  const ids = 'invoice' in result ? [result.invoice.id] : result.invoices.map((i) => i.id);
  const invoiceRows = await db()
    .select({ id: invoices.id })
    .from(invoices)
    .where(inArray(invoices.public_id, ids));
  return db()
    .select()
    .from(policies)
    .where(
      inArray(
        policies.invoice_id,
        invoiceRows.map((i) => i.id),
      ),
    )
    .orderBy(policies.id);
}

export async function reload(rows: PolicyRow[]): Promise<PolicyRow[]> {
  return db()
    .select()
    .from(policies)
    .where(
      inArray(
        policies.id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(policies.id);
}

export { asSchool, day, db, trip };
