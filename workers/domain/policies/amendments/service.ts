/**
 * Amendments of issued policies (spec 001 s.4, 8; 002 s.7): extend, edit trip dates and cancel, each over
 * one insured or thousands, quoted first and confirmed once (ARCHITECTURE.md, "Policy changes after
 * issue"). Decisions in docs/decisions/after-the-sale.md, "Amendments".
 *
 * - `createAmendment` makes a draft with one line per selected policy in the actor's scope (and, for a
 *   cancellation, one per dependant of a selected insured), remembering each policy's version.
 * - `quoteAmendment` prices every line (pricing.ts) and stores the totals: what confirming will charge on
 *   one supplementary invoice per client and currency, or credit on one credit note.
 * - `confirmAmendment` applies a quote in ONE D1 batch (confirm.ts): every line's policy must still be at
 *   the version it was priced on, else nothing changes and the quote becomes `stale`. Confirming again
 *   answers the same result. Above CONFIRM_JOB_THRESHOLD policies it runs as a job.
 * - `getAmendment` is the view of the quote page and of `GET policies/amount/{id}`.
 *
 * Everything is set-based: the lines are written and read with a handful of statements whatever their
 * number (ids and priced lines travel as one JSON parameter, read with json_each).
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import {
  clients,
  contracts,
  invoices,
  jobs,
  policies,
  policyAmendmentLines,
  policyAmendments,
  products,
  units,
  type AmendmentKind,
  type AmendmentStatus,
} from '../../../../drizzle/schema';
import { publicId } from '../../../platform/crypto';
import { chunk, inJson, runBatch, type DB, type Statement } from '../../../platform/db';
import { can, requirePermission } from '../../access/actor';
import { visibleAmendments, visiblePolicies } from '../../access/scope';
import type { ActorCtx } from '../../context';
import { Conflict, NotFound, ValidationFailed } from '../../errors';
import { startJob, toStatus, type JobStatus } from '../../jobs/service';
import { countAll, paginate, type BulkSelection, type ListMeta } from '../../lists';
import { britishDate, msg, todayIso } from '../../validation';
import { tripDays } from '../../enrollments/rules';
import { selectedPolicyIds } from '../filters';
import type { PolicyListQuery } from '../list-query';
import { logActors } from '../../audit/activity-log';
import { applyAmendment } from './confirm';
import { priceBand, priceLine, type ContractTerms, type LineError } from './pricing';
import {
  AMEND_PERMISSION,
  CONFIRM_AMENDMENT_JOB,
  CONFIRM_JOB_THRESHOLD,
  type AmendmentViewQuery,
  type QuoteInput,
} from './schema';

export type AmendmentRow = typeof policyAmendments.$inferSelect;

/** Lines written per statement (the priced lines travel as one JSON parameter). */
const LINES_PER_STATEMENT = 1000;

export interface AmendmentLineView {
  policy: { id: string; policy_number: string; first_name: string; last_name: string; type: string };
  /** The insured whose cancellation brings this one in (a dependant), by policy number. */
  because_of: string | null;
  old_start_date: string;
  old_end_date: string;
  new_start_date: string | null;
  new_end_date: string | null;
  old_premium_minor: number;
  new_premium_minor: number | null;
  premium_diff_minor: number;
  tax_diff_minor: number;
  tax_rate: number | null;
  currency: string;
  /**
   * The price band of the new trip length (the lengths that cost the same under the policy's contract):
   * why a longer trip may cost nothing more. Null for a cancellation and before a quote.
   */
  price_band: { min_days: number; max_days: number | null } | null;
  errors: LineError[];
}

/** What one client will get for one currency: a supplementary invoice (charge) and/or a credit note. */
export interface AmendmentDocumentPlan {
  client: { id: string; name: string };
  currency: string;
  policies: number;
  charge_minor: number;
  charge_tax_minor: number;
  credit_minor: number;
  credit_tax_minor: number;
}

export interface AmendmentInvoice {
  id: string;
  number: string;
  type: 'invoice' | 'supplementary' | 'credit_note';
  status: string;
  currency: string;
  insurance_cost_minor: number;
  tax_minor: number;
  total_minor: number;
  client: { id: string; name: string };
}

