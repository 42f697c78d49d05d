/**
 * Periodic invoicing (spec 001 s.3 client payment terms and invoice rules; spec 002 s.7
 * `clients/{id}/generate-invoices`, `campuses/{id}/generate-invoices`). Decided in docs/decisions/billing.md,
 * "Periodic invoicing".
 *
 * - A client on weekly, bi-weekly, semi-monthly or monthly terms who chooses "invoice" at checkout gets
 *   its policies issued "on account": no invoice yet (policies.invoice_id NULL).
 * - The periods: weekly Monday to Sunday; bi-weekly the fortnight of ISO weeks paired from week 1 (it
 *   ends on the Sunday of the even week); semi-monthly the 1st to the 15th and the 16th to the month's
 *   end; monthly the calendar month. A period's last day is the due date terms.ts gives any day of it,
 *   so the checkout, the due dates and the invoicing agree.
 * - The daily task invoices each such client for every period that has ended (the day before today or
 *   earlier: a missed day is caught up) holding policies on account booked in it; on demand finance
 *   invoices what was booked from `from` to `to` (and of one group), for a client or one campus.
 * - One invoice per currency and, by the client's invoice rule: by location, per campus (billed to the
 *   client); by group, per group name (billed to the client); invoice campus directly, per campus,
 *   billed to the campus's billing address. Each invoice: the next number of the `invoice` series (given
 *   in the same transaction: no gaps), the billing address as it is now, the period, the group, the
 *   due date of the client's terms from the invoice date, a line per policy at its own rate.
 * - Once only: the whole run is ONE D1 batch of set-based statements over the policies still on
 *   account; D1 runs batches one after another, so two runs at once (the cron and a click, two tabs)
 *   cannot invoice a policy twice: the second finds nothing left.
 */
import { addDays, format, getISOWeek, parseISO } from 'date-fns';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { clients, policies } from '../../../drizzle/schema';
import { inJson, runBatch, type DB, type Statement } from '../../platform/db';
import { invoicesIssued } from '../notifications/events';
import type { Actor } from '../access/actor';
import { findCampus, findClient } from '../access/finders';
import { logActivityFrom } from '../audit/activity-log';
import { dueDate, type PaymentTerms } from '../checkout/terms';
import type { ActorCtx, Ctx } from '../context';
import { ValidationFailed } from '../errors';
import { msg, todayIso } from '../validation';
import { billingAddressSnapshot } from './billing-address';
import { settleInvoices } from './settle';

export const PERIODIC_TERMS = ['weekly', 'bi_weekly', 'semi_monthly', 'monthly'] as const;
export type PeriodicTerms = (typeof PERIODIC_TERMS)[number];
export const GENERATE_PERMISSION = 'create_invoice';
export const INVOICE_SERIES = 'invoice';

export function isPeriodic(terms: string | null | undefined): terms is PeriodicTerms {
  return (PERIODIC_TERMS as readonly string[]).includes(terms ?? '');
}

const iso = (d: Date) => format(d, 'yyyy-MM-dd');

/** The period (first and last day, YYYY-MM-DD) of `terms` that holds `date`. */
export function periodOf(terms: PeriodicTerms, date: string): { from: string; to: string } {
  const to = dueDate(terms, date);
  switch (terms) {
    case 'weekly':
      return { from: iso(addDays(parseISO(to), -6)), to };
    case 'bi_weekly': {
      // The fortnight ends on an even ISO week's Sunday; it starts on the Monday of the week before,
      // or (after a 53-week year) on the Monday of the same week when that week is week 1.
      const end = parseISO(to);
      const week = getISOWeek(end);
      return { from: iso(addDays(end, week === 1 ? -6 : -13)), to };
    }
    case 'semi_monthly':
      return { from: date.slice(8) <= '15' ? `${date.slice(0, 8)}01` : `${date.slice(0, 8)}16`, to };
    case 'monthly':
      return { from: `${date.slice(0, 8)}01`, to };
  }
}

/** The periods that ended before `today` and hold any of `dates` (booking dates), in order. */
export function endedPeriods(
  terms: PeriodicTerms,
  dates: readonly string[],
  today: string,
): { from: string; to: string }[] {
  const byEnd = new Map<string, { from: string; to: string }>();
  for (const d of dates) {
    const p = periodOf(terms, d);
    if (p.to < today) byEnd.set(p.to, p);
  }
  return [...byEnd.values()].sort((a, b) => a.from.localeCompare(b.from));
}

/** When policies booked on `date` on account will be invoiced: the day after their period ends. */
export function invoicedOn(terms: PeriodicTerms, date: string): string {
  return iso(addDays(parseISO(periodOf(terms, date).to), 1));
}

