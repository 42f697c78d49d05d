/**
 * The billing summary and statements of account (workers/domain/billing): every figure is checked against
 * a plain recomputation over the invoices and transactions of generated data; the aging buckets at their
 * boundaries; a statement's opening balance plus its movements is its closing balance, which is the aging
 * total at its end date; a campus's statement holds only its invoices; a school user reaches its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { invoices, transactions } from '../../drizzle/schema';
import { buildClient } from '../../drizzle/seed/builders';
import {
  billingSummary,
  campusStatement,
  clientReceivables,
  clientStatement,
  ownStatement,
} from '../../workers/domain/billing/service';
import { statementQuerySchema } from '../../workers/domain/billing/schema';
import { summaryMonths } from '../../workers/domain/billing/summary';
import {
  AGING_BUCKETS,
  agingBucket,
  balanceMinor,
  type AgingBucket,
} from '../../workers/domain/invoices/status';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { seedContractsWorld, STRANGER, type ContractsWorld } from '../support/contracts';
import { day, db, generateBilling, insertInvoice, insertTransaction } from '../support/billing';

let w: ContractsWorld;
let finance: ActorCtx;
let birch: Awaited<ReturnType<typeof buildClient>>;
let edges: Awaited<ReturnType<typeof buildClient>>;
const today = day(0);

beforeAll(async () => {
  w = await seedContractsWorld();
  birch = await buildClient(db(), { name: 'Birch Academy', companyId: w.albion.id });
  edges = await buildClient(db(), { name: 'Edge Case College', companyId: w.albion.id });
  await generateBilling(
    { company_id: w.albion.id, client_id: w.oakwood.id, campus_ids: [w.north.id, w.south.id, null] },
    45,
    7,
  );
  await generateBilling({ company_id: w.albion.id, client_id: birch.id, campus_ids: [null] }, 25, 11);
  await generateBilling(
    { company_id: w.albion.id, client_id: birch.id, campus_ids: [null], currency: 'EUR' },
    8,
    13,
  );
  // Another company's client: never in the demo company's figures.
  await generateBilling({ company_id: w.caledonia.id, client_id: w.highland.id, campus_ids: [null] }, 10, 17);
  // One unpaid invoice due on each side of every bucket boundary.
  for (const [due, total] of [
    [0, 1],
    [-1, 10],
    [-30, 100],
    [-31, 1000],
    [-60, 10_000],
    [-61, 100_000],
    [-90, 1_000_000],
    [-91, 10_000_000],
  ])
    await insertInvoice({
      company_id: w.albion.id,
      client_id: edges.id,
      total_minor: total,
      date: day(due - 10),
      due_at: day(due),
    });
  finance = await actorCtx(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS * 3);

/** Every invoice and transaction of the demo company, to recompute the figures plainly. */
async function ledgerOf(companyId: number) {
  const inv = await db().select().from(invoices).where(eq(invoices.company_id, companyId));
  const tx = await db()
    .select()
    .from(transactions)
    .where(
      inArray(
        transactions.invoice_id,
        inv.map((i) => i.id),
      ),
    );
  return { inv, tx };
}

