import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  activityLogs,
  invoiceItems,
  invoices,
  jobs,
  policies,
  policyAmendmentLines,
  policyAmendments,
  policyTransactions,
  products,
  sequences,
  taxRates,
  notifications,
} from '../../drizzle/schema';
import { countryId } from '../../drizzle/seed/builders';
import {
  assignGroupLeader,
  confirmAmendment,
  createAmendment,
  getAmendment,
  quoteAmendment,
  updateGroupName,
  CONFIRM_JOB_THRESHOLD,
  groupNameBodySchema,
  type AmendmentView,
} from '../../workers/domain/policies/amendments';
import { priceBand, priceLine, type ContractTerms } from '../../workers/domain/policies/amendments/pricing';
import { recordChangeStatements } from '../../workers/domain/policies/transactions';
import { inJson, runBatch } from '../../workers/platform/db';
import { Conflict, NotFound, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import { handleMessage } from '../../workers/jobs/consumer';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx, testEnv } from '../support/world';
import { STRANGER } from '../support/contracts';
import {
  asSchool,
  day,
  db,
  issuePolicies,
  reload,
  seedAmendmentsWorld,
  trip,
  type PolicyRow,
} from '../support/amendments';
import type { CheckoutWorld } from '../support/checkout';

let w: CheckoutWorld;
let school: ActorCtx;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await asSchool();
}, SETUP_TIMEOUT_MS);

const ids = (rows: PolicyRow[]) => rows.map((r) => r.public_id);
const none = { page: 1, items: 25 };

async function quote(
  kind: 'extend' | 'trip_dates' | 'cancel',
  rows: PolicyRow[],
  input: Record<string, string>,
  ctx = school,
): Promise<AmendmentView> {
  const { id } = await createAmendment(ctx, { kind, selection: { ids: ids(rows) }, query: none });
  return quoteAmendment(ctx, id, input);
}

async function failure(run: Promise<unknown>): Promise<Error> {
  const e = await run.then(
    () => null,
    (err) => err as Error,
  );
  expect(e).not.toBeNull();
  return e!;
}

const english = (e: Error) => formatMessage(e.message);
const lineMessages = (view: AmendmentView) =>
  view.lines.items.flatMap((l) =>
    l.errors.map((e) => formatMessage(e.params ? `${e.message}|${JSON.stringify(e.params)}` : e.message)),
  );

async function countRows() {
  const [[inv], [seq], [tx], [items]] = await db().batch([
    db()
      .select({ n: sql<number>`count(*)` })
      .from(invoices),
    db()
      .select({ n: sql<number>`coalesce(sum(value), 0)` })
      .from(sequences),
    db()
      .select({ n: sql<number>`count(*)` })
      .from(policyTransactions),
    db()
      .select({ n: sql<number>`count(*)` })
      .from(invoiceItems),
  ]);
  return { invoices: inv.n, sequences: seq.n, transactions: tx.n, items: items.n };
}

describe('issue', () => {
  it('writes an issue transaction for every policy in the checkout batch', async () => {
    const issued = await issuePolicies(w, 2);
    const rows = await db()
      .select()
      .from(policyTransactions)
      .where(
        inArray(
          policyTransactions.policy_id,
          issued.map((p) => p.id),
        ),
      );
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      const p = issued.find((x) => x.id === r.policy_id)!;
      expect(r.kind).toBe('issue');
      expect(r.premium_diff_minor).toBe(p.premium_minor);
      expect(r.tax_diff_minor).toBe(p.tax_minor);
      expect(r.tax_rate).toBeCloseTo(0.12, 6);
      expect(r.document_version).toBe(1);
      expect(r.invoice_id).toBe(p.invoice_id);
      expect(r.before).toBeNull();
      expect(r.after).toMatchObject({ start_date: p.start_date, end_date: p.end_date });
    }
  });
});

