/**
 * GET billing/summary (spec 002 s.7 "Billing and school-area summaries"): per currency what is
 * outstanding, overdue and paid this month; the aging of every client's balance (current, 1-30, 31-60,
 * 61-90, over 90 days past due), the largest debtors first; and the last twelve months' invoiced and
 * collected amounts. Three aggregate statements over the invoices the actor may see, so it stays fast at
 * tens of thousands of invoices (scripts/bench/billing-summary.mjs).
 *
 * A client's balance is what its invoices still owe (status.ts `balanceMinor`) less its unapplied credit:
 * credit notes that stand on the account (not against an invoice) and anything paid beyond an invoice's
 * total. Voided invoices owe nothing. Paid this month and collected are payments less refunds, by the day
 * the money moved.
 */
import { sql, type SQL } from 'drizzle-orm';
import { billingBalances, billingMonths, clients, invoices, transactions } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { billingTotalsScope, visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { major, todayIso } from '../validation';
import { AGING_BUCKETS, type AgingBucket } from '../invoices/status';
import { pageOf, type Page } from '../list-query';

/** Who may read the billing summary. */
export const SUMMARY_PERMISSION = 'read_billing';

/** How many months the chart covers, this one included. */
export const SUMMARY_MONTHS = 12;

/** The day `days` before `iso` (YYYY-MM-DD). */
export function daysBefore(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The first day of the month `back` months before the month of `iso`. */
export function monthStart(iso: string, back = 0): string {
  const d = new Date(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1 - back, 1));
  return d.toISOString().slice(0, 10);
}

/** The months (YYYY-MM) of the chart, oldest first, ending with the month of `today`. */
export function summaryMonths(today: string): string[] {
  return Array.from({ length: SUMMARY_MONTHS }, (_, i) =>
    monthStart(today, SUMMARY_MONTHS - 1 - i).slice(0, 7),
  );
}

/**
 * The SQL that sums balances into the aging buckets on `today`. By default over rows with `bal` (an
 * invoice's balance; negative is credit, counted apart) and `due`; or over rows that hold what is owed
 * and the credit apart (`owed`, `credit`, both never negative) with their due date (`due`).
 */
export function agingSums(
  today: string,
  owed: SQL = sql`CASE WHEN bal > 0 THEN bal ELSE 0 END`,
  credit: SQL = sql`CASE WHEN bal < 0 THEN -bal ELSE 0 END`,
  due: SQL = sql`due`,
) {
  const d30 = daysBefore(today, 30);
  const d60 = daysBefore(today, 60);
  const d90 = daysBefore(today, 90);
  return sql`sum(CASE WHEN ${due} >= ${today} THEN ${owed} ELSE 0 END) AS current,
    sum(CASE WHEN ${due} < ${today} AND ${due} >= ${d30} THEN ${owed} ELSE 0 END) AS d1_30,
    sum(CASE WHEN ${due} < ${d30} AND ${due} >= ${d60} THEN ${owed} ELSE 0 END) AS d31_60,
    sum(CASE WHEN ${due} < ${d60} AND ${due} >= ${d90} THEN ${owed} ELSE 0 END) AS d61_90,
    sum(CASE WHEN ${due} < ${d90} THEN ${owed} ELSE 0 END) AS over_90,
    sum(${credit}) AS credit`;
}

export type AgingMinor = Record<AgingBucket, number> & { credit: number; total: number };

/** Buckets as the API shows them: major units, with the minor units beside them. */
export function presentAging(a: AgingMinor) {
  const out: Record<string, number> = {};
  for (const b of [...AGING_BUCKETS, 'unapplied_credit', 'total'] as const) {
    const minor = b === 'unapplied_credit' ? a.credit : a[b];
    out[b] = major(minor)!;
    out[`${b}_minor`] = minor;
  }
  return out as Record<AgingBucket | 'unapplied_credit' | 'total', number> &
    Record<`${AgingBucket | 'unapplied_credit' | 'total'}_minor`, number>;
}

function agingOf(r: Record<AgingBucket | 'credit', number | null>): AgingMinor {
  const a = Object.fromEntries(AGING_BUCKETS.map((b) => [b, Number(r[b] ?? 0)])) as Record<
    AgingBucket,
    number
  >;
  const credit = Number(r.credit ?? 0);
  const owed = AGING_BUCKETS.reduce((s, b) => s + a[b], 0);
  return { ...a, credit, total: owed - credit };
}

interface AgingRow extends Record<AgingBucket | 'credit', number | null> {
  client_id: number;
  client_public_id: string;
  client_name: string;
  currency: string;
}

type MonthRow = { currency: string; month: string; amount: number };

/** The summary's three sums over the actor's invoices one by one (any scope). */
async function sumsFromInvoices(ctx: ActorCtx, today: string, start: string) {
  const scope = visibleInvoices(ctx.actor);
  const moneyDay = sql`coalesce(${transactions.paid_on}, date(${transactions.created_at} / 1000, 'unixepoch'))`;
  return Promise.all([
    ctx.db.all<AgingRow>(sql`WITH b AS (
        SELECT ${invoices.client_id} AS client_id, ${invoices.currency} AS currency, ${invoices.due_at} AS due,
          CASE WHEN ${invoices.type} = 'credit_note' THEN -${invoices.total_minor}
            ELSE ${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor}
          END AS bal
        FROM ${invoices}
        WHERE ${scope} AND ${invoices.voided_at} IS NULL
          AND CASE WHEN ${invoices.type} = 'credit_note' THEN ${invoices.credit_for_id} IS NULL
            ELSE ${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor} <> 0 END)
      SELECT b.client_id, ${clients.public_id} AS client_public_id, ${clients.name} AS client_name, b.currency,
        ${agingSums(today)}
      FROM b JOIN ${clients} ON ${clients.id} = b.client_id
      GROUP BY b.client_id, b.currency`),
    ctx.db.all<MonthRow>(sql`
      SELECT ${invoices.currency} AS currency, substr(${invoices.date}, 1, 7) AS month,
        sum(${invoices.total_minor}) AS amount
      FROM ${invoices}
      WHERE ${scope} AND ${invoices.type} <> 'credit_note' AND ${invoices.voided_at} IS NULL
        AND ${invoices.date} >= ${start} AND ${invoices.date} <= ${today}
      GROUP BY 1, 2`),
    ctx.db.all<MonthRow>(sql`
      SELECT ${invoices.currency} AS currency, substr(${moneyDay}, 1, 7) AS month,
        sum(CASE WHEN ${transactions.kind} = 'payment' THEN ${transactions.amount_minor}
          ELSE -${transactions.amount_minor} END) AS amount
      FROM ${transactions} JOIN ${invoices} ON ${invoices.id} = ${transactions.invoice_id}
      WHERE ${scope} AND ${transactions.status} = 'succeeded'
        AND ${moneyDay} >= ${start} AND ${moneyDay} <= ${today}
      GROUP BY 1, 2`),
  ] as const);
}

/**
 * The same sums from the running totals kept by triggers (drizzle/schema/billing-totals.ts): a few
 * hundred rows per company instead of every invoice (docs/performance.md, "Billing summary"). The month
 * rows hold whole months; nothing is dated after today (invoices are dated when issued, payments not in
 * the future), so this month's row is this month up to today.
 */
async function sumsFromTotals(ctx: ActorCtx, scope: SQL, monthScope: SQL, today: string, start: string) {
  const b = billingBalances;
  const m = billingMonths;
  const [aging, months] = await Promise.all([
    ctx.db.all<AgingRow>(sql`
      SELECT ${b.client_id} AS client_id, ${clients.public_id} AS client_public_id, ${clients.name} AS client_name,
        ${b.currency} AS currency, ${agingSums(today, sql`${b.owed_minor}`, sql`${b.credit_minor}`, sql`${b.due_at}`)}
      FROM ${b} JOIN ${clients} ON ${clients.id} = ${b.client_id}
      WHERE ${scope}
      GROUP BY ${b.company_id}, ${b.client_id}, ${b.currency}`),
    ctx.db.all<{ currency: string; month: string; invoiced: number; collected: number }>(sql`
      SELECT ${m.currency} AS currency, ${m.month} AS month, sum(${m.invoiced_minor}) AS invoiced,
        sum(${m.collected_minor}) AS collected
      FROM ${m}
      WHERE ${monthScope} AND ${m.month} >= ${start.slice(0, 7)} AND ${m.month} <= ${today.slice(0, 7)}
      GROUP BY 1, 2`),
  ]);
  return [
    aging,
    months.map((r) => ({ currency: r.currency, month: r.month, amount: r.invoiced })),
    months.map((r) => ({ currency: r.currency, month: r.month, amount: r.collected })),
  ] as const;
}

/** The billing summary of the invoices the actor may see, on the day of `ctx.now`. */
export async function billingSummary(ctx: ActorCtx) {
  return billingSummaryFrom(
    ctx,
    billingTotalsScope(ctx.actor, billingBalances.company_id) ? 'totals' : 'invoices',
  );
}

/**
 * The billing summary summed from the running totals (only for a company-wide reader, see
 * `billingTotalsScope`) or from the invoices one by one (any reader); both give the same figures
 * (tests/domain/billing-totals.test.ts).
 */
export async function billingSummaryFrom(ctx: ActorCtx, source: 'totals' | 'invoices') {
  requirePermission(ctx.actor, SUMMARY_PERMISSION);
  const today = todayIso(ctx.now);
  const months = summaryMonths(today);
  const start = `${months[0]}-01`;
  const thisMonth = months[months.length - 1];
  const totals = billingTotalsScope(ctx.actor, billingBalances.company_id);
  const monthScope = billingTotalsScope(ctx.actor, billingMonths.company_id);
  const [agingRows, invoiced, collected] =
    source === 'totals' && totals && monthScope
      ? await sumsFromTotals(ctx, totals, monthScope, today, start)
      : await sumsFromInvoices(ctx, today, start);

  const aging = agingRows
    .map((r) => ({
      client: { id: r.client_public_id, name: r.client_name },
      currency: r.currency,
      minor: agingOf(r),
    }))
    .filter((r) => r.minor.total !== 0 || r.minor.credit !== 0)
    .sort(
      (a, b) =>
        b.minor.total - a.minor.total ||
        a.client.name.localeCompare(b.client.name) ||
        a.currency.localeCompare(b.currency),
    );

  const currencies = [
    ...new Set([
      ...aging.map((a) => a.currency),
      ...invoiced.map((r) => r.currency),
      ...collected.map((r) => r.currency),
    ]),
  ].sort();
  const cell = (
    rows: { currency: string; month: string; amount: number }[],
    currency: string,
    month: string,
  ) => Number(rows.find((r) => r.currency === currency && r.month === month)?.amount ?? 0);

  return {
    today,
    month: thisMonth,
    currencies: currencies.map((currency) => {
      const mine = aging.filter((a) => a.currency === currency).map((a) => a.minor);
      const sum = (f: (a: AgingMinor) => number) => mine.reduce((s, a) => s + f(a), 0);
      const outstanding = sum((a) => AGING_BUCKETS.reduce((s, b) => s + a[b], 0));
      const overdue = sum((a) => a.d1_30 + a.d31_60 + a.d61_90 + a.over_90);
      const credit = sum((a) => a.credit);
      const paid = cell(collected, currency, thisMonth);
      return {
        currency,
        outstanding: major(outstanding)!,
        outstanding_minor: outstanding,
        overdue: major(overdue)!,
        overdue_minor: overdue,
        paid_this_month: major(paid)!,
        paid_this_month_minor: paid,
        unapplied_credit: major(credit)!,
        unapplied_credit_minor: credit,
      };
    }),
    aging: aging.map((a) => ({ client: a.client, currency: a.currency, ...presentAging(a.minor) })),
    months: currencies.flatMap((currency) =>
      months.map((month) => {
        const inv = cell(invoiced, currency, month);
        const col = cell(collected, currency, month);
        return {
          month,
          currency,
          invoiced: major(inv)!,
          invoiced_minor: inv,
          collected: major(col)!,
          collected_minor: col,
        };
      }),
    ),
  };
}
export type BillingSummary = Awaited<ReturnType<typeof billingSummary>>;

/** Rows of the aging table per page on /billing (the API answers every row). */
export const AGING_PER_PAGE = 25;

/** One page (from 1; past the end: the last) of the summary's aging rows, with the list meta. */
export function agingPage<T>(rows: T[], page: number): Page<T> {
  return pageOf(rows, page, AGING_PER_PAGE);
}