describe('billing summary', () => {
  it('agrees with the sum of the invoices: outstanding, overdue, paid this month and credit per currency', async () => {
    const s = await billingSummary(finance);
    const { inv, tx } = await ledgerOf(w.albion.id);
    const month = today.slice(0, 7);
    for (const c of s.currencies) {
      const mine = inv.filter((i) => i.currency === c.currency && !i.voided_at);
      const balances = mine.filter((i) => i.type !== 'credit_note').map((i) => ({ i, b: balanceMinor(i) }));
      const outstanding = balances.filter((x) => x.b > 0).reduce((s, x) => s + x.b, 0);
      const overdue = balances.filter((x) => x.b > 0 && x.i.due_at < today).reduce((s, x) => s + x.b, 0);
      const credit =
        balances.filter((x) => x.b < 0).reduce((s, x) => s - x.b, 0) +
        mine
          .filter((i) => i.type === 'credit_note' && !i.credit_for_id)
          .reduce((s, i) => s + i.total_minor, 0);
      const ids = new Set(mine.map((i) => i.id));
      const paid = tx
        .filter((t) => ids.has(t.invoice_id) && t.status === 'succeeded' && t.paid_on!.startsWith(month))
        .reduce((s, t) => s + (t.kind === 'payment' ? t.amount_minor : -t.amount_minor), 0);
      expect(c.outstanding_minor).toBe(outstanding);
      expect(c.overdue_minor).toBe(overdue);
      expect(c.unapplied_credit_minor).toBe(credit);
      expect(c.paid_this_month_minor).toBe(paid);
      expect(c.outstanding).toBe(outstanding / 100);
    }
    expect(s.currencies.map((c) => c.currency)).toEqual(['EUR', 'GBP']);
    expect(outstandingOf(s, 'GBP')).toBeGreaterThan(0);
  });

  it('ages every client balance into buckets, largest debtors first, and leaves other companies out', async () => {
    const s = await billingSummary(finance);
    const { inv } = await ledgerOf(w.albion.id);
    for (const row of s.aging) {
      const mine = inv.filter(
        (i) => i.currency === row.currency && !i.voided_at && clientPublicId(i.client_id) === row.client.id,
      );
      const buckets = Object.fromEntries(AGING_BUCKETS.map((b) => [b, 0])) as Record<AgingBucket, number>;
      let credit = 0;
      for (const i of mine) {
        if (i.type === 'credit_note') {
          if (!i.credit_for_id) credit += i.total_minor;
          continue;
        }
        const b = balanceMinor(i);
        if (b > 0) buckets[agingBucket(i.due_at, today)] += b;
        else credit -= b;
      }
      for (const b of AGING_BUCKETS) expect(row[`${b}_minor`], `${row.client.name} ${b}`).toBe(buckets[b]);
      expect(row.unapplied_credit_minor).toBe(credit);
      expect(row.total_minor).toBe(AGING_BUCKETS.reduce((s, b) => s + buckets[b], 0) - credit);
    }
    const totals = s.aging.map((a) => a.total_minor);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    expect(s.aging.map((a) => a.client.id)).not.toContain(w.highland.public_id);
    expect(s.aging.map((a) => a.client.id)).toEqual(
      expect.arrayContaining([w.oakwood.public_id, birch.public_id]),
    );
  });

  it('puts a balance in its bucket at each boundary: due today is current, 30 days late is 1-30, 31 is 31-60', async () => {
    const s = await billingSummary(finance);
    const row = s.aging.find((a) => a.client.id === edges.public_id)!;
    expect(row.current_minor).toBe(1);
    expect(row.d1_30_minor).toBe(110);
    expect(row.d31_60_minor).toBe(11_000);
    expect(row.d61_90_minor).toBe(1_100_000);
    expect(row.over_90_minor).toBe(10_000_000);
    expect(row.total_minor).toBe(11_111_111);
    expect(s.aging[0].client.id).toBe(edges.public_id);
  });

  it('gives the last twelve months of invoiced and collected amounts per currency', async () => {
    const s = await billingSummary(finance);
    const { inv, tx } = await ledgerOf(w.albion.id);
    const months = summaryMonths(today);
    expect(months).toHaveLength(12);
    expect(months[11]).toBe(today.slice(0, 7));
    for (const m of s.months) {
      const mine = inv.filter((i) => i.currency === m.currency && !i.voided_at);
      const invoiced = mine
        .filter((i) => i.type !== 'credit_note' && i.date.startsWith(m.month))
        .reduce((s, i) => s + i.total_minor, 0);
      const ids = new Set(
        mine
          .map((i) => i.id)
          .concat(inv.filter((i) => i.voided_at && i.currency === m.currency).map((i) => i.id)),
      );
      const collected = tx
        .filter((t) => ids.has(t.invoice_id) && t.status === 'succeeded' && t.paid_on!.startsWith(m.month))
        .reduce((s, t) => s + (t.kind === 'payment' ? t.amount_minor : -t.amount_minor), 0);
      expect(m.invoiced_minor, `${m.currency} ${m.month}`).toBe(invoiced);
      expect(m.collected_minor, `${m.currency} ${m.month}`).toBe(collected);
    }
    expect(s.months.filter((m) => m.currency === 'GBP').map((m) => m.month)).toEqual(months);
    expect(s.months.some((m) => m.invoiced_minor > 0 && m.collected_minor > 0)).toBe(true);
  });

  it('is refused without read_billing and empty for another company', async () => {
    const employee = await actorCtx(DEMO_ACCOUNTS.campusEmployee);
    await expect(billingSummary(employee)).rejects.toBeInstanceOf(Forbidden);
    const stranger = await actorCtx(STRANGER.companyUser);
    const s = await billingSummary(stranger);
    expect(s.aging.map((a) => a.client.id)).not.toContain(w.oakwood.public_id);
  });
});

