/**
 * Statements of account: for a client, or one of its campuses, over any period, per currency:
 * the opening balance, every invoice, credit note, payment and refund of the period in date order with a
 * running balance, the closing balance, and the aging of what is owed at the end date.
 *
 * The ledger: an invoice (or supplementary invoice) and a refund raise the balance; a credit note and a
 * payment lower it. Voided invoices never owed anything and are left out. Opening = the ledger before
 * `from`; closing = opening + the period's movements = the aging total at `to` (tests prove it).
 * The invoices read are those the actor may see (`visibleInvoices`), of the client (and campus).
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { campuses, clients, companies, invoices, transactions } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findCampus, findClient } from '../access/finders';
import { visibleCampus, visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { major, msg, todayIso } from '../validation';
import { dueState, daysOverdue, type DueState, type AgingBucket } from '../invoices/status';
import { agingSums, presentAging, type AgingMinor } from './summary';
import { statementPeriod, type StatementEntryKind, type StatementQuery } from './schema';

/** Who may read a statement of account or a client's receivables (the tenant scope decides whose). */
export const STATEMENT_ACCESS = 'read_billing|read_client_billing|read_invoice';

export interface StatementEntry {
  date: string;
  kind: StatementEntryKind;
  /** The document's number; for a payment or a refund, the invoice's. */
  reference: string;
  invoice_id: string;
  /** A credit note's invoice, a payment's way (bank_transfer, card, ...), a note. */
  detail: string | null;
  /** The public id of a credit note's invoice (`detail` is its number), so the line links to it. */
  credit_for_id: string | null;
  due_at: string | null;
  debit_minor: number;
  credit_minor: number;
  balance_minor: number;
}

export interface StatementCurrency {
  currency: string;
  opening_minor: number;
  closing_minor: number;
  debits_minor: number;
  credits_minor: number;
  entries: StatementEntry[];
  aging: AgingMinor;
}

export interface StatementTarget {
  client: { id: string; name: string; id_numeric: number; preferred_lang: string | null };
  campus: { id: string; name: string; id_numeric: number } | null;
  company: { id: number; name: string };
}

const KIND_ORDER: Record<StatementEntryKind, number> = { invoice: 0, credit_note: 1, payment: 2, refund: 3 };

/** The client (and campus) a statement is of, found in the actor's scope. */
export async function statementTarget(
  ctx: ActorCtx,
  ids: { client?: string | number; campus?: string | null },
): Promise<StatementTarget> {
  let campus: StatementTarget['campus'] = null;
  let clientId = ids.client;
  if (ids.campus) {
    const found = await findCampus(ctx, ids.campus, STATEMENT_ACCESS);
    if (clientId !== undefined && clientId !== found.client.public_id && clientId !== found.client.id)
      throw new NotFound(msg('campuses.errors.not_found'));
    campus = { id: found.campus.public_id, name: found.campus.name, id_numeric: found.campus.id };
    clientId = found.client.id;
  }
  if (clientId === undefined) throw new NotFound(msg('campuses.errors.client_not_found'));
  const client = await findClient(ctx, clientId, STATEMENT_ACCESS);
  const [company] = await ctx.db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(eq(companies.id, client.company_id));
  return {
    client: {
      id: client.public_id,
      name: client.name,
      id_numeric: client.id,
      preferred_lang: client.preferred_lang,
    },
    campus,
    company,
  };
}

/** The invoices a statement reads: the target's, as the actor may see them, never the voided ones. */
function statementInvoices(ctx: ActorCtx, clientId: number, campusId: number | null): SQL {
  return and(
    eq(invoices.client_id, clientId),
    campusId === null ? undefined : eq(invoices.campus_id, campusId),
    visibleInvoices(ctx.actor),
    sql`${invoices.voided_at} IS NULL`,
  )!;
}

const moneyDay = sql`coalesce(${transactions.paid_on}, date(${transactions.created_at} / 1000, 'unixepoch'))`;

interface LedgerRow {
  day: string;
  kind: StatementEntryKind;
  reference: string;
  invoice_id: string;
  detail: string | null;
  credit_for_id: string | null;
  due_at: string | null;
  currency: string;
  amount: number;
  seq: number;
}

