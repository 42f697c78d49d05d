/**
 * Amendments and taxes: each line of a supplementary invoice or credit note keeps its tax rate, a credit
 * is at the policy's original rate whatever the country's rate is now, and stamp duty is neither charged
 * again on an extension nor refunded on a cancellation.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import {
  campuses,
  contracts,
  countries,
  invoiceItems,
  invoices,
  policies,
  taxRates,
} from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import {
  confirmAmendment,
  createAmendment,
  quoteAmendment,
} from '../../workers/domain/policies/amendments/service';
import type { ActorCtx } from '../../workers/domain/context';
import { SETUP_TIMEOUT_MS } from '../support/world';
import {
  asSchool,
  day,
  db,
  issuePolicies,
  reload,
  seedAmendmentsWorld,
  type PolicyRow,
} from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';

let w: CheckoutWorld;
let school: ActorCtx;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await asSchool();
  const d = db();
  const ie = await countryId(d, 'IE');
  await d.update(campuses).set({ country_id: ie }).where(eq(campuses.id, w.south.id));
  await d.update(countries).set({ stamp_duty_applicable: true }).where(eq(countries.id, ie));
  await d.insert(taxRates).values({ country_id: ie, rate_bp: 300, start_date: day(-400), active: true });
  await d.update(contracts).set({ currency: 'EUR' }).where(eq(contracts.id, w.southContract.id));
}, SETUP_TIMEOUT_MS);

async function amend(kind: 'extend' | 'cancel', rows: PolicyRow[], input: Record<string, string> = {}) {
  const { id } = await createAmendment(school, {
    kind,
    selection: { ids: rows.map((r) => r.public_id) },
    query: { page: 1, items: 25 },
  });
  await quoteAmendment(school, id, input);
  await confirmAmendment(school, id);
  const docs = await db()
    .select()
    .from(invoices)
    .where(inArray(invoices.type, ['supplementary', 'credit_note']));
  const doc = docs.sort((a, b) => b.id - a.id)[0];
  const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, doc.id));
  return { doc, items };
}

describe('amendments at the original rate', () => {
  it('extends and credits at the rate the policy was issued at after the country’s rate changed', async () => {
    const issued = await issuePolicies(w, 2); // UK, 12 %
    expect(issued.every((p) => p.tax_rate_bp === 1200)).toBe(true);
    // The rate goes up to 20 % from today: what was sold at 12 % stays at 12 %.
    await db()
      .insert(taxRates)
      .values({ country_id: await countryId(db(), 'GB'), rate_bp: 2000, start_date: day(0), active: true });

    const ext = await amend('extend', [issued[0]], { new_end_date: day(36) });
    expect(ext.doc.type).toBe('supplementary');
    expect(ext.items).toHaveLength(1);
    expect(ext.items[0]).toMatchObject({ kind: 'adjustment', tax_rate_bp: 1200, stamp_duty_minor: 0 });
    expect(ext.items[0].tax_minor).toBe(Math.round(ext.items[0].unit_minor * 0.12));
    expect(ext.doc.tax_minor).toBe(ext.items[0].tax_minor);

    const [before] = await reload([issued[1]]);
    const cn = await amend('cancel', [issued[1]], { reason: 'Did not travel' });
    expect(cn.doc.type).toBe('credit_note');
    expect(cn.items[0]).toMatchObject({
      tax_rate_bp: 1200,
      unit_minor: before.premium_minor,
      tax_minor: before.tax_minor,
    });
    expect(cn.doc.total_minor).toBe(before.premium_minor + before.tax_minor);
  });

  it('falls back to the proportion of tax for a policy issued before rates were kept', async () => {
    const [p] = await issuePolicies(w, 1);
    // As 0009 found it: no rate, tax 15 % of the premium.
    const tax = Math.round(p.premium_minor * 0.15);
    await db().update(policies).set({ tax_rate_bp: null, tax_minor: tax }).where(eq(policies.id, p.id));
    const ext = await amend('extend', [p], { new_end_date: day(36) });
    expect(ext.items[0].tax_rate_bp).toBeNull();
    expect(ext.items[0].tax_minor).toBe(Math.round((ext.items[0].unit_minor * tax) / p.premium_minor));
  });

  it('neither charges stamp duty again on an extension nor refunds it on a cancellation', async () => {
    const issued = await issuePolicies(w, 2, { campus: 'south' }); // Ireland: 3 % levy, stamp duty
    expect(issued.map((p) => p.stamp_duty_minor)).toEqual([100, 100]);
    expect(issued.every((p) => p.tax_rate_bp === 300)).toBe(true);

    const ext = await amend('extend', [issued[0]], { new_end_date: day(36) });
    expect(ext.doc.currency).toBe('EUR');
    expect(ext.doc.stamp_duty_minor).toBe(0);
    expect(ext.items[0]).toMatchObject({ tax_rate_bp: 300, stamp_duty_minor: 0 });
    expect(ext.doc.total_minor).toBe(ext.doc.insurance_cost_minor + ext.doc.tax_minor);

    const cn = await amend('cancel', [issued[1]], { reason: 'Did not travel' });
    expect(cn.doc.stamp_duty_minor).toBe(0);
    expect(cn.items[0].stamp_duty_minor).toBe(0);
    expect(cn.doc.total_minor).toBe(issued[1].premium_minor + issued[1].tax_minor);
    const [after] = await db()
      .select()
      .from(policies)
      .where(and(eq(policies.id, issued[1].id)));
    expect(after).toMatchObject({ status: 'cancelled', stamp_duty_minor: 100 });
  });
});