describe('statements of account', () => {
  it('runs from the opening balance through every movement in date order to the closing balance', async () => {
    const q = statementQuerySchema.parse({ from: day(-120), to: day(-20) });
    const s = await clientStatement(finance, w.oakwood.public_id, q);
    expect(s.from).toBe(day(-120));
    const gbp = s.currencies.find((c) => c.currency === 'GBP')!;
    expect(gbp.entries.length).toBeGreaterThan(10);
    let running = gbp.opening_minor;
    for (const e of gbp.entries) {
      running += e.debit_minor - e.credit_minor;
      expect(e.balance_minor).toBe(running);
      expect(e.date >= s.from && e.date <= s.to).toBe(true);
    }
    expect(gbp.closing_minor).toBe(running);
    const dates = gbp.entries.map((e) => e.date);
    expect(dates).toEqual([...dates].sort());
    expect(gbp.entries.map((e) => e.kind)).toEqual(
      expect.arrayContaining(['invoice', 'credit_note', 'payment']),
    );
    // The closing balance is what the aging at the end date adds up to.
    expect(gbp.aging.total).toBe(gbp.closing_minor);
    // The next period opens where this one closed.
    const next = await clientStatement(
      finance,
      w.oakwood.public_id,
      statementQuerySchema.parse({ from: day(-19) }),
    );
    expect(next.currencies.find((c) => c.currency === 'GBP')!.opening_minor).toBe(gbp.closing_minor);
  });

  it('closes today on the balance the billing summary shows for the client, per currency', async () => {
    const s = await clientStatement(
      finance,
      birch.public_id,
      statementQuerySchema.parse({ from: day(-400) }),
    );
    const summary = await billingSummary(finance);
    for (const c of s.currencies) {
      const row = summary.aging.find((a) => a.client.id === birch.public_id && a.currency === c.currency)!;
      expect(c.opening_minor).toBe(0);
      expect(c.closing_minor).toBe(row.total_minor);
      expect(c.aging.total).toBe(row.total_minor);
      expect(c.aging.d1_30).toBe(row.d1_30_minor);
    }
    expect(s.currencies.map((c) => c.currency)).toEqual(['EUR', 'GBP']);
  });

  it('covers this year up to today by default, and refuses a period that ends before it starts', async () => {
    const s = await clientStatement(finance, w.oakwood.public_id, statementQuerySchema.parse({}));
    expect(s.from).toBe(`${today.slice(0, 4)}-01-01`);
    expect(s.to).toBe(today);
    const bad = statementQuerySchema.safeParse({ from: day(0), to: day(-1) });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]).toMatchObject({ path: ['to'], message: 'billing.errors.period' });
    expect(statementQuerySchema.safeParse({ from: '2026-02-30' }).success).toBe(false);
  });

  it("holds only a campus's invoices in the campus's statement", async () => {
    const q = statementQuerySchema.parse({ from: day(-400) });
    const north = await campusStatement(finance, w.north.public_id, q);
    const ids = new Set(north.currencies.flatMap((c) => c.entries.map((e) => e.invoice_id)));
    const rows = await db()
      .select()
      .from(invoices)
      .where(inArray(invoices.public_id, [...ids]));
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.campus_id === w.north.id)).toBe(true);
    const viaClient = await clientStatement(finance, w.oakwood.public_id, q, w.north.public_id);
    expect(viaClient.currencies).toEqual(north.currencies);
    await expect(clientStatement(finance, birch.public_id, q, w.north.public_id)).rejects.toBeInstanceOf(
      NotFound,
    );
  });

  it("lets a school user read its own client's statement and no other", async () => {
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const q = statementQuerySchema.parse({ from: day(-400) });
    const own = await ownStatement(school, q);
    const staff = await clientStatement(finance, w.oakwood.public_id, q);
    expect(own.target.client.id).toBe(w.oakwood.public_id);
    expect(own.currencies).toEqual(staff.currencies);
    const campus = await ownStatement(school, q, w.south.public_id);
    expect(campus.target.campus?.name).toBe(w.south.name);
    await expect(clientStatement(school, birch.public_id, q)).rejects.toBeInstanceOf(NotFound);
    await expect(ownStatement(finance, q)).rejects.toBeInstanceOf(NotFound);
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(clientStatement(stranger, w.oakwood.public_id, q)).rejects.toBeInstanceOf(NotFound);
  });
});