/** Every movement of the ledger (signed: + owed, - paid or credited) up to `to`, as one UNION. */
function ledger(where: SQL, to: string) {
  return sql`SELECT ${invoices.date} AS day,
      CASE WHEN ${invoices.type} = 'credit_note' THEN 'credit_note' ELSE 'invoice' END AS kind,
      ${invoices.number} AS reference, ${invoices.public_id} AS invoice_id,
      (SELECT c.number FROM invoices c WHERE c.id = ${invoices.credit_for_id}) AS detail,
      (SELECT c.public_id FROM invoices c WHERE c.id = ${invoices.credit_for_id}) AS credit_for_id,
      CASE WHEN ${invoices.type} = 'credit_note' THEN NULL ELSE ${invoices.due_at} END AS due_at,
      ${invoices.currency} AS currency,
      CASE WHEN ${invoices.type} = 'credit_note' THEN -${invoices.total_minor} ELSE ${invoices.total_minor} END AS amount,
      ${invoices.id} AS seq
    FROM ${invoices} WHERE ${where} AND ${invoices.date} <= ${to}
    UNION ALL
    SELECT ${moneyDay}, ${transactions.kind}, ${invoices.number}, ${invoices.public_id},
      coalesce(${transactions.method}, ${transactions.gateway}), NULL, NULL, ${invoices.currency},
      CASE WHEN ${transactions.kind} = 'payment' THEN -${transactions.amount_minor} ELSE ${transactions.amount_minor} END,
      ${transactions.id}
    FROM ${transactions} JOIN ${invoices} ON ${invoices.id} = ${transactions.invoice_id}
    WHERE ${where} AND ${transactions.status} = 'succeeded' AND ${moneyDay} <= ${to}`;
}

/**
 * The aging at `to` of the target's invoices: what each owed on that day (payments, refunds and credit
 * notes dated after it not counted), in buckets of days past due; credit notes on the account and
 * overpayments as credit.
 */