describe('pricing (pure)', () => {
  const terms: ContractTerms = {
    pricing: {
      sale_minor: 9500,
      custom_minor: null,
      net_minor: 6000,
      currency: 'GBP',
      unit_days: 7,
      min_days: 6,
      tax: null,
    },
    product: {
      min_purchase_days: 6,
      max_term_days: 60,
      insured_age_min: 16,
      insured_age_max: 30,
      max_enrolment_period_days: 100,
      effective_start_date: '2020-01-01',
      effective_end_date: null,
    },
    contract: { start_date: '2020-01-01', end_date: null, min_days: 6 },
  };
  const today = '2030-01-01';
  const policy = {
    status: 'issued' as const,
    start_date: '2030-01-11',
    end_date: '2030-01-30', // 20 days: 3 weeks
    date_of_birth: '2005-04-12',
    premium_minor: 28500,
    tax_minor: 3420,
  };
  const rules = { today, allowPastStartDate: false };
  const messages = (l: ReturnType<typeof priceLine>) => l.errors.map((e) => e.message);

  it('charges a longer trip the price of the extra units, taxed at the original rate', () => {
    const l = priceLine(policy, { kind: 'extend', new_end_date: '2030-02-06' }, terms, rules); // 27 days: 4 weeks
    expect(l).toMatchObject({ premium_diff_minor: 9500, tax_diff_minor: 1140, new_premium_minor: 38000 });
    expect(l.errors).toEqual([]);
  });

  it('charges nothing within the same price band, and credits a shorter trip', () => {
    expect(
      priceLine(policy, { kind: 'extend', new_end_date: '2030-01-31' }, terms, rules).premium_diff_minor,
    ).toBe(0);
    const shorter = priceLine(
      policy,
      { kind: 'trip_dates', new_start_date: '2030-01-11', new_end_date: '2030-01-23' },
      terms,
      rules,
    ); // 13 days: 2 weeks
    expect(shorter).toMatchObject({ premium_diff_minor: -9500, tax_diff_minor: -1140 });
  });

  it('crosses several price bands at once', () => {
    const l = priceLine(policy, { kind: 'extend', new_end_date: '2030-02-20' }, terms, rules); // 41 days: 6 weeks
    expect(l.premium_diff_minor).toBe(3 * 9500);
    expect(l.tax_diff_minor).toBe(3 * 1140);
  });

  it('taxes at the rate of the original premium, whatever the rate is today', () => {
    const taxedAt20 = { ...policy, tax_minor: 5700 };
    const l = priceLine(taxedAt20, { kind: 'extend', new_end_date: '2030-02-06' }, terms, rules);
    expect(l.tax_diff_minor).toBe(1900);
    expect(l.tax_rate).toBeCloseTo(0.2, 6);
  });

  it("refuses what the product's limits refuse, as line errors", () => {
    expect(
      messages(
        priceLine(
          policy,
          { kind: 'trip_dates', new_start_date: '2030-01-11', new_end_date: '2030-01-13' },
          terms,
          rules,
        ),
      ),
    ).toContain('enrollments.errors.min_days');
    expect(
      messages(priceLine(policy, { kind: 'extend', new_end_date: '2030-03-30' }, terms, rules)),
    ).toContain('enrollments.errors.max_days');
    expect(
      messages(
        priceLine(
          policy,
          { kind: 'trip_dates', new_start_date: '2030-06-01', new_end_date: '2030-06-20' },
          terms,
          rules,
        ),
      ),
    ).toContain('enrollments.errors.start_too_far');
    expect(
      messages(
        priceLine(
          { ...policy, date_of_birth: '1990-01-01' },
          { kind: 'extend', new_end_date: '2030-02-06' },
          terms,
          rules,
        ),
      ),
    ).toContain('enrollments.errors.age_max');
    expect(
      messages(
        priceLine(
          { ...policy, date_of_birth: '2020-01-01' },
          { kind: 'extend', new_end_date: '2030-02-06' },
          terms,
          rules,
        ),
      ),
    ).toContain('enrollments.errors.age_min');
    expect(
      messages(priceLine(policy, { kind: 'extend', new_end_date: '2030-01-20' }, terms, rules)),
    ).toContain('amendments.errors.not_later');
  });

  it('refuses cancelled insureds and started policies for cancellation; credits the whole premium', () => {
    expect(
      messages(
        priceLine(
          { ...policy, status: 'cancelled' },
          { kind: 'extend', new_end_date: '2030-02-06' },
          terms,
          rules,
        ),
      ),
    ).toEqual(['amendments.errors.cancelled']);
    const started = priceLine({ ...policy, start_date: '2029-12-20' }, { kind: 'cancel' }, terms, rules);
    expect(messages(started)).toEqual(['amendments.errors.cancel_started']);
    expect(priceLine(policy, { kind: 'cancel' }, terms, rules)).toMatchObject({
      premium_diff_minor: -28500,
      tax_diff_minor: -3420,
      errors: [],
    });
  });
});