describe('receivables', () => {
  it("lists the client's open invoices with due state and aging, and its credit on the account", async () => {
    const r = await clientReceivables(finance, w.oakwood.public_id);
    const { inv } = await ledgerOf(w.albion.id);
    const open = inv.filter(
      (i) =>
        i.client_id === w.oakwood.id && !i.voided_at && i.type !== 'credit_note' && balanceMinor(i) !== 0,
    );
    expect(
      r.items
        .filter((i) => i.type !== 'credit_note')
        .map((i) => i.number)
        .sort(),
    ).toEqual(open.map((i) => i.number).sort());
    for (const item of r.items.filter((i) => i.balance_minor > 0))
      expect(item.due_state).toBe(item.due_at < today ? 'overdue' : item.due_at <= day(7) ? 'due' : 'open');
    const gbp = r.totals.find((t) => t.currency === 'GBP')!.aging;
    expect(gbp.total).toBe(
      r.items.filter((i) => i.currency === 'GBP').reduce((s, i) => s + i.balance_minor, 0),
    );
    const statement = await clientStatement(
      finance,
      w.oakwood.public_id,
      statementQuerySchema.parse({ from: day(-400) }),
    );
    expect(gbp.total).toBe(statement.currencies.find((c) => c.currency === 'GBP')!.closing_minor);
  });

  it('counts a payment only once it is made: a payment dated today lowers today, not the past', async () => {
    const late = await insertInvoice({
      company_id: w.albion.id,
      client_id: edges.id,
      total_minor: 5000,
      date: day(-50),
      due_at: day(-40),
    });
    await insertTransaction(late, { amount_minor: 5000, paid_on: day(0) });
    const q = statementQuerySchema.parse({ from: day(-60), to: day(-1) });
    const before = await clientStatement(finance, edges.public_id, q);
    expect(before.currencies[0].aging.d31_60).toBeGreaterThanOrEqual(5000);
    const now = await clientReceivables(finance, edges.public_id);
    expect(now.items.map((i) => i.number)).not.toContain(late.number);
  });
});

function outstandingOf(s: Awaited<ReturnType<typeof billingSummary>>, currency: string) {
  return s.currencies.find((c) => c.currency === currency)!.outstanding_minor;
}

const publicIds = new Map<number, string>();
function clientPublicId(id: number): string | undefined {
  if (!publicIds.size)
    for (const c of [w.oakwood, birch, edges, w.highland]) publicIds.set(c.id, c.public_id);
  return publicIds.get(id);
}
