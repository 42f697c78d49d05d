/**
 * Taxes per region (workers/domain/invoices/taxes.ts, fees.ts, checkout): the UK's insurance premium
 * tax, Ireland's levy and its stamp duty per policy from €20, each line keeping its rate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  campuses,
  contracts,
  countries,
  invoiceItems,
  invoices,
  policies,
  taxRates,
} from '../../drizzle/schema';
import { countryId, seedApplicants } from '../../drizzle/seed/builders';
import { confirmOpenBatches, planCheckout } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { feeForDays, type Pricing } from '../../workers/domain/enrollments/fees';
import {
  premiumTax,
  STAMP_DUTY,
  stampDutyFor,
  taxAtOriginalRate,
  taxAtRate,
} from '../../workers/domain/invoices/taxes';
import { seedRegionTaxes } from '../../drizzle/seed/issuing';
import { taxRateFor } from '../../workers/domain/countries/service';
import { SETUP_TIMEOUT_MS } from '../support/world';
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
} from '../support/checkout';

const pricing = (over: Partial<Pricing> = {}): Pricing => ({
  sale_minor: 1000,
  custom_minor: null,
  net_minor: 500,
  currency: 'EUR',
  unit_days: null,
  min_days: 1,
  tax: null,
  ...over,
});

describe('the stamp duty rule', () => {
  it('is €1 per policy whose premium is at least €20, where the country applies it, in euro only', () => {
    expect(STAMP_DUTY).toEqual({ amount_minor: 100, threshold_minor: 2000, currency: 'EUR' });
    expect(stampDutyFor(2000, 'EUR', true)).toBe(100);
    expect(stampDutyFor(1999, 'EUR', true)).toBe(0);
    expect(stampDutyFor(250_000, 'eur', true)).toBe(100);
    expect(stampDutyFor(5000, 'EUR', false)).toBe(0);
    expect(stampDutyFor(5000, 'GBP', true)).toBe(0);
  });
});

describe('tax and rounding per line', () => {
  it('charges a rate per policy, rounded half up, and a flat tax as it is', () => {
    expect(premiumTax(10_000, { rate_bp: 2000, amount_minor: null })).toEqual({
      tax_minor: 2000,
      tax_rate_bp: 2000,
    });
    // 3 % of 16.50 is 0.495: half up to 0.50; of 16.49 is 0.4947: 0.49.
    expect(premiumTax(1650, { rate_bp: 300, amount_minor: null }).tax_minor).toBe(50);
    expect(premiumTax(1649, { rate_bp: 300, amount_minor: null }).tax_minor).toBe(49);
    expect(premiumTax(1000, { rate_bp: null, amount_minor: 250 })).toEqual({
      tax_minor: 250,
      tax_rate_bp: null,
    });
    expect(premiumTax(1000, null)).toEqual({ tax_minor: 0, tax_rate_bp: null });
    // A credit rounds as its charge does, with the sign turned.
    expect(taxAtRate(-1650, 300)).toBe(-50);
  });

  it('puts the stamp duty in the fee as its own amount, untaxed, in the total', () => {
    const ie = pricing({ tax: { rate_bp: 300, amount_minor: null }, stamp_duty: true, sale_minor: 2500 });
    expect(feeForDays(10, ie)).toMatchObject({
      premium_minor: 2500,
      tax_minor: 75,
      tax_rate_bp: 300,
      stamp_duty_minor: 100,
      total_minor: 2675,
    });
    expect(feeForDays(10, { ...ie, sale_minor: 1999 })).toMatchObject({
      stamp_duty_minor: 0,
      total_minor: 1999 + 60,
    });
    const uk = pricing({ currency: 'GBP', tax: { rate_bp: 2000, amount_minor: null }, sale_minor: 4599 });
    expect(feeForDays(10, uk)).toMatchObject({ tax_minor: 920, stamp_duty_minor: 0, total_minor: 5519 });
  });

  it('credits at the rate the policy was issued at, else at the proportion of its tax', () => {
    expect(taxAtOriginalRate(-5000, { premium_minor: 10_000, tax_minor: 1200, tax_rate_bp: 1200 })).toEqual({
      tax: -600,
      rate: 0.12,
      rate_bp: 1200,
    });
    // Issued before rates were kept per policy: its tax over its premium.
    expect(taxAtOriginalRate(-3333, { premium_minor: 10_000, tax_minor: 2000 })).toMatchObject({
      tax: -667,
      rate: 0.2,
    });
    expect(taxAtOriginalRate(100, { premium_minor: 0, tax_minor: 0 })).toMatchObject({ tax: 0, rate: 0 });
  });
});

describe('checkout with the regions’ taxes', () => {
  let w: CheckoutWorld;
  let ieCampus: number;

  beforeAll(async () => {
    w = await seedCheckoutWorld();
    await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
    const d = db();
    // The UK's insurance premium tax at the higher rate, from today (the world's 12 % started earlier).
    await d
      .insert(taxRates)
      .values({ country_id: await countryId(d, 'GB'), rate_bp: 2000, start_date: day(0), active: true });
    // The South campus is in Ireland, its contract in euro; Ireland levies 3 % and applies stamp duty.
    const ie = await countryId(d, 'IE');
    ieCampus = w.south.id;
    await d.update(campuses).set({ country_id: ie }).where(eq(campuses.id, w.south.id));
    await d.update(countries).set({ stamp_duty_applicable: true }).where(eq(countries.id, ie));
    await d.insert(taxRates).values({ country_id: ie, rate_bp: 300, start_date: day(-400), active: true });
    await d.update(contracts).set({ currency: 'EUR' }).where(eq(contracts.id, w.southContract.id));
  }, SETUP_TIMEOUT_MS);

  const checkout = async () => {
    const result = await confirmOpenBatches(
      await asSchool(),
      confirmOpenSchema.parse({ checkout_key: checkoutKey() }),
    );
    if (!('invoice' in result)) throw new Error('expected one invoice');
    const [invoice] = await db().select().from(invoices).where(eq(invoices.public_id, result.invoice.id));
    const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, invoice.id));
    const pols = await db().select().from(policies).where(eq(policies.invoice_id, invoice.id));
    return { invoice, items, pols };
  };

  it('charges UK IPT at 20 % per policy and keeps the rate on the policy and its line', async () => {
    await openBatch(w, 3);
    const { invoice, items, pols } = await checkout();
    expect(pols).toHaveLength(3);
    for (const p of pols) {
      expect(p.tax_rate_bp).toBe(2000);
      expect(p.tax_minor).toBe(Math.round(p.premium_minor * 0.2));
      expect(p.stamp_duty_minor).toBe(0);
    }
    for (const i of items)
      expect(i).toMatchObject({ kind: 'premium', tax_rate_bp: 2000, stamp_duty_minor: 0 });
    expect(invoice.tax_minor).toBe(pols.reduce((t, p) => t + p.tax_minor, 0));
    expect(invoice.stamp_duty_minor).toBe(0);
    expect(invoice.total_minor).toBe(invoice.insurance_cost_minor + invoice.tax_minor);
  });

  it('charges Ireland’s 3 % levy and €1 stamp duty per policy of €20 or more, shown before checkout', async () => {
    await openBatch(w, 2, { campus: 'south' });
    const plan = await planCheckout(await asSchool());
    expect(plan.groups[0].currency).toBe('EUR');
    expect(plan.groups[0].stamp_duty_minor).toBe(200);
    expect(plan.groups[0].total_minor).toBe(plan.groups[0].premium_minor + plan.groups[0].tax_minor + 200);
    const { invoice, items, pols } = await checkout();
    expect(pols.every((p) => p.premium_minor >= 2000)).toBe(true);
    for (const p of pols) {
      expect(p).toMatchObject({ tax_rate_bp: 300, stamp_duty_minor: 100, campus_id: ieCampus });
      expect(p.tax_minor).toBe(Math.round(p.premium_minor * 0.03));
    }
    for (const i of items) expect(i.total_minor).toBe(i.unit_minor + i.tax_minor + i.stamp_duty_minor);
    expect(invoice.stamp_duty_minor).toBe(200);
    expect(invoice.total_minor).toBe(invoice.insurance_cost_minor + invoice.tax_minor + 200);
    expect(invoice.total_minor).toBe(plan.groups[0].total_minor);
  });

  it('charges no stamp duty under €20, nor where the flag is off', async () => {
    await db()
      .update(contracts)
      .set({ sale_minor: 1, custom_minor: null })
      .where(eq(contracts.id, w.southContract.id));
    await openBatch(w, 1, { campus: 'south' });
    const cheap = await checkout();
    expect(cheap.pols[0].premium_minor).toBeLessThan(2000);
    expect(cheap.invoice.stamp_duty_minor).toBe(0);

    await db().update(contracts).set({ sale_minor: 9000 }).where(eq(contracts.id, w.southContract.id));
    await db()
      .update(countries)
      .set({ stamp_duty_applicable: false })
      .where(eq(countries.abbreviation, 'IE'));
    await openBatch(w, [...seedApplicants(1, trip(20))], { campus: 'south' });
    const off = await checkout();
    expect(off.pols[0].premium_minor).toBeGreaterThanOrEqual(2000);
    expect(off.invoice.stamp_duty_minor).toBe(0);
    expect(off.pols[0].tax_rate_bp).toBe(300);
    await db()
      .update(countries)
      .set({ stamp_duty_applicable: true })
      .where(and(eq(countries.abbreviation, 'IE')));
  });
});

describe('the demo tax rates', () => {
  it('gives the UK its higher IPT rate and Ireland its levy and stamp duty, once however often run', async () => {
    const d = db();
    await seedRegionTaxes(d);
    await seedRegionTaxes(d);
    const gb = await countryId(d, 'GB');
    const ie = await countryId(d, 'IE');
    expect(await taxRateFor(d, gb, day(0))).toMatchObject({ rate_bp: 2000 });
    expect(await taxRateFor(d, ie, day(0))).toMatchObject({ rate_bp: 300 });
    for (const id of [gb, ie]) {
      const active = await d
        .select()
        .from(taxRates)
        .where(and(eq(taxRates.country_id, id), eq(taxRates.active, true)));
      expect(active).toHaveLength(1);
    }
    const [flag] = await d.select().from(countries).where(eq(countries.id, ie));
    expect(flag.stamp_duty_applicable).toBe(true);
  });
});