describe('extend', () => {
  it('quotes per insured and in total, then charges the difference on one supplementary invoice', async () => {
    const issued = await issuePolicies(w, 3);
    expect(issued[0].premium_minor).toBe(28500); // 3 weeks at 95.00
    const view = await quote('extend', issued, { new_end_date: day(36) }); // 27 days: 4 weeks
    expect(view.status).toBe('quoted');
    expect(view.counts).toMatchObject({ policies: 3, selected: 3, dependants: 0, with_errors: 0 });
    expect(view.totals).toMatchObject({ charge_minor: 28500, charge_tax_minor: 3420, credit_minor: 0 });
    expect(view.documents).toEqual([
      expect.objectContaining({ currency: 'GBP', policies: 3, charge_minor: 28500, charge_tax_minor: 3420 }),
    ]);
    expect(view.lines.items.map((l) => l.premium_diff_minor)).toEqual([9500, 9500, 9500]);

    const before = await countRows();
    const result = await confirmAmendment(school, view.id);
    expect(result.status).toBe('confirmed');
    expect(formatMessage(result.message!)).toBe('Selected insured(s) have been updated successfully');
    expect(result.invoices).toHaveLength(1);
    const [inv] = result.invoices;
    expect(inv).toMatchObject({
      type: 'supplementary',
      insurance_cost_minor: 28500,
      tax_minor: 3420,
      total_minor: 31920,
    });
    expect(inv.number).toMatch(/^INV\d{7}$/);
    const [row] = await db().select().from(invoices).where(eq(invoices.public_id, inv.id));
    expect(row.amendment_id).not.toBeNull();
    const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, row.id));
    expect(items.map((i) => i.total_minor)).toEqual([10640, 10640, 10640]);

    const after = await reload(issued);
    for (const p of after) {
      expect(p.end_date).toBe(day(36));
      expect(p.premium_minor).toBe(38000);
      expect(p.tax_minor).toBe(4560);
      expect(p.version).toBe(2);
    }
    const tx = await db()
      .select()
      .from(policyTransactions)
      .where(
        and(
          inArray(
            policyTransactions.policy_id,
            issued.map((p) => p.id),
          ),
          eq(policyTransactions.kind, 'extension'),
        ),
      );
    expect(tx).toHaveLength(3);
    expect(tx[0]).toMatchObject({
      premium_diff_minor: 9500,
      tax_diff_minor: 1140,
      document_version: 2,
      invoice_id: row.id,
    });
    expect(tx[0].before).toMatchObject({ end_date: day(29) });
    expect(tx[0].after).toMatchObject({ end_date: day(36) });
    const counts = await countRows();
    expect(counts.invoices).toBe(before.invoices + 1);

    // Confirming again changes nothing more and answers the same.
    const again = await confirmAmendment(school, view.id);
    expect(again).toEqual(result);
    expect(await countRows()).toEqual(counts);
  });

  it('uses the tax rate of the original premium even when the country rate changed since', async () => {
    const issued = await issuePolicies(w, 1);
    const gb = await countryId(db(), 'GB');
    await db().update(taxRates).set({ rate_bp: 2000 }).where(eq(taxRates.country_id, gb));
    try {
      const view = await quote('extend', issued, { new_end_date: day(36) });
      expect(view.lines.items[0]).toMatchObject({ premium_diff_minor: 9500, tax_diff_minor: 1140 });
    } finally {
      await db().update(taxRates).set({ rate_bp: 1200 }).where(eq(taxRates.country_id, gb));
    }
  });

  it('refuses a quote with line errors, in English over the API', async () => {
    const issued = await issuePolicies(w, 1);
    await db().update(products).set({ max_term_days: 30 }).where(eq(products.id, w.product.id));
    try {
      const view = await quote('extend', issued, { new_end_date: day(60) });
      expect(view.counts.with_errors).toBe(1);
      expect(lineMessages(view)).toEqual(['The longest trip this product covers is 30 days']);
      const e = await failure(confirmAmendment(school, view.id));
      expect(e).toBeInstanceOf(ValidationFailed);
      expect(english(e)).toBe('The longest trip this product covers is 30 days');
      expect((await reload(issued))[0].version).toBe(1);
    } finally {
      await db().update(products).set({ max_term_days: null }).where(eq(products.id, w.product.id));
    }
  });

  it('needs the new end date', async () => {
    const issued = await issuePolicies(w, 1);
    const { id } = await createAmendment(school, {
      kind: 'extend',
      selection: { ids: ids(issued) },
      query: none,
    });
    const e = await failure(quoteAmendment(school, id, {}));
    expect(e).toBeInstanceOf(ValidationFailed);
    expect((e as ValidationFailed).errors[0].key).toBe('new_end_date');
  });
});