async function agingAt(ctx: ActorCtx, where: SQL, to: string) {
  const rows = await ctx.db.all<Record<AgingBucket | 'credit', number | null> & { currency: string }>(sql`
    WITH b AS (
      SELECT ${invoices.currency} AS currency, ${invoices.due_at} AS due,
        CASE WHEN ${invoices.type} = 'credit_note' THEN -${invoices.total_minor}
        ELSE ${invoices.total_minor}
          - coalesce((SELECT sum(CASE WHEN t.kind = 'payment' THEN t.amount_minor ELSE -t.amount_minor END)
              FROM transactions t WHERE t.invoice_id = ${invoices.id} AND t.status = 'succeeded'
                AND coalesce(t.paid_on, date(t.created_at / 1000, 'unixepoch')) <= ${to}), 0)
          - coalesce((SELECT sum(c.total_minor) FROM invoices c WHERE c.credit_for_id = ${invoices.id}
              AND c.type = 'credit_note' AND c.voided_at IS NULL AND c.date <= ${to}), 0)
        END AS bal
      FROM ${invoices}
      WHERE ${where} AND ${invoices.date} <= ${to}
        AND (${invoices.type} <> 'credit_note' OR ${invoices.credit_for_id} IS NULL))
    SELECT currency, ${agingSums(to)} FROM b GROUP BY currency`);
  return new Map(
    rows.map((r) => {
      const owed = (['current', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const).map((k) =>
        Number(r[k] ?? 0),
      );
      const credit = Number(r.credit ?? 0);
      const [current, d1_30, d31_60, d61_90, over_90] = owed;
      const a: AgingMinor = {
        current,
        d1_30,
        d31_60,
        d61_90,
        over_90,
        credit,
        total: owed.reduce((s, v) => s + v, 0) - credit,
      };
      return [r.currency, a];
    }),
  );
}

/** The statement of `target` for the period the query asks (default: this year up to today). */
export async function statementOfAccount(ctx: ActorCtx, target: StatementTarget, q: StatementQuery) {
  const period = statementPeriod(q, todayIso(ctx.now));
  const where = statementInvoices(ctx, target.client.id_numeric, target.campus?.id_numeric ?? null);
  const [rows, aging] = await Promise.all([
    ctx.db.all<LedgerRow>(ledger(where, period.to)),
    agingAt(ctx, where, period.to),
  ]);
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const sections: StatementCurrency[] = currencies.map((currency) => {
    const mine = rows.filter((r) => r.currency === currency);
    const opening = mine.filter((r) => r.day < period.from).reduce((s, r) => s + Number(r.amount), 0);
    let balance = opening;
    let debits = 0;
    let credits = 0;
    const entries = mine
      .filter((r) => r.day >= period.from)
      .sort((a, b) => a.day.localeCompare(b.day) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.seq - b.seq)
      .map((r): StatementEntry => {
        const amount = Number(r.amount);
        balance += amount;
        if (amount >= 0) debits += amount;
        else credits -= amount;
        return {
          date: r.day,
          kind: r.kind,
          reference: r.reference,
          invoice_id: r.invoice_id,
          detail: r.detail,
          credit_for_id: r.credit_for_id,
          due_at: r.due_at,
          debit_minor: amount > 0 ? amount : 0,
          credit_minor: amount < 0 ? -amount : 0,
          balance_minor: balance,
        };
      });
    const none: AgingMinor = { current: 0, d1_30: 0, d31_60: 0, d61_90: 0, over_90: 0, credit: 0, total: 0 };
    return {
      currency,
      opening_minor: opening,
      closing_minor: balance,
      debits_minor: debits,
      credits_minor: credits,
      entries,
      aging: aging.get(currency) ?? none,
    };
  });
  return { ...period, target, currencies: sections };
}
export type StatementOfAccount = Awaited<ReturnType<typeof statementOfAccount>>;

/** A statement as the API answers it: money in major units with the minor units beside them. */
export function presentStatement(s: StatementOfAccount) {
  const m = (minor: number) => major(minor)!;
  return {
    from: s.from,
    to: s.to,
    client: { id: s.target.client.id, name: s.target.client.name },
    campus: s.target.campus && { id: s.target.campus.id, name: s.target.campus.name },
    currencies: s.currencies.map((c) => ({
      currency: c.currency,
      opening_balance: m(c.opening_minor),
      opening_balance_minor: c.opening_minor,
      closing_balance: m(c.closing_minor),
      closing_balance_minor: c.closing_minor,
      entries: c.entries.map((e) => ({
        ...e,
        debit: m(e.debit_minor),
        credit: m(e.credit_minor),
        balance: m(e.balance_minor),
      })),
      aging: presentAging(c.aging),
    })),
  };
}

// ---------------------------------------------------------------- receivables

export interface ReceivableRow {
  id: string;
  number: string;
  type: 'invoice' | 'supplementary' | 'credit_note';
  campus: string | null;
  date: string;
  due_at: string;
  currency: string;
  total_minor: number;
  balance_minor: number;
  due_state: DueState | null;
  days_overdue: number;
}

/**
 * The client's receivables tab: its invoices that still owe something (oldest due first) and its credit
 * standing on the account, with the totals and aging per currency on `today`.
 */
export async function clientReceivables(ctx: ActorCtx, clientId: string) {
  const target = await statementTarget(ctx, { client: clientId });
  const today = todayIso(ctx.now);
  const where = statementInvoices(ctx, target.client.id_numeric, null);
  const bal = sql`${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor}`;
  const rows = await ctx.db.all<{
    id: string;
    number: string;
    type: ReceivableRow['type'];
    campus: string | null;
    date: string;
    due_at: string;
    currency: string;
    total_minor: number;
    paid_minor: number;
    refunded_minor: number;
    credited_minor: number;
  }>(sql`SELECT ${invoices.public_id} AS id, ${invoices.number} AS number, ${invoices.type} AS type,
      (SELECT name FROM campuses WHERE campuses.id = ${invoices.campus_id}) AS campus,
      ${invoices.date} AS date, ${invoices.due_at} AS due_at, ${invoices.currency} AS currency,
      ${invoices.total_minor} AS total_minor, ${invoices.paid_minor} AS paid_minor,
      ${invoices.refunded_minor} AS refunded_minor, ${invoices.credited_minor} AS credited_minor
    FROM ${invoices}
    WHERE ${where} AND CASE WHEN ${invoices.type} = 'credit_note' THEN ${invoices.credit_for_id} IS NULL
      ELSE ${bal} <> 0 END
    ORDER BY ${invoices.due_at}, ${invoices.number}`);
  const items: ReceivableRow[] = rows.map((r) => {
    const credit = r.type === 'credit_note';
    const balance = credit
      ? -r.total_minor
      : r.total_minor - r.paid_minor + r.refunded_minor - r.credited_minor;
    const state = credit ? null : dueState({ ...r, voided_at: null }, today);
    return {
      id: r.id,
      number: r.number,
      type: r.type,
      campus: r.campus,
      date: r.date,
      due_at: r.due_at,
      currency: r.currency,
      total_minor: r.total_minor,
      balance_minor: balance,
      due_state: state,
      days_overdue: state === 'overdue' ? daysOverdue(r.due_at, today) : 0,
    };
  });
  const aging = await agingAt(ctx, where, today);
  return {
    today,
    client: { id: target.client.id, name: target.client.name },
    items,
    totals: [...aging.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, a]) => ({ currency, aging: a })),
  };
}
export type ClientReceivables = Awaited<ReturnType<typeof clientReceivables>>;

/** The campuses of a client the actor may ask a statement of (a school user's campus choice). */
export async function statementCampuses(ctx: ActorCtx, clientId: number) {
  requirePermission(ctx.actor, STATEMENT_ACCESS);
  return ctx.db
    .select({ id: campuses.public_id, name: campuses.name })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(and(eq(campuses.client_id, clientId), visibleCampus(ctx.actor)))
    .orderBy(campuses.name);
}