// ---------------------------------------------------------------- what is invoiced

type InvoiceRule = 'by_location' | 'by_group' | 'invoice_campus_directly';

export interface GenerateScope {
  client_id: number;
  campus_id?: number | null;
  from: string;
  to: string;
  /** Only the policies of this group name. */
  group?: string | null;
}

/** The policies on account a run takes: the client's (or campus's), booked in the period, not invoiced. */
function candidates(s: GenerateScope): SQL {
  return and(
    eq(policies.client_id, s.client_id),
    s.campus_id ? eq(policies.campus_id, s.campus_id) : undefined,
    isNull(policies.invoice_id),
    sql`${policies.booking_date} BETWEEN ${s.from} AND ${s.to}`,
    s.group ? eq(policies.group_name, s.group) : undefined,
  )!;
}

/** The key of a policy's invoice under the rule (SQL over the `policies` row `p`). */
function invoiceKeySql(rule: InvoiceRule): SQL {
  return rule === 'by_group'
    ? sql.raw(`p.currency || '|g|' || coalesce(p.group_name, '')`)
    : sql.raw(`p.currency || '|c|' || p.campus_id`);
}

/** What a run would invoice, one row per future invoice. */
export interface PlannedInvoice {
  key: string;
  currency: string;
  campus: { id: string; name: string } | null;
  group_name: string | null;
  policies: number;
  insurance_cost_minor: number;
  tax_minor: number;
  stamp_duty_minor: number;
  total_minor: number;
}

async function planRun(db: DB, s: GenerateScope, rule: InvoiceRule): Promise<PlannedInvoice[]> {
  const key = invoiceKeySql(rule);
  const rows = await db.all<{
    key: string;
    currency: string;
    campus_public_id: string | null;
    campus_name: string | null;
    group_name: string | null;
    n: number;
    premium: number;
    tax: number;
    stamp: number;
  }>(sql`SELECT ${key} AS key, p.currency,
      CASE WHEN count(DISTINCT p.campus_id) = 1 THEN min(c.public_id) END AS campus_public_id,
      CASE WHEN count(DISTINCT p.campus_id) = 1 THEN min(c.name) END AS campus_name,
      ${rule === 'by_group' ? sql`min(p.group_name)` : sql`NULL`} AS group_name,
      count(*) AS n, sum(p.premium_minor) AS premium, sum(p.tax_minor) AS tax, sum(p.stamp_duty_minor) AS stamp
    FROM policies p JOIN campuses c ON c.id = p.campus_id
    WHERE p.id IN (SELECT ${policies.id} FROM ${policies} WHERE ${candidates(s)})
    GROUP BY 1, 2 ORDER BY 1`);
  return rows.map((r) => ({
    key: r.key,
    currency: r.currency,
    campus: r.campus_public_id ? { id: r.campus_public_id, name: r.campus_name ?? '' } : null,
    group_name: r.group_name,
    policies: Number(r.n),
    insurance_cost_minor: Number(r.premium),
    tax_minor: Number(r.tax),
    stamp_duty_minor: Number(r.stamp),
    total_minor: Number(r.premium) + Number(r.tax) + Number(r.stamp),
  }));
}

/**
 * The items of the invoices `invoiceIds` (SQL answering their ids), one per policy billed (kind
 * `premium`, the policy's rate and stamp duty), then each invoice's totals summed from its lines.
 */