describe('extend: the new end date and the price band', () => {
  const amendmentCount = async () =>
    (
      await db()
        .select({ n: sql<number>`count(*)` })
        .from(policyAmendments)
    )[0].n;
  const britishEnd = (iso: string) => iso.split('-').reverse().join('/');

  it('refuses a new end date on or before the current end on its field and writes nothing', async () => {
    const issued = await issuePolicies(w, 2); // both end on day(29)
    const { id } = await createAmendment(school, {
      kind: 'extend',
      selection: { ids: ids(issued) },
      query: none,
    });
    const before = await countRows();
    for (const end of [day(20), day(29)]) {
      const e = await failure(quoteAmendment(school, id, { new_end_date: end }));
      expect(e).toBeInstanceOf(ValidationFailed);
      const [error] = (e as ValidationFailed).errors;
      expect(error.key).toBe('new_end_date');
      expect(formatMessage(error.message)).toBe(
        `The new end date must be after the current end date (${britishEnd(day(29))})`,
      );
    }
    const view = await getAmendment(school, id);
    expect(view.status).toBe('draft');
    expect(view.lines.items.map((l) => l.new_end_date)).toEqual([null, null]);
    expect(await countRows()).toEqual(before);
    expect((await reload(issued)).map((p) => [p.end_date, p.version])).toEqual([
      [day(29), 1],
      [day(29), 1],
    ]);
  });

  it('names the latest current end of a selection, and refuses before writing a draft when quoted at once', async () => {
    const issued = await issuePolicies(w, 2);
    await db()
      .update(policies)
      .set({ end_date: day(33) })
      .where(eq(policies.id, issued[1].id));
    const drafts = await amendmentCount();
    const e = await failure(
      createAmendment(school, {
        kind: 'extend',
        selection: { ids: ids(issued) },
        query: none,
        request: { new_end_date: day(31) },
      }),
    );
    expect(english(e)).toBe(`The new end date must be after the current end date (${britishEnd(day(33))})`);
    expect(await amendmentCount()).toBe(drafts);
  });

  it('says which price band a longer trip at no charge stays in', async () => {
    const issued = await issuePolicies(w, 1); // day(10) to day(29): 20 days, the third week
    const view = await quote('extend', issued, { new_end_date: day(30) });
    expect(view.totals).toMatchObject({ charge_minor: 0, credit_minor: 0 });
    expect(view.lines.items[0]).toMatchObject({
      premium_diff_minor: 0,
      new_end_date: day(30),
      price_band: { min_days: 15, max_days: 21 },
    });
    const dearer = await quote('extend', issued, { new_end_date: day(31) });
    expect(dearer.lines.items[0]).toMatchObject({
      premium_diff_minor: 9500,
      price_band: { min_days: 22, max_days: 28 },
    });
  });

  it('bands trip lengths by started unit, the minimum purchase first, one band for a price per trip', () => {
    const weekly = { unit_days: 7, min_days: 6 };
    expect(priceBand(20, weekly)).toEqual({ min_days: 15, max_days: 21 });
    expect(priceBand(21, weekly)).toEqual({ min_days: 15, max_days: 21 });
    expect(priceBand(22, weekly)).toEqual({ min_days: 22, max_days: 28 });
    expect(priceBand(3, weekly)).toEqual({ min_days: 1, max_days: 7 });
    expect(priceBand(12, { unit_days: 7, min_days: 10 })).toEqual({ min_days: 1, max_days: 14 });
    expect(priceBand(60, { unit_days: 30, min_days: 6 })).toEqual({ min_days: 31, max_days: 60 });
    expect(priceBand(400, { unit_days: null, min_days: 6 })).toEqual({ min_days: 1, max_days: null });
  });
});