export interface AmendmentView {
  id: string;
  kind: AmendmentKind;
  status: AmendmentStatus;
  new_start_date: string | null;
  new_end_date: string | null;
  reason: string | null;
  counts: {
    /** Every line (the selected insureds and, for a cancellation, their dependants). */
    policies: number;
    selected: number;
    dependants: number;
    with_errors: number;
    /** Lines refused because the insured is cancelled ('Cannot Edit Cancelled Insureds'). */
    cancelled: number;
    /** Cancellation: insureds of other lines' group leaders that lose their group leader. */
    group_members: number;
  };
  totals: {
    currency: string | null;
    charge_minor: number;
    charge_tax_minor: number;
    credit_minor: number;
    credit_tax_minor: number;
  };
  documents: AmendmentDocumentPlan[];
  lines: { items: AmendmentLineView[]; meta: ListMeta };
  invoices: AmendmentInvoice[];
  job: JobStatus | null;
  quoted_at: string | null;
  confirmed_at: string | null;
}

export interface AmendmentResult {
  id: string;
  /** confirmed: applied; confirming: a job applies it (poll `job`). */
  status: 'confirmed' | 'confirming';
  updated: number;
  invoices: AmendmentInvoice[];
  job: JobStatus | null;
  /** 'Selected insured(s) have been updated successfully' once applied. */
  message: string | null;
}

/** An amendment the actor made (within scope), by public id. */
export async function findAmendment(ctx: ActorCtx, id: string): Promise<AmendmentRow> {
  requirePermission(ctx.actor, AMEND_PERMISSION);
  const [row] = await ctx.db
    .select()
    .from(policyAmendments)
    .where(and(eq(policyAmendments.public_id, id), visibleAmendments(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('amendments.errors.not_found'));
  return row;
}

/**
 * A draft amendment over the selected policies (public ids, or all matching the list's filters), each in
 * the actor's scope. A cancellation also takes in the dependants of every selected insured.
 */
export async function createAmendment(
  ctx: ActorCtx,
  input: { kind: AmendmentKind; selection: BulkSelection; query: PolicyListQuery; request?: QuoteInput },
): Promise<{ id: string }> {
  requirePermission(ctx.actor, AMEND_PERMISSION);
  const ids = await selectedPolicyIds(ctx, input.selection, input.query);
  if (!ids.length) throw new NotFound(msg('insureds.errors.not_found'));
  if (input.request) {
    // Quoted in the same call (the API): bad dates are refused before the draft is written.
    checkRequest(input.kind, input.request);
    const current = await ctx.db
      .select({ status: policies.status, end_date: policies.end_date })
      .from(policies)
      .where(inJson(policies.id, ids));
    refuseEarlierEnd(input.kind, input.request.new_end_date, current);
  }
  const [first] = await ctx.db
    .select({ company_id: policies.company_id })
    .from(policies)
    .where(eq(policies.id, ids[0]));
  const id = publicId();
  const now = ctx.now.getTime();
  const amendmentId = sql`(SELECT id FROM policy_amendments WHERE public_id = ${id})`;
  const statements: Statement[] = [
    ctx.db.insert(policyAmendments).values({
      public_id: id,
      company_id: first.company_id,
      kind: input.kind,
      status: 'draft',
      policy_count: ids.length,
      created_by: ctx.actor.user_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    }),
    ctx.db.run(sql`INSERT INTO policy_amendment_lines (amendment_id, policy_id, policy_version,
        because_of_policy_id, old_start_date, old_end_date, old_premium_minor, currency, errors, error_count)
      SELECT ${amendmentId}, p.id, p.version, NULL, p.start_date, p.end_date, p.premium_minor, p.currency, '[]', 0
      FROM policies p WHERE ${inJson(sql`p.id`, ids)}`),
  ];
  if (input.kind === 'cancel')
    statements.push(
      ctx.db.run(sql`INSERT OR IGNORE INTO policy_amendment_lines (amendment_id, policy_id, policy_version,
          because_of_policy_id, old_start_date, old_end_date, old_premium_minor, currency, errors, error_count)
        SELECT ${amendmentId}, policies.id, policies.version, policies.dependency_id, policies.start_date,
          policies.end_date, policies.premium_minor, policies.currency, '[]', 0
        FROM policies
        WHERE ${inJson(sql`policies.dependency_id`, ids)}
          AND policies.status = 'issued' AND ${visiblePolicies(ctx.actor)}`),
      ctx.db.run(sql`UPDATE policy_amendments SET policy_count =
          (SELECT count(*) FROM policy_amendment_lines WHERE amendment_id = policy_amendments.id), updated_at = ${now}
        WHERE public_id = ${id}`),
    );
  await runBatch(ctx.db, statements);
  return { id };
}

/** The prices and limits of each contract, without tax (tax follows each policy's original rate). */
async function contractTerms(db: DB, contractIds: number[]): Promise<Map<number, ContractTerms>> {
  if (!contractIds.length) return new Map();
  const rows = await db
    .select({
      id: contracts.id,
      start_date: contracts.start_date,
      end_date: contracts.end_date,
      min_days: contracts.min_days,
      sale_minor: contracts.sale_minor,
      custom_minor: contracts.custom_minor,
      net_minor: contracts.net_minor,
      currency: contracts.currency,
      unit_days: units.days,
      product: {
        min_purchase_days: products.min_purchase_days,
        max_term_days: products.max_term_days,
        insured_age_min: products.insured_age_min,
        insured_age_max: products.insured_age_max,
        max_enrolment_period_days: products.max_enrolment_period_days,
        effective_start_date: products.effective_start_date,
        effective_end_date: products.effective_end_date,
      },
    })
    .from(contracts)
    .innerJoin(products, eq(products.id, contracts.product_id))
    .leftJoin(units, eq(units.id, products.unit_id))
    .where(inJson(contracts.id, contractIds));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        pricing: {
          sale_minor: r.sale_minor,
          custom_minor: r.custom_minor,
          net_minor: r.net_minor,
          currency: r.currency,
          unit_days: r.unit_days ?? null,
          min_days: Math.max(r.product.min_purchase_days, r.min_days),
          tax: null,
        },
        product: r.product,
        contract: { start_date: r.start_date, end_date: r.end_date, min_days: r.min_days },
      },
    ]),
  );
}

