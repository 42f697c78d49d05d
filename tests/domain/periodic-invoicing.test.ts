/**
 * Periodic invoicing (workers/domain/invoices/periodic.ts): periods per terms, checkout on account,
 * the daily task, the client's invoice rules, on demand, and a policy invoiced once only.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, isNull, like } from 'drizzle-orm';
import {
  activityLogs,
  addresses,
  clients,
  invoiceItems,
  invoices,
  policies,
  policyBatches,
  sequences,
} from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import {
  endedPeriods,
  generateInvoices,
  invoicedOn,
  periodOf,
  previewInvoices,
  runPeriodicInvoicing,
} from '../../workers/domain/invoices/periodic';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx, testEnv } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  asSchool,
  checkoutKey,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  type CheckoutWorld,
} from '../support/checkout';
import { todayIso } from '../../workers/domain/validation';
import { seedOnAccountPolicies } from '../../drizzle/seed/issuing';

describe('periods per terms', () => {
  it('cuts weeks, fortnights, half months and months, ending on the due date of the terms', () => {
    expect(periodOf('weekly', '2026-11-25')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    expect(periodOf('weekly', '2026-11-29')).toEqual({ from: '2026-11-23', to: '2026-11-29' });
    // ISO weeks 47-48 of 2026 pair up (week 47 is odd): 16 to 29 November.
    expect(periodOf('bi_weekly', '2026-11-17')).toEqual({ from: '2026-11-16', to: '2026-11-29' });
    expect(periodOf('bi_weekly', '2026-11-29')).toEqual({ from: '2026-11-16', to: '2026-11-29' });
    expect(periodOf('bi_weekly', '2026-11-30')).toEqual({ from: '2026-11-30', to: '2026-12-13' });
    expect(periodOf('semi_monthly', '2026-11-15')).toEqual({ from: '2026-11-01', to: '2026-11-15' });
    expect(periodOf('semi_monthly', '2026-11-16')).toEqual({ from: '2026-11-16', to: '2026-11-30' });
    expect(periodOf('monthly', '2028-02-10')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(invoicedOn('monthly', '2026-12-31')).toBe('2027-01-01');
    expect(invoicedOn('weekly', '2026-11-25')).toBe('2026-11-30');
  });

  it('lists the periods that have ended, each once, in order', () => {
    expect(
      endedPeriods('monthly', ['2026-10-03', '2026-09-30', '2026-10-31', '2026-11-02'], '2026-11-05'),
    ).toEqual([
      { from: '2026-09-01', to: '2026-09-30' },
      { from: '2026-10-01', to: '2026-10-31' },
    ]);
    expect(endedPeriods('weekly', ['2026-11-29'], '2026-11-29')).toEqual([]);
    expect(endedPeriods('weekly', ['2026-11-29'], '2026-11-30')).toHaveLength(1);
  });
});

describe('invoicing what was issued on account', () => {
  let w: CheckoutWorld;
  const nextMonth = () => {
    const d = new Date();
    return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 2, 3));
  };

  beforeAll(async () => {
    w = await seedCheckoutWorld();
    await setClientTerms(w.oakwood.id, 'monthly', 'bank_transfer');
    await db().update(clients).set({ invoice_rule: 'by_location' }).where(eq(clients.id, w.oakwood.id));
    await db()
      .delete(addresses)
      .where(and(eq(addresses.owner_type, 'client'), eq(addresses.owner_id, w.oakwood.id)));
    await db()
      .insert(addresses)
      .values({
        owner_type: 'client',
        owner_id: w.oakwood.id,
        kind: 'billing',
        address: '1 School Lane',
        city: 'Oxford',
        postal_code: 'OX1 1AA',
        country_id: await countryId(db(), 'GB'),
      });
  }, SETUP_TIMEOUT_MS);

  const invoiceSeq = async () =>
    (await db().select().from(sequences).where(eq(sequences.name, 'invoice')))[0]?.value ?? 0;
  const onAccount = () =>
    db()
      .select()
      .from(policies)
      .where(and(eq(policies.client_id, w.oakwood.id), isNull(policies.invoice_id)));
  const checkoutOnAccount = async (key = checkoutKey()) =>
    confirmOpenBatches(
      await asSchool(),
      confirmOpenSchema.parse({ checkout_key: key, payment_method: 'invoiced_directly' }),
    );

  it('issues the policies of a client on monthly terms without an invoice, once per checkout key', async () => {
    const before = await invoiceSeq();
    await openBatch(w, 2);
    await openBatch(w, 1, { campus: 'south' });
    const key = checkoutKey();
    const result = await checkoutOnAccount(key);
    expect('invoice' in result).toBe(false);
    if ('invoice' in result) return;
    expect(result.invoices).toEqual([]);
    expect(result.policy_batches.map((b) => b.invoice)).toEqual([null, null]);
    const today = todayIso(new Date());
    expect(result.on_account).toHaveLength(2);
    expect(result.on_account![0]).toMatchObject({
      policies: 2,
      payment_terms: 'monthly',
      invoiced_on: invoicedOn('monthly', today),
    });
    expect(await onAccount()).toHaveLength(3);
    expect(await invoiceSeq()).toBe(before);
    const batches = await db().select().from(policyBatches).where(eq(policyBatches.client_id, w.oakwood.id));
    expect(batches.filter((b) => b.status === 'confirmed' && b.invoice_id == null)).toHaveLength(2);
    // The same key again (a double click) answers the same, issuing nothing more.
    const again = await checkoutOnAccount(key);
    expect(again).toEqual(result);
    expect(await onAccount()).toHaveLength(3);
  });

  it('leaves a period that has not ended alone, then invoices it per campus the day after it ends, once', async () => {
    expect(await runPeriodicInvoicing({ db: db(), env: testEnv(), now: new Date(), actor: null })).toEqual({
      invoices: 0,
      clients: 0,
    });
    const before = await invoiceSeq();
    const ran = await runPeriodicInvoicing({ db: db(), env: testEnv(), now: nextMonth(), actor: null });
    expect(ran).toEqual({ invoices: 2, clients: 1 });
    expect(await onAccount()).toHaveLength(0);
    const made = await db()
      .select()
      .from(invoices)
      .where(like(invoices.checkout_key, 'periodic:%'))
      .orderBy(asc(invoices.number));
    expect(made).toHaveLength(2);
    // Numbered at issue from the series with no gap.
    expect(made.map((i) => i.number)).toEqual([
      `INV${String(before + 1).padStart(7, '0')}`,
      `INV${String(before + 2).padStart(7, '0')}`,
    ]);
    expect(await invoiceSeq()).toBe(before + 2);
    const period = periodOf('monthly', todayIso(new Date()));
    for (const i of made) {
      expect(i).toMatchObject({
        period_from: period.from,
        period_to: period.to,
        status: 'unpaid',
        payment_method: 'invoiced_directly',
        date: todayIso(nextMonth()),
      });
      expect(i.campus_id).not.toBeNull();
      expect(i.billing_address).toMatchObject({
        name: w.oakwood.name,
        address: '1 School Lane',
        city: 'Oxford',
      });
      const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, i.id));
      expect(items.reduce((t, x) => t + x.total_minor, 0)).toBe(i.total_minor);
      expect(i.total_minor).toBeGreaterThan(0);
    }
    expect(made.map((i) => i.campus_id).sort()).toEqual([w.north.id, w.south.id].sort());
    const logged = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'invoice'),
          inArray(
            activityLogs.entity_id,
            made.map((i) => i.id),
          ),
        ),
      );
    expect(logged).toHaveLength(2);
    // The next day's run finds nothing left.
    const next = new Date(nextMonth().getTime() + 86_400_000);
    expect((await runPeriodicInvoicing({ db: db(), env: testEnv(), now: next, actor: null })).invoices).toBe(
      0,
    );
    expect(await invoiceSeq()).toBe(before + 2);
  });

  it('by group: one invoice per group name; on demand with a group, previewed first, once', async () => {
    await db().update(clients).set({ invoice_rule: 'by_group' }).where(eq(clients.id, w.oakwood.id));
    await openBatch(w, 3);
    await checkoutOnAccount();
    const pols = await onAccount();
    await db().update(policies).set({ group_name: 'Rowing' }).where(eq(policies.id, pols[0].id));
    await db()
      .update(policies)
      .set({ group_name: 'Chess' })
      .where(inArray(policies.id, [pols[1].id, pols[2].id]));
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const today = todayIso(new Date());
    const range = { from: today, to: today };

    const chess = await previewInvoices(
      finance,
      { client: w.oakwood.public_id },
      { ...range, group: 'Chess' },
    );
    expect(chess.invoices).toHaveLength(1);
    expect(chess.invoices[0]).toMatchObject({ group_name: 'Chess', policies: 2 });
    expect(await onAccount()).toHaveLength(3); // a preview changes nothing

    const all = await previewInvoices(finance, { client: w.oakwood.public_id }, range);
    expect(all.invoices.map((i) => [i.group_name, i.policies])).toEqual([
      ['Chess', 2],
      ['Rowing', 1],
    ]);
    const issued = await generateInvoices(
      finance,
      { client: w.oakwood.public_id },
      { ...range, group: 'Chess' },
    );
    expect(issued.invoices).toHaveLength(1);
    expect(issued.invoices[0].total_minor).toBe(chess.invoices[0].total_minor);
    const [row] = await db().select().from(invoices).where(eq(invoices.public_id, issued.invoices[0].id));
    expect(row).toMatchObject({
      group_name: 'Chess',
      period_from: today,
      period_to: today,
      campus_id: w.north.id,
    });
    // Twice: nothing more.
    expect(
      (await generateInvoices(finance, { client: w.oakwood.public_id }, { ...range, group: 'Chess' }))
        .invoices,
    ).toEqual([]);
    expect(await onAccount()).toHaveLength(1);
  });

  it('invoice campus directly: per campus, billed to the campus; a campus on demand takes only its own', async () => {
    await db()
      .update(clients)
      .set({ invoice_rule: 'invoice_campus_directly' })
      .where(eq(clients.id, w.oakwood.id));
    await db().insert(addresses).values({
      owner_type: 'campus',
      owner_id: w.south.id,
      kind: 'billing',
      address: '2 South Road',
      city: 'Bath',
    });
    await openBatch(w, 1, { campus: 'south' });
    await checkoutOnAccount();
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const today = todayIso(new Date());
    const south = await generateInvoices(finance, { campus: w.south.public_id }, { from: today, to: today });
    expect(south.invoices).toHaveLength(1);
    const [row] = await db().select().from(invoices).where(eq(invoices.public_id, south.invoices[0].id));
    expect(row.campus_id).toBe(w.south.id);
    expect(row.billing_address).toMatchObject({ name: w.south.name, address: '2 South Road', city: 'Bath' });
    // North's policy on account (the Rowing one) is still there; invoiced to North without an address.
    const north = await generateInvoices(finance, { campus: w.north.public_id }, { from: today, to: today });
    expect(north.invoices).toHaveLength(1);
    const [n] = await db().select().from(invoices).where(eq(invoices.public_id, north.invoices[0].id));
    expect(n.billing_address).toBeNull();
    expect(await onAccount()).toHaveLength(0);
  });

  it('the demo seed puts four policies ordered today on account for the monthly client, once', async () => {
    expect(await onAccount()).toHaveLength(0);
    expect(await seedOnAccountPolicies(db(), testEnv())).toBe(4);
    const placed = await onAccount();
    expect(placed).toHaveLength(4);
    expect(placed.every((p) => p.booking_date === todayIso(new Date()))).toBe(true);
    expect(await seedOnAccountPolicies(db(), testEnv())).toBe(0);
    expect(await onAccount()).toHaveLength(4);
  });

  it('refuses who may not invoice, hides other tenants, and refuses a period that ends before it starts', async () => {
    const range = { from: '2026-01-01', to: '2026-01-31' };
    await expect(
      previewInvoices(await asSchool(), { client: w.oakwood.public_id }, range),
    ).rejects.toBeInstanceOf(Forbidden);
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(generateInvoices(stranger, { client: w.oakwood.public_id }, range)).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(generateInvoices(stranger, { campus: w.north.public_id }, range)).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(previewInvoices(stranger, { client: w.oakwood.public_id }, range)).rejects.toBeInstanceOf(
      NotFound,
    );
    await expect(previewInvoices(stranger, { campus: w.north.public_id }, range)).rejects.toBeInstanceOf(
      NotFound,
    );
    // A school user of another client holds no invoicing permission at all.
    const strangerSchool = await actorCtx(STRANGER.schoolUser);
    await expect(
      previewInvoices(strangerSchool, { campus: w.north.public_id }, range),
    ).rejects.toBeInstanceOf(Forbidden);
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    await expect(
      generateInvoices(finance, { client: w.oakwood.public_id }, { from: '2026-02-01', to: '2026-01-01' }),
    ).rejects.toThrow('validation.end_after_start');
  });
});