describe('edit trip dates', () => {
  it('credits a shorter trip on one credit note of its own series', async () => {
    const issued = await issuePolicies(w, 2);
    const view = await quote('trip_dates', issued, { new_start_date: day(12), new_end_date: day(24) }); // 13 days
    expect(view.totals).toMatchObject({ charge_minor: 0, credit_minor: 19000, credit_tax_minor: 2280 });
    const result = await confirmAmendment(school, view.id);
    expect(result.invoices).toHaveLength(1);
    expect(result.invoices[0]).toMatchObject({ type: 'credit_note', total_minor: 21280 });
    expect(result.invoices[0].number).toMatch(/^CN\d{7}$/);
    const after = await reload(issued);
    expect(after.map((p) => [p.start_date, p.end_date, p.premium_minor, p.tax_minor])).toEqual([
      [day(12), day(24), 19000, 2280],
      [day(12), day(24), 19000, 2280],
    ]);
  });

  it('moves a trip of the same length at no charge and issues no document', async () => {
    const issued = await issuePolicies(w, 1);
    const before = await countRows();
    const view = await quote('trip_dates', issued, { new_start_date: day(15), new_end_date: day(34) });
    expect(view.totals).toMatchObject({ charge_minor: 0, credit_minor: 0 });
    const result = await confirmAmendment(school, view.id);
    expect(result.invoices).toEqual([]);
    expect((await countRows()).invoices).toBe(before.invoices);
    expect((await reload(issued))[0]).toMatchObject({ start_date: day(15), end_date: day(34), version: 2 });
  });

  it('refuses cancelled insureds', async () => {
    const issued = await issuePolicies(w, 2);
    await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, issued[0].id));
    const view = await quote('trip_dates', issued, { new_start_date: day(11), new_end_date: day(30) });
    expect(lineMessages(view)).toEqual(['You cannot edit cancelled insureds']);
    const e = await failure(confirmAmendment(school, view.id));
    expect(english(e)).toBe('You cannot edit cancelled insureds');
  });
});

describe('cancel', () => {
  it('cancels a student with its dependant, removes it as group leader and credits the whole premium', async () => {
    const t = trip(20);
    const issued = await issuePolicies(w, [
      { first_name: 'Olga', last_name: 'Student', ...t },
      { first_name: 'Ivan', last_name: 'Family', type: 'immediate_family', dependency_index: 0, ...t },
      { first_name: 'Gail', last_name: 'Leader', type: 'group_leader', date_of_birth: '1990-01-01', ...t },
      { first_name: 'Tom', last_name: 'Member', group_leader_index: 2, ...t },
    ]);
    const [student, family, leader, member] = issued;
    expect(family.dependency_id).toBe(student.id);
    expect(member.group_leader_id).toBe(leader.id);
    const view = await quote('cancel', [student, leader], { reason: 'Did not travel' });
    expect(view.counts).toMatchObject({ policies: 3, selected: 2, dependants: 1, group_members: 1 });
    expect(view.lines.items.find((l) => l.policy.id === family.public_id)?.because_of).toBe(
      student.policy_number,
    );
    const premium = student.premium_minor + family.premium_minor + leader.premium_minor;
    const tax = student.tax_minor + family.tax_minor + leader.tax_minor;
    expect(view.totals).toMatchObject({ credit_minor: premium, credit_tax_minor: tax, charge_minor: 0 });

    const result = await confirmAmendment(school, view.id);
    expect(result.updated).toBe(3);
    expect(result.invoices).toEqual([
      expect.objectContaining({ type: 'credit_note', total_minor: premium + tax }),
    ]);
    const [s, f, l, m] = await reload(issued);
    for (const p of [s, f, l])
      expect(p).toMatchObject({ status: 'cancelled', cancel_reason: 'Did not travel', version: 2 });
    expect(m).toMatchObject({ status: 'issued', group_leader_id: null, version: 2 });
    const [tx] = await db()
      .select()
      .from(policyTransactions)
      .where(and(eq(policyTransactions.policy_id, member.id), eq(policyTransactions.kind, 'group_leader')));
    expect(tx.before).toMatchObject({ group_leader_id: leader.public_id });
    expect(tx.after).toEqual({ group_leader_id: null });
    const done = await getAmendment(school, view.id);
    expect(done.counts.group_members).toBe(1);
    // Who asked is told, once, with the count of policies cancelled and a link to the amendment.
    const told = await db()
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.user_id, school.actor.user_id),
          eq(notifications.to, `/insureds/amendments/${view.id}`),
        ),
      );
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ message_key: 'amendment_cancel', params: { count: 3 } });
  });

  it('only cancels policies that have not yet started', async () => {
    const issued = await issuePolicies(w, 2);
    await db()
      .update(policies)
      .set({ start_date: day(-1) })
      .where(eq(policies.id, issued[0].id));
    const view = await quote('cancel', issued, { reason: 'Changed plans' });
    expect(lineMessages(view)).toEqual(['You can only cancel policies that have not yet started']);
    expect(english(await failure(confirmAmendment(school, view.id)))).toBe(
      'You can only cancel policies that have not yet started',
    );
    expect((await reload(issued)).map((p) => p.status)).toEqual(['issued', 'issued']);
  });

  it('needs a reason', async () => {
    const issued = await issuePolicies(w, 1);
    const { id } = await createAmendment(school, {
      kind: 'cancel',
      selection: { ids: ids(issued) },
      query: none,
    });
    const e = await failure(quoteAmendment(school, id, {}));
    expect((e as ValidationFailed).errors[0].key).toBe('reason');
  });
});