/** The new dates or the reason a quote of this kind needs; refused on their fields. */
function checkRequest(kind: AmendmentKind, input: QuoteInput) {
  const missing = (field: string) => ValidationFailed.field(field, msg('validation.required'));
  if (kind === 'cancel') {
    if (!input.reason) throw missing('reason');
    return;
  }
  if (!input.new_end_date) throw missing('new_end_date');
  if (kind === 'trip_dates') {
    if (!input.new_start_date) throw missing('new_start_date');
    if (input.new_end_date < input.new_start_date)
      throw ValidationFailed.field('new_end_date', msg('validation.end_after_start'));
  }
}

/**
 * An extension ends after the current end of every selected insured that is not cancelled: a new end
 * date on or before one of them is refused on its field, naming the latest current end, before anything
 * is priced or written (a shorter trip is a trip-date change, which credits the difference).
 */
function refuseEarlierEnd(
  kind: AmendmentKind,
  newEnd: string | undefined,
  rows: { status: string; end_date: string }[],
) {
  if (kind !== 'extend' || !newEnd) return;
  const latest = rows
    .filter((r) => r.status !== 'cancelled')
    .reduce((max, r) => (r.end_date > max ? r.end_date : max), '');
  if (latest && newEnd <= latest)
    throw ValidationFailed.field(
      'new_end_date',
      msg('amendments.errors.not_later', { date: britishDate(latest) }),
    );
}

/**
 * Prices every line of an amendment for the new dates (or the reason of a cancellation) and stores the
 * quote. Quoting again replaces the lines' prices and the versions they were priced on.
 */