export function invoiceLinesStatements(db: DB, invoiceIds: SQL): Statement[] {
  return [
    db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor, tax_minor,
        total_minor, kind, tax_rate_bp, stamp_duty_minor)
      SELECT p.invoice_id, p.id, pr.name || ' · ' || p.policy_number || ' · ' || p.first_name || ' ' || p.last_name
          || ' (' || strftime('%d/%m/%Y', p.start_date) || ' - ' || strftime('%d/%m/%Y', p.end_date) || ')',
        1, p.premium_minor, p.tax_minor, p.premium_minor + p.tax_minor + p.stamp_duty_minor, 'premium',
        p.tax_rate_bp, p.stamp_duty_minor
      FROM policies p JOIN products pr ON pr.id = p.product_id
      WHERE p.invoice_id IN ${invoiceIds}
      ORDER BY p.invoice_id, p.id`),
    db.run(sql`UPDATE invoices SET (insurance_cost_minor, tax_minor, stamp_duty_minor, total_minor) = (
        SELECT coalesce(sum(unit_minor * quantity), 0), coalesce(sum(tax_minor), 0),
          coalesce(sum(stamp_duty_minor), 0), coalesce(sum(total_minor), 0)
        FROM invoice_items WHERE invoice_id = invoices.id)
      WHERE id IN ${invoiceIds}`),
  ];
}

/** A run's invoices are found by their key prefix (`periodic:<run>:`), kept in invoices.checkout_key. */
const runInvoices = (run: string) =>
  sql`(SELECT id FROM invoices WHERE checkout_key >= ${`periodic:${run}:`} AND checkout_key < ${`periodic:${run};`})`;

/** The statements of one run: invoices, numbers, policies, items, totals, settle, activity log. */
function runStatements(
  db: DB,
  s: GenerateScope,
  client: { id: number; company_id: number; payment_terms: PaymentTerms; invoice_rule: InvoiceRule },
  opts: { run: string; today: string; now: Date; actor: Actor | null },
): Statement[] {
  const rule = client.invoice_rule;
  const key = invoiceKeySql(rule);
  const prefix = `periodic:${opts.run}:`;
  const ts = opts.now.getTime();
  const ids = runInvoices(opts.run);
  const billTo =
    rule === 'invoice_campus_directly'
      ? billingAddressSnapshot(
          'campus',
          sql`g.campus_id`,
          sql`(SELECT name FROM campuses WHERE id = g.campus_id)`,
        )
      : billingAddressSnapshot('client', client.id, sql`(SELECT name FROM clients WHERE id = ${client.id})`);
  return [
    db.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${INVOICE_SERIES}, 0)`),
    db.run(sql`WITH g AS (
        SELECT ${key} AS key, p.currency,
          CASE WHEN count(DISTINCT p.campus_id) = 1 THEN min(p.campus_id) END AS campus_id,
          ${rule === 'by_group' ? sql`min(p.group_name)` : sql`NULL`} AS group_name,
          row_number() OVER (ORDER BY ${key}) AS rn
        FROM policies p
        WHERE p.id IN (SELECT ${policies.id} FROM ${policies} WHERE ${candidates(s)})
        GROUP BY 1, 2),
      seq AS (SELECT value FROM sequences WHERE name = ${INVOICE_SERIES})
      INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method,
        currency, date, due_at, insurance_cost_minor, tax_minor, admin_fee_minor, total_minor, paid_minor, type,
        payment_reference, created_by, checkout_key, billing_address, period_from, period_to, group_name,
        created_at, updated_at)
      SELECT lower(hex(randomblob(8))), 'INV' || printf('%07d', seq.value + g.rn), ${client.company_id},
        ${client.id}, g.campus_id, 'unpaid', 'invoiced_directly', g.currency, ${opts.today},
        ${dueDate(client.payment_terms, opts.today)}, 0, 0, 0, 0, 0, 'invoice',
        'INV' || printf('%07d', seq.value + g.rn) || '-' || upper(hex(randomblob(2))), ${opts.actor?.user_id ?? null},
        ${prefix} || g.key, ${billTo}, ${s.from}, ${s.to}, g.group_name, ${ts}, ${ts}
      FROM g CROSS JOIN seq
      ORDER BY g.rn`),
    db.run(
      sql`UPDATE sequences SET value = value + (SELECT count(*) FROM ${ids}) WHERE name = ${INVOICE_SERIES}`,
    ),
    db.run(sql`UPDATE policies AS p SET
        invoice_id = (SELECT i.id FROM invoices i WHERE i.checkout_key = ${prefix} || ${key}),
        updated_at = ${ts}
      WHERE p.id IN (SELECT ${policies.id} FROM ${policies} WHERE ${candidates(s)})`),
    ...invoiceLinesStatements(db, ids),
    settleInvoices(db, sql`x.id IN ${ids}`, opts.now),
    logActivityFrom(
      { db, actor: opts.actor, now: opts.now },
      { entity_type: 'invoice', action: 'issued' },
      sql`SELECT id AS entity_id, NULL AS before,
        json_object('number', number, 'total_minor', total_minor, 'currency', currency,
          'period_from', period_from, 'period_to', period_to, 'group_name', group_name,
          'policies', (SELECT count(*) FROM policies WHERE invoice_id = invoices.id), 'due_at', due_at) AS after,
        company_id, client_id
      FROM invoices WHERE id IN ${ids}`,
    ),
  ];
}