describe('reliability', () => {
  it('two people amending the same insureds: one wins, the other is told the quote is out of date', async () => {
    const issued = await issuePolicies(w, 2);
    const senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const mine = await quote('extend', issued, { new_end_date: day(36) });
    const theirs = await quote('extend', issued, { new_end_date: day(43) }, senior);
    await confirmAmendment(senior, theirs.id);
    const before = await countRows();
    const e = await failure(confirmAmendment(school, mine.id));
    expect(e).toBeInstanceOf(Conflict);
    expect(english(e)).toMatch(/^This quote is out of date/);
    expect(await countRows()).toEqual(before);
    expect((await getAmendment(school, mine.id)).status).toBe('stale');
    expect((await reload(issued)).map((p) => p.end_date)).toEqual([day(43), day(43)]);
    // Asking again says the same; quoting again prices the new state and can be confirmed.
    expect(english(await failure(confirmAmendment(school, mine.id)))).toMatch(/out of date/);
    const requoted = await quoteAmendment(school, mine.id, { new_end_date: day(50) });
    expect(requoted.status).toBe('quoted');
    expect((await confirmAmendment(school, mine.id)).status).toBe('confirmed');
  });

  it('a failure part-way leaves every policy, invoice and transaction as it was', async () => {
    const issued = await issuePolicies(w, 3);
    const view = await quote('extend', issued, { new_end_date: day(36) });
    const [a] = await db().select().from(policyAmendments).where(eq(policyAmendments.public_id, view.id));
    // The last line cannot be written (its new premium is missing): the policies' update fails after the
    // invoice, its items and the transactions were written in the same batch.
    const [last] = await db()
      .select()
      .from(policyAmendmentLines)
      .where(eq(policyAmendmentLines.amendment_id, a.id))
      .orderBy(asc(policyAmendmentLines.id))
      .limit(1)
      .offset(2);
    await db()
      .update(policyAmendmentLines)
      .set({ new_premium_minor: null })
      .where(eq(policyAmendmentLines.id, last.id));
    const before = await countRows();
    const e = await failure(confirmAmendment(school, view.id));
    expect(english(e)).toBe('Error Updating Insureds Trip Dates');
    expect(await countRows()).toEqual(before);
    expect(await reload(issued)).toEqual(issued);
    expect((await getAmendment(school, view.id)).status).toBe('quoted');
  });

  it("the single-policy writer's version guard rolls the whole batch back on a stale version", async () => {
    const [p] = await issuePolicies(w, 1);
    const change = {
      policy: { ...p, version: p.version + 5 },
      kind: 'details' as const,
      effectiveDate: day(0),
      before: { first_name: p.first_name },
      after: { first_name: 'Changed' },
      userId: null,
      now: new Date(),
    };
    const before = await countRows();
    await expect(
      runBatch(db(), [
        db().update(policies).set({ first_name: 'Changed' }).where(eq(policies.id, p.id)),
        ...recordChangeStatements(db(), change),
      ]),
    ).rejects.toThrow(/NOT NULL/);
    expect(await countRows()).toEqual(before);
    expect((await reload([p]))[0]).toEqual(p);
    await runBatch(db(), [
      db().update(policies).set({ first_name: 'Changed' }).where(eq(policies.id, p.id)),
      ...recordChangeStatements(db(), { ...change, policy: p }),
    ]);
    expect((await reload([p]))[0]).toMatchObject({ first_name: 'Changed', version: 2 });
  });

  it('logs the confirmation with the one log writer: in a support view, the admin on behalf of the user', async () => {
    const issued = await issuePolicies(w, 1);
    const view = await quote('trip_dates', issued, { new_start_date: day(15), new_end_date: day(34) });
    const senior = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const viewing = { ...school, actor: { ...school.actor, support_admin_id: senior.actor.user_id } };
    await confirmAmendment(viewing, view.id);
    const [amendment] = await db()
      .select()
      .from(policyAmendments)
      .where(eq(policyAmendments.public_id, view.id));
    const [row] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy_amendment'), eq(activityLogs.entity_id, amendment.id)));
    expect(row).toMatchObject({
      action: 'confirmed',
      actor_user_id: senior.actor.user_id,
      on_behalf_of_user_id: school.actor.user_id,
      before: null,
      after: { kind: 'trip_dates', policies: 1, charge_minor: 0, credit_minor: 0, invoices: [] },
      company_id: amendment.company_id,
    });
    // The amendment itself was confirmed by the user the admin acted as.
    expect(amendment.confirmed_by).toBe(school.actor.user_id);
  });

  it(`confirms more than ${CONFIRM_JOB_THRESHOLD} policies as a job, once`, async () => {
    const issued = await issuePolicies(w, CONFIRM_JOB_THRESHOLD + 1);
    const view = await quote('extend', issued, { new_end_date: day(36) });
    const started = await confirmAmendment(school, view.id);
    expect(started.status).toBe('confirming');
    expect(started.job).not.toBeNull();
    // A second click while it runs answers the same job.
    expect((await confirmAmendment(school, view.id)).job?.id).toBe(started.job!.id);
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, started.job!.id));
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    const [after] = await db().select().from(jobs).where(eq(jobs.id, job.id));
    expect(after).toMatchObject({ status: 'done', done: CONFIRM_JOB_THRESHOLD + 1 });
    const result = await confirmAmendment(school, view.id);
    expect(result).toMatchObject({ status: 'confirmed', updated: CONFIRM_JOB_THRESHOLD + 1 });
    expect(result.invoices).toEqual([
      expect.objectContaining({
        type: 'supplementary',
        insurance_cost_minor: 9500 * (CONFIRM_JOB_THRESHOLD + 1),
      }),
    ]);
    const [{ n }] = await db()
      .select({ n: sql<number>`count(*)` })
      .from(policies)
      .where(
        and(
          inJson(
            policies.id,
            issued.map((p) => p.id),
          ),
          eq(policies.end_date, day(36)),
          eq(policies.version, 2),
        ),
      );
    expect(n).toBe(CONFIRM_JOB_THRESHOLD + 1);
    // The job logs as the request that started it would have.
    const [amendment] = await db()
      .select()
      .from(policyAmendments)
      .where(eq(policyAmendments.public_id, view.id));
    const [row] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy_amendment'), eq(activityLogs.entity_id, amendment.id)));
    expect(row).toMatchObject({ actor_user_id: school.actor.user_id, on_behalf_of_user_id: null });
  }, 60_000);
});