export async function quoteAmendment(ctx: ActorCtx, id: string, input: QuoteInput): Promise<AmendmentView> {
  const a = await findAmendment(ctx, id);
  if (a.status === 'confirmed') throw new Conflict(msg('amendments.errors.already_confirmed'));
  if (a.job_id) throw new Conflict(msg('amendments.errors.confirming'));
  checkRequest(a.kind, input);
  const request = {
    kind: a.kind,
    new_start_date: a.kind === 'trip_dates' ? input.new_start_date : undefined,
    new_end_date: a.kind === 'cancel' ? undefined : input.new_end_date,
  };

  const rows = await ctx.db
    .select({
      line_id: policyAmendmentLines.id,
      contract_id: policies.contract_id,
      version: policies.version,
      status: policies.status,
      start_date: policies.start_date,
      end_date: policies.end_date,
      date_of_birth: policies.date_of_birth,
      premium_minor: policies.premium_minor,
      tax_minor: policies.tax_minor,
      tax_rate_bp: policies.tax_rate_bp,
      currency: policies.currency,
    })
    .from(policyAmendmentLines)
    .innerJoin(policies, eq(policies.id, policyAmendmentLines.policy_id))
    .where(eq(policyAmendmentLines.amendment_id, a.id));
  refuseEarlierEnd(a.kind, request.new_end_date, rows);
  const terms = await contractTerms(ctx.db, [...new Set(rows.map((r) => r.contract_id))]);
  const rules = { today: todayIso(ctx.now), allowPastStartDate: can(ctx.actor, 'allow_past_start_date') };

  const totals = { charge: 0, chargeTax: 0, credit: 0, creditTax: 0, errors: 0 };
  const currencies = new Set<string>();
  const priced = rows.map((r) => {
    const line = priceLine(r, request, terms.get(r.contract_id)!, rules);
    if (line.errors.length) totals.errors += 1;
    if (line.premium_diff_minor > 0) {
      totals.charge += line.premium_diff_minor;
      totals.chargeTax += line.tax_diff_minor;
    } else if (line.premium_diff_minor < 0) {
      totals.credit -= line.premium_diff_minor;
      totals.creditTax -= line.tax_diff_minor;
    }
    currencies.add(r.currency);
    return [
      r.line_id,
      r.version,
      r.start_date,
      r.end_date,
      r.premium_minor,
      line.new_start_date,
      line.new_end_date,
      line.new_premium_minor,
      line.premium_diff_minor,
      line.tax_diff_minor,
      line.tax_rate,
      line.errors,
    ];
  });

  const field = (i: number) => sql.raw(`json_extract(value, '$[${i}]')`);
  const statements: Statement[] = chunk(priced, LINES_PER_STATEMENT).map((part) =>
    ctx.db.run(sql`UPDATE policy_amendment_lines SET policy_version = q.version, old_start_date = q.old_start,
        old_end_date = q.old_end, old_premium_minor = q.old_premium, new_start_date = q.new_start,
        new_end_date = q.new_end, new_premium_minor = q.new_premium, premium_diff_minor = q.premium_diff,
        tax_diff_minor = q.tax_diff, tax_rate = q.tax_rate, errors = q.errors,
        error_count = json_array_length(q.errors)
      FROM (SELECT ${field(0)} AS id, ${field(1)} AS version, ${field(2)} AS old_start, ${field(3)} AS old_end,
          ${field(4)} AS old_premium, ${field(5)} AS new_start, ${field(6)} AS new_end, ${field(7)} AS new_premium,
          ${field(8)} AS premium_diff, ${field(9)} AS tax_diff, ${field(10)} AS tax_rate,
          json_extract(value, '$[11]') AS errors
        FROM json_each(${JSON.stringify(part)})) AS q
      WHERE policy_amendment_lines.id = q.id`),
  );
  statements.push(
    ctx.db
      .update(policyAmendments)
      .set({
        status: 'quoted',
        new_start_date: request.new_start_date ?? null,
        new_end_date: request.new_end_date ?? null,
        reason: a.kind === 'cancel' ? input.reason! : null,
        policy_count: rows.length,
        error_count: totals.errors,
        charge_minor: totals.charge,
        charge_tax_minor: totals.chargeTax,
        credit_minor: totals.credit,
        credit_tax_minor: totals.creditTax,
        currency: currencies.size === 1 ? [...currencies][0] : null,
        quoted_at: ctx.now,
        updated_at: ctx.now,
      })
      .where(and(eq(policyAmendments.id, a.id), sql`${policyAmendments.status} != 'confirmed'`)),
  );
  await runBatch(ctx.db, statements);
  return getAmendment(ctx, id);
}