/** Runs one invoicing of `s` for the client (one batch) and answers the invoices it issued. */
async function generate(
  db: DB,
  s: GenerateScope,
  client: { id: number; company_id: number; payment_terms: PaymentTerms; invoice_rule: InvoiceRule },
  opts: { today: string; now: Date; actor: Actor | null },
) {
  const run = crypto.randomUUID();
  await runBatch(db, [
    ...runStatements(db, s, client, { ...opts, run }),
    ...(await invoicesIssued(
      { db, now: opts.now },
      { company_id: client.company_id, client_id: client.id },
      runInvoices(run),
    )),
  ]);
  return db.all<{ id: number; public_id: string; number: string; total_minor: number; currency: string }>(
    sql`SELECT id, public_id, number, total_minor, currency FROM invoices WHERE id IN ${runInvoices(run)} ORDER BY id`,
  );
}

// ---------------------------------------------------------------- on demand

export interface GenerateInput {
  from: string;
  to: string;
  group?: string | null;
}

function checkPeriod(input: GenerateInput) {
  if (input.to < input.from) throw ValidationFailed.field('to', msg('validation.end_after_start'));
}

async function scopeOf(ctx: ActorCtx, target: { client?: string; campus?: string }, input: GenerateInput) {
  checkPeriod(input);
  if (target.campus) {
    const { campus, client } = await findCampus(ctx, target.campus, GENERATE_PERMISSION);
    return { client, campus, scope: { client_id: client.id, campus_id: campus.id, ...input } };
  }
  const client = await findClient(ctx, target.client!, GENERATE_PERMISSION);
  return { client, campus: null, scope: { client_id: client.id, ...input } };
}

/** What generate-invoices would issue for a client or a campus (GET: nothing changes). */
export async function previewInvoices(
  ctx: ActorCtx,
  target: { client?: string; campus?: string },
  input: GenerateInput,
) {
  const { client, campus, scope } = await scopeOf(ctx, target, input);
  const invoices = await planRun(ctx.db, scope, client.invoice_rule);
  return {
    client: { id: client.public_id, name: client.name, payment_terms: client.payment_terms },
    /** Set when the run is one campus's (campuses/{id}/generate-invoices). */
    campus: campus ? { id: campus.public_id, name: campus.name } : null,
    invoice_rule: client.invoice_rule,
    from: input.from,
    to: input.to,
    group: input.group ?? null,
    due_at: dueDate(client.payment_terms, todayIso(ctx.now)),
    invoices,
  };
}
export type InvoicePreview = Awaited<ReturnType<typeof previewInvoices>>;

/** Issues the invoices of a client's (or campus's) policies on account booked from `from` to `to`. */
export async function generateInvoices(
  ctx: ActorCtx,
  target: { client?: string; campus?: string },
  input: GenerateInput,
) {
  const { client, scope } = await scopeOf(ctx, target, input);
  const issued = await generate(ctx.db, scope, client, {
    today: todayIso(ctx.now),
    now: ctx.now,
    actor: ctx.actor,
  });
  return {
    invoices: issued.map((i) => ({
      id: i.public_id,
      number: i.number,
      total_minor: i.total_minor,
      currency: i.currency,
    })),
  };
}

// ---------------------------------------------------------------- the daily task

/**
 * The daily task: every client on periodic terms with policies on account booked in a period that has
 * ended is invoiced for each such period. Answers how many invoices it issued.
 */
export async function runPeriodicInvoicing(ctx: Ctx): Promise<{ invoices: number; clients: number }> {
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select({
      client_id: clients.id,
      company_id: clients.company_id,
      payment_terms: clients.payment_terms,
      invoice_rule: clients.invoice_rule,
      booking_date: policies.booking_date,
    })
    .from(policies)
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .where(
      and(
        isNull(policies.invoice_id),
        inJson(clients.payment_terms, PERIODIC_TERMS),
        sql`${policies.booking_date} < ${today}`,
      ),
    )
    .groupBy(clients.id, policies.booking_date);
  const byClient = new Map<number, { client: (typeof rows)[number]; dates: string[] }>();
  for (const r of rows) {
    const entry = byClient.get(r.client_id) ?? { client: r, dates: [] };
    entry.dates.push(r.booking_date);
    byClient.set(r.client_id, entry);
  }
  let count = 0;
  let invoiced = 0;
  for (const { client, dates } of byClient.values()) {
    const periods = endedPeriods(client.payment_terms as PeriodicTerms, dates, today);
    if (periods.length) invoiced += 1;
    for (const p of periods) {
      const issued = await generate(
        ctx.db,
        { client_id: client.client_id, from: p.from, to: p.to },
        { id: client.client_id, ...client },
        { today, now: ctx.now, actor: null },
      );
      count += issued.length;
    }
  }
  return { invoices: count, clients: invoiced };
}