describe('selection', () => {
  it('takes "all matching" the list\'s filters, inside the scope', async () => {
    const t = trip(20);
    await issuePolicies(w, [
      { first_name: 'Zebulon', last_name: 'Match', ...t },
      { first_name: 'Zebedee', last_name: 'Match', ...t },
      { first_name: 'Other', last_name: 'Person', ...t },
    ]);
    const { id } = await createAmendment(school, {
      kind: 'extend',
      selection: { all_matching: true },
      query: { ...none, first_name: 'Zeb' },
    });
    const view = await getAmendment(school, id);
    expect(view.counts.policies).toBe(2);
    expect(view.lines.items.map((l) => l.policy.first_name).sort()).toEqual(['Zebedee', 'Zebulon']);
  });
});

describe('scope', () => {
  it("answers not found for another user's amendment and for policies out of scope", async () => {
    const issued = await issuePolicies(w, 1);
    const view = await quote('extend', issued, { new_end_date: day(36) });
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(getAmendment(stranger, view.id)).rejects.toBeInstanceOf(NotFound);
    await expect(confirmAmendment(stranger, view.id)).rejects.toBeInstanceOf(NotFound);
    await expect(
      createAmendment(stranger, { kind: 'extend', selection: { ids: ids(issued) }, query: none }),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe('group name and group leader', () => {
  it('sets the group name in one batch with a transaction per changed policy', async () => {
    const issued = await issuePolicies(w, 2);
    const { updated } = await updateGroupName(school, {
      selection: { ids: ids(issued) },
      query: none,
      group_name: "Year 10 O'Neil-Trip",
    });
    expect(updated).toBe(2);
    const after = await reload(issued);
    expect(after.map((p) => [p.group_name, p.version])).toEqual([
      ["Year 10 O'Neil-Trip", 2],
      ["Year 10 O'Neil-Trip", 2],
    ]);
    const tx = await db()
      .select()
      .from(policyTransactions)
      .where(
        and(
          inArray(
            policyTransactions.policy_id,
            issued.map((p) => p.id),
          ),
          eq(policyTransactions.kind, 'group_name'),
        ),
      );
    expect(tx).toHaveLength(2);
    expect(tx[0].after).toEqual({ group_name: "Year 10 O'Neil-Trip" });
    // The same name again changes nothing.
    expect(
      (
        await updateGroupName(school, {
          selection: { ids: ids(issued) },
          query: none,
          group_name: "Year 10 O'Neil-Trip",
        })
      ).updated,
    ).toBe(0);
  });

  it('validates the group name (3 to 50 characters of the allowed kinds)', () => {
    for (const bad of ['ab', 'x'.repeat(51), 'Group #1'])
      expect(groupNameBodySchema.safeParse({ policies: ['a'], group_name: bad }).success).toBe(false);
    expect(groupNameBodySchema.safeParse({ policies: ['a'], group_name: 'Group_1 +A' }).success).toBe(true);
  });

  it('refuses cancelled insureds', async () => {
    const issued = await issuePolicies(w, 1);
    await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, issued[0].id));
    const e = await failure(
      updateGroupName(school, { selection: { ids: ids(issued) }, query: none, group_name: 'Late group' }),
    );
    expect(english(e)).toBe('You cannot edit cancelled insureds');
  });

  it('assigns a group leader of the same client, and removes it', async () => {
    const t = trip(20);
    const issued = await issuePolicies(w, [
      { first_name: 'Lena', last_name: 'Leader', type: 'group_leader', date_of_birth: '1990-01-01', ...t },
      { first_name: 'Sam', last_name: 'One', ...t },
      { first_name: 'Sue', last_name: 'Two', ...t },
    ]);
    const [leader, a, b] = issued;
    const { updated } = await assignGroupLeader(school, {
      selection: { ids: ids(issued) },
      query: none,
      group_leader_id: leader.public_id,
    });
    expect(updated).toBe(2);
    const after = await reload(issued);
    expect(after.map((p) => p.group_leader_id)).toEqual([null, leader.id, leader.id]);
    const removed = await assignGroupLeader(school, {
      selection: { ids: [a.public_id] },
      query: none,
      group_leader_id: null,
    });
    expect(removed.updated).toBe(1);
    expect((await reload([a, b])).map((p) => p.group_leader_id)).toEqual([null, leader.id]);
    const tx = await db()
      .select()
      .from(policyTransactions)
      .where(and(eq(policyTransactions.policy_id, a.id), eq(policyTransactions.kind, 'group_leader')))
      .orderBy(asc(policyTransactions.id));
    expect(tx.map((r) => r.after)).toEqual([
      { group_leader_id: leader.public_id, group_leader: 'Lena Leader' },
      { group_leader_id: null, group_leader: null },
    ]);
  });

  it('refuses a leader who is not a group leader, or of another client', async () => {
    const [student, other] = await issuePolicies(w, 2);
    const e = await failure(
      assignGroupLeader(school, {
        selection: { ids: [other.public_id] },
        query: none,
        group_leader_id: student.public_id,
      }),
    );
    expect((e as ValidationFailed).errors[0]).toMatchObject({ key: 'group_leader_id' });
    expect(english(e)).toBe('The group leader must be an insured of type group leader that is not cancelled');
    const [southLeader] = await issuePolicies(
      w,
      [
        {
          first_name: 'Sid',
          last_name: 'South',
          type: 'group_leader',
          date_of_birth: '1990-01-01',
          ...trip(20),
        },
      ],
      { campus: 'south' },
    );
    // Same client (both campuses are Oakwood's): allowed.
    const ok = await assignGroupLeader(school, {
      selection: { ids: [other.public_id] },
      query: none,
      group_leader_id: southLeader.public_id,
    });
    expect(ok.updated).toBe(1);
  });
});