/** The invoices (supplementary invoices, credit notes) an amendment made. */
export async function amendmentInvoices(db: DB, amendmentId: number): Promise<AmendmentInvoice[]> {
  const rows = await db
    .select({
      id: invoices.public_id,
      number: invoices.number,
      type: invoices.type,
      status: invoices.status,
      currency: invoices.currency,
      insurance_cost_minor: invoices.insurance_cost_minor,
      tax_minor: invoices.tax_minor,
      total_minor: invoices.total_minor,
      client_id: clients.public_id,
      client_name: clients.name,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(eq(invoices.amendment_id, amendmentId))
    .orderBy(asc(invoices.id));
  return rows.map(({ client_id, client_name, ...r }) => ({
    ...r,
    client: { id: client_id, name: client_name },
  }));
}

/** The quote page's view: counts, totals, what each client will be charged or credited, lines paged. */
export async function getAmendment(
  ctx: ActorCtx,
  id: string,
  query: Partial<AmendmentViewQuery> = {},
): Promise<AmendmentView> {
  const a = await findAmendment(ctx, id);
  const where = and(
    eq(policyAmendmentLines.amendment_id, a.id),
    query.errors_only ? gt(policyAmendmentLines.error_count, 0) : undefined,
  );
  const lines = paginate(
    ctx.db,
    { page: query.page ?? 1, items: query.items ?? 25 },
    {
      rows: (limit, offset) =>
        ctx.db
          .select({
            line: policyAmendmentLines,
            policy: {
              id: policies.public_id,
              policy_number: policies.policy_number,
              first_name: policies.first_name,
              last_name: policies.last_name,
              type: policies.type,
            },
            pricing: {
              unit_days: units.days,
              product_min_days: products.min_purchase_days,
              contract_min_days: contracts.min_days,
            },
            because_of: sql<
              string | null
            >`(SELECT b.policy_number FROM policies b WHERE b.id = ${policyAmendmentLines.because_of_policy_id})`.as(
              'because_of_number',
            ),
          })
          .from(policyAmendmentLines)
          .innerJoin(policies, eq(policies.id, policyAmendmentLines.policy_id))
          .innerJoin(contracts, eq(contracts.id, policies.contract_id))
          .innerJoin(products, eq(products.id, contracts.product_id))
          .leftJoin(units, eq(units.id, products.unit_id))
          .where(where)
          .orderBy(
            sql`coalesce(${policyAmendmentLines.because_of_policy_id}, ${policyAmendmentLines.policy_id})`,
            asc(policyAmendmentLines.id),
          )
          .limit(limit)
          .offset(offset),
      count: ctx.db.select({ total: countAll }).from(policyAmendmentLines).where(where),
    },
  );
  const summary = ctx.db.batch([
    ctx.db
      .select({
        client_id: clients.public_id,
        client_name: clients.name,
        currency: policyAmendmentLines.currency,
        policies: sql<number>`count(*)`,
        charge: sql<number>`coalesce(sum(CASE WHEN ${policyAmendmentLines.premium_diff_minor} > 0 THEN ${policyAmendmentLines.premium_diff_minor} END), 0)`,
        charge_tax: sql<number>`coalesce(sum(CASE WHEN ${policyAmendmentLines.premium_diff_minor} > 0 THEN ${policyAmendmentLines.tax_diff_minor} END), 0)`,
        credit: sql<number>`coalesce(-sum(CASE WHEN ${policyAmendmentLines.premium_diff_minor} < 0 THEN ${policyAmendmentLines.premium_diff_minor} END), 0)`,
        credit_tax: sql<number>`coalesce(-sum(CASE WHEN ${policyAmendmentLines.premium_diff_minor} < 0 THEN ${policyAmendmentLines.tax_diff_minor} END), 0)`,
      })
      .from(policyAmendmentLines)
      .innerJoin(policies, eq(policies.id, policyAmendmentLines.policy_id))
      .innerJoin(clients, eq(clients.id, policies.client_id))
      .where(eq(policyAmendmentLines.amendment_id, a.id))
      .groupBy(clients.id, policyAmendmentLines.currency)
      .orderBy(clients.name, policyAmendmentLines.currency),
    ctx.db
      .select({
        all: sql<number>`count(*)`,
        dependants: sql<number>`count(${policyAmendmentLines.because_of_policy_id})`,
        with_errors: sql<number>`coalesce(sum(CASE WHEN ${policyAmendmentLines.error_count} > 0 THEN 1 ELSE 0 END), 0)`,
        cancelled: sql<number>`coalesce(sum(CASE WHEN ${policyAmendmentLines.errors} LIKE '%"amendments.errors.cancelled"%' THEN 1 ELSE 0 END), 0)`,
      })
      .from(policyAmendmentLines)
      .where(eq(policyAmendmentLines.amendment_id, a.id)),
    a.kind === 'cancel' && a.status !== 'confirmed'
      ? ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(policies)
          .where(
            and(
              eq(policies.status, 'issued'),
              sql`${policies.group_leader_id} IN (SELECT policy_id FROM policy_amendment_lines WHERE amendment_id = ${a.id})`,
              sql`${policies.id} NOT IN (SELECT policy_id FROM policy_amendment_lines WHERE amendment_id = ${a.id})`,
            ),
          )
      : ctx.db
          .select({ n: sql<number>`count(*)` })
          .from(sql`policy_transactions`)
          .where(sql`amendment_id = ${a.id} AND kind = 'group_leader'`),
  ]);
  const [page, [groups, [counts], members]] = await Promise.all([lines, summary]);
  const [job] = a.job_id ? await ctx.db.select().from(jobs).where(eq(jobs.id, a.job_id)) : [];
  return {
    id: a.public_id,
    kind: a.kind,
    status: a.status,
    new_start_date: a.new_start_date,
    new_end_date: a.new_end_date,
    reason: a.reason,
    counts: {
      policies: Number(counts.all),
      selected: Number(counts.all) - Number(counts.dependants),
      dependants: Number(counts.dependants),
      with_errors: Number(counts.with_errors),
      cancelled: Number(counts.cancelled),
      group_members: Number(members[0]?.n ?? 0),
    },
    totals: {
      currency: a.currency,
      charge_minor: a.charge_minor,
      charge_tax_minor: a.charge_tax_minor,
      credit_minor: a.credit_minor,
      credit_tax_minor: a.credit_tax_minor,
    },
    documents: groups.map((g) => ({
      client: { id: g.client_id, name: g.client_name },
      currency: g.currency,
      policies: Number(g.policies),
      charge_minor: Number(g.charge),
      charge_tax_minor: Number(g.charge_tax),
      credit_minor: Number(g.credit),
      credit_tax_minor: Number(g.credit_tax),
    })),
    lines: {
      items: page.items.map((r) => ({
        policy: r.policy,
        because_of: r.because_of,
        old_start_date: r.line.old_start_date,
        old_end_date: r.line.old_end_date,
        new_start_date: r.line.new_start_date,
        new_end_date: r.line.new_end_date,
        old_premium_minor: r.line.old_premium_minor,
        new_premium_minor: r.line.new_premium_minor,
        premium_diff_minor: r.line.premium_diff_minor,
        tax_diff_minor: r.line.tax_diff_minor,
        tax_rate: r.line.tax_rate,
        currency: r.line.currency,
        price_band:
          a.kind !== 'cancel' && r.line.new_start_date && r.line.new_end_date
            ? priceBand(tripDays(r.line.new_start_date, r.line.new_end_date), {
                unit_days: r.pricing.unit_days ?? null,
                min_days: Math.max(r.pricing.product_min_days, r.pricing.contract_min_days),
              })
            : null,
        errors: r.line.errors,
      })),
      meta: page.meta,
    },
    invoices: a.status === 'confirmed' ? await amendmentInvoices(ctx.db, a.id) : [],
    job: job ? toStatus(job) : null,
    quoted_at: a.quoted_at ? a.quoted_at.toISOString() : null,
    confirmed_at: a.confirmed_at ? a.confirmed_at.toISOString() : null,
  };
}

/** The answer of a confirmed amendment (the same however many times it is confirmed). */
async function confirmedResult(db: DB, a: AmendmentRow): Promise<AmendmentResult> {
  return {
    id: a.public_id,
    status: 'confirmed',
    updated: a.policy_count,
    invoices: await amendmentInvoices(db, a.id),
    job: null,
    message: msg('amendments.messages.updated'),
  };
}

/** The messages of a quote's line errors (distinct), refusing its confirmation. */
async function lineErrorMessages(db: DB, amendmentId: number): Promise<string[]> {
  const rows = await db
    .select({ errors: policyAmendmentLines.errors })
    .from(policyAmendmentLines)
    .where(and(eq(policyAmendmentLines.amendment_id, amendmentId), gt(policyAmendmentLines.error_count, 0)))
    .limit(200);
  const seen = new Set<string>();
  for (const r of rows) for (const e of r.errors) seen.add(e.params ? msg(e.message, e.params) : e.message);
  return [...seen];
}

/**
 * Applies a quote once: the policies change (version + 1), a policy transaction per policy, one
 * supplementary invoice per client and currency for what is charged and one credit note for what is
 * credited; a cancellation removes the cancelled insureds as group leader of the others. Confirming a
 * confirmed amendment answers the same result. A quote whose policies changed since becomes `stale` and
 * is refused ('the quote is out of date'); nothing is charged. Large ones run as a job.
 */
export async function confirmAmendment(ctx: ActorCtx, id: string): Promise<AmendmentResult> {
  const a = await findAmendment(ctx, id);
  if (a.status === 'confirmed') return confirmedResult(ctx.db, a);
  if (a.status === 'stale') throw new Conflict(msg('amendments.errors.stale'));
  if (a.status === 'draft') throw ValidationFailed.field('amendment', msg('amendments.errors.not_quoted'));
  if (a.error_count > 0) {
    const messages = await lineErrorMessages(ctx.db, a.id);
    throw new ValidationFailed(messages.map((message) => ({ key: 'policies', message })));
  }
  if (a.job_id) {
    const [job] = await ctx.db.select().from(jobs).where(eq(jobs.id, a.job_id));
    if (job && job.status !== 'failed')
      return {
        id: a.public_id,
        status: 'confirming',
        updated: 0,
        invoices: [],
        job: toStatus(job),
        message: null,
      };
  }
  if (a.policy_count > CONFIRM_JOB_THRESHOLD) {
    const job = await startJob(ctx, {
      type: CONFIRM_AMENDMENT_JOB,
      payload: { amendment_id: a.id, actors: logActors(ctx.actor) },
      total: a.policy_count,
    });
    await ctx.db
      .update(policyAmendments)
      .set({ job_id: sql`(SELECT id FROM jobs WHERE public_id = ${job.id})`, updated_at: ctx.now })
      .where(eq(policyAmendments.id, a.id));
    return { id: a.public_id, status: 'confirming', updated: 0, invoices: [], job, message: null };
  }
  await applyAmendment(ctx.db, a, ctx.actor.user_id, logActors(ctx.actor), ctx.now);
  const [done] = await ctx.db.select().from(policyAmendments).where(eq(policyAmendments.id, a.id));
  return confirmedResult(ctx.db, done);
}

/** Create, quote and confirm in one call (the API's direct extend, trip-dates and cancel calls). */
export async function amendNow(
  ctx: ActorCtx,
  input: { kind: AmendmentKind; policies: string[] } & QuoteInput,
): Promise<AmendmentResult> {
  const { id } = await createAmendment(ctx, {
    kind: input.kind,
    selection: { ids: input.policies },
    query: { page: 1, items: 25 },
    request: input,
  });
  await quoteAmendment(ctx, id, input);
  return confirmAmendment(ctx, id);
}
