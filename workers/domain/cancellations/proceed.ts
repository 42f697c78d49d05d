/**
 * Proceeding with a cancellation sheet: the matched policies go to the amendments engine as one cancel
 * amendment (the very engine of the insureds list's bulk cancel and `policies/cancel`), quoted with the
 * reason (dependants are brought in with their insureds, the credit priced), then confirmed once: the
 * policies are cancelled and the premium credited on a credit note, all or nothing. The engine applies
 * the actor's scope again, so a sheet can never cancel a policy its uploader cannot see.
 *
 * What the confirmation page shows is read from the amendment's own rows: policies named by the sheet,
 * dependants cancelled with them, the credit, the credit notes; and the summary workbook lists them.
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import {
  cancellationImports,
  cancellationRows,
  clients,
  invoices,
  jobs,
  policies,
  policyAmendmentLines,
  policyAmendments,
} from '../../../drizzle/schema';
import { loadLanguages, translate } from '../../platform/i18n';
import { buildWorkbook } from '../../platform/xlsx';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, ValidationFailed } from '../errors';
import { toStatus, type JobStatus } from '../jobs/service';
import { policyListQuerySchema } from '../policies/list-query';
import { confirmAmendment, createAmendment, quoteAmendment } from '../policies/amendments/service';
import { msg } from '../validation';
import type { ProceedCancelInput } from './schema';
import { findVisibleCancellation, matchedPolicyIds, refuseIfCancelled } from './service';

/**
 * Quotes the cancellation of the sheet's policies (every row must be free of errors): a new cancel
 * amendment each time (a quote gone out of date is simply quoted again). Answers the amendment's id.
 */
export async function proceedCancellation(
  ctx: ActorCtx,
  id: string,
  input: ProceedCancelInput,
): Promise<{ amendment_id: string }> {
  const { imp } = await findVisibleCancellation(ctx, id);
  await refuseIfCancelled(ctx, imp);
  if (imp.status !== 'review') throw new Conflict(msg('cancellations.errors.not_in_review'));
  const [{ errored }] = await ctx.db
    .select({ errored: sql<number>`count(*)` })
    .from(cancellationRows)
    .where(and(eq(cancellationRows.import_id, imp.id), gt(cancellationRows.error_count, 0)));
  if (Number(errored) > 0)
    throw ValidationFailed.field(
      'rows',
      msg('cancellations.errors.rows_with_errors', { count: Number(errored) }),
    );
  const ids = await matchedPolicyIds(ctx, imp.id);
  if (!ids.length) throw ValidationFailed.field('rows', msg('cancellations.errors.nothing_to_cancel'));
  const publicIds = await ctx.db
    .select({ public_id: policies.public_id })
    .from(policies)
    .where(sql`${policies.id} in (select value from json_each(${JSON.stringify(ids)}))`);
  const amendment = await createAmendment(ctx, {
    kind: 'cancel',
    selection: { all_matching: false, ids: publicIds.map((p) => p.public_id) },
    query: policyListQuerySchema.parse({}),
  });
  await quoteAmendment(ctx, amendment.id, { reason: input.reason });
  await ctx.db.batch([
    ctx.db
      .update(cancellationImports)
      .set({
        amendment_id: sql`(select id from policy_amendments where public_id = ${amendment.id})`,
        reason: input.reason,
        updated_at: ctx.now,
      })
      .where(eq(cancellationImports.id, imp.id)),
    logActivity(ctx, {
      entity_type: 'cancellation_import',
      entity_id: imp.id,
      action: 'quoted',
      after: { amendment: amendment.id, policies: ids.length, reason: input.reason },
      company_id: imp.company_id,
      client_id: imp.client_id,
    }),
  ]);
  return { amendment_id: amendment.id };
}

/** Confirms the quoted cancellation once (a second confirmation changes nothing more). */
export async function confirmCancellation(ctx: ActorCtx, id: string) {
  const { imp } = await findVisibleCancellation(ctx, id);
  const amendment = await amendmentOf(ctx, imp.amendment_id);
  if (!amendment) throw new Conflict(msg('cancellations.errors.not_quoted'));
  const result = await confirmAmendment(ctx, amendment.public_id);
  // A large cancellation is applied by a job: the sheet is done when the amendment is (see the outcome).
  if (imp.status !== 'done' && result.status === 'confirmed')
    await ctx.db.batch([
      ctx.db
        .update(cancellationImports)
        .set({ status: 'done', updated_at: ctx.now })
        .where(eq(cancellationImports.id, imp.id)),
      logActivity(ctx, {
        entity_type: 'cancellation_import',
        entity_id: imp.id,
        action: 'confirmed',
        after: { amendment: amendment.public_id, status: result.status },
        company_id: imp.company_id,
        client_id: imp.client_id,
      }),
    ]);
  return result;
}

async function amendmentOf(ctx: ActorCtx, amendmentId: number | null) {
  if (amendmentId == null) return null;
  const [a] = await ctx.db
    .select({ amendment: policyAmendments, job: jobs })
    .from(policyAmendments)
    .leftJoin(jobs, eq(jobs.id, policyAmendments.job_id))
    .where(eq(policyAmendments.id, amendmentId))
    .limit(1);
  return a ? { ...a.amendment, job: a.job } : null;
}

export interface CancellationOutcome {
  import: { id: string; file_name: string; reason: string | null };
  /** quoted: waiting for confirmation; confirming: a job applies it; confirmed; stale: quote again. */
  status: 'quoted' | 'confirming' | 'confirmed' | 'stale';
  amendment_id: string;
  /** Policies the sheet named. */
  named: number;
  /** Dependants cancelled with them (not named by the sheet). */
  dependants: number;
  credit_minor: number;
  credit_tax_minor: number;
  currency: string | null;
  /** The credit notes it issued, with their client's public id (the address of a credit note's page). */
  credit_notes: { id: string; number: string; total_minor: number; currency: string; client_id: string }[];
  job: JobStatus | null;
}

/** What the confirmation page shows. NotFound for another person's import; Conflict before proceeding. */
export async function cancellationOutcome(ctx: ActorCtx, id: string): Promise<CancellationOutcome> {
  const { imp } = await findVisibleCancellation(ctx, id);
  const a = await amendmentOf(ctx, imp.amendment_id);
  if (!a) throw new Conflict(msg('cancellations.errors.not_quoted'));
  const [counts] = await ctx.db
    .select({
      named: sql<number>`coalesce(sum(case when ${policyAmendmentLines.because_of_policy_id} is null then 1 else 0 end), 0)`,
      dependants: sql<number>`coalesce(sum(case when ${policyAmendmentLines.because_of_policy_id} is not null then 1 else 0 end), 0)`,
    })
    .from(policyAmendmentLines)
    .where(eq(policyAmendmentLines.amendment_id, a.id));
  const notes = await ctx.db
    .select({
      id: invoices.public_id,
      number: invoices.number,
      total_minor: invoices.total_minor,
      currency: invoices.currency,
      client_id: clients.public_id,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.client_id))
    .where(and(eq(invoices.amendment_id, a.id), eq(invoices.type, 'credit_note')))
    .orderBy(asc(invoices.id));
  const running = a.status === 'quoted' && a.job != null && a.job.status !== 'failed';
  if (a.status === 'confirmed' && imp.status !== 'done')
    await ctx.db
      .update(cancellationImports)
      .set({ status: 'done', updated_at: ctx.now })
      .where(eq(cancellationImports.id, imp.id));
  return {
    import: { id: imp.public_id, file_name: imp.file_name, reason: imp.reason },
    status: running ? 'confirming' : a.status === 'draft' ? 'quoted' : a.status,
    amendment_id: a.public_id,
    named: Number(counts?.named ?? 0),
    dependants: Number(counts?.dependants ?? 0),
    credit_minor: a.credit_minor,
    credit_tax_minor: a.credit_tax_minor,
    currency: a.currency,
    credit_notes: notes.map((n) => ({ ...n, number: n.number ?? '', currency: n.currency })),
    job: a.job ? toStatus(a.job) : null,
  };
}

/** The downloadable summary of a cancellation sheet: every cancelled policy, in the reader's language. */
export async function cancellationSummary(
  ctx: ActorCtx,
  id: string,
  lang: string,
): Promise<{ filename: string; body: ArrayBuffer }> {
  const outcome = await cancellationOutcome(ctx, id);
  const { imp } = await findVisibleCancellation(ctx, id);
  const lines = await ctx.db
    .select({
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      start_date: policyAmendmentLines.old_start_date,
      end_date: policyAmendmentLines.old_end_date,
      because_of: sql<
        string | null
      >`(select policy_number from policies b where b.id = ${policyAmendmentLines.because_of_policy_id})`,
      premium_diff_minor: policyAmendmentLines.premium_diff_minor,
      tax_diff_minor: policyAmendmentLines.tax_diff_minor,
      currency: policyAmendmentLines.currency,
      errors: policyAmendmentLines.error_count,
    })
    .from(policyAmendmentLines)
    .innerJoin(policies, eq(policies.id, policyAmendmentLines.policy_id))
    .where(eq(policyAmendmentLines.amendment_id, imp.amendment_id!))
    .orderBy(sql`${policyAmendmentLines.because_of_policy_id} is not null`, asc(policies.policy_number));
  await loadLanguages([lang]);
  const h = (key: string) => translate(lang, `cancellations.summary.columns.${key}`);
  const money = (minor: number) => Math.abs(minor) / 100;
  const body = await buildWorkbook([
    {
      name: translate(lang, 'cancellations.summary.sheet'),
      columns: [
        { key: 'policy_number', header: h('policy_id'), width: 14 },
        { key: 'first_name', header: h('first_name'), width: 18 },
        { key: 'last_name', header: h('last_name'), width: 18 },
        { key: 'start_date', header: h('start_date'), width: 12 },
        { key: 'end_date', header: h('end_date'), width: 12 },
        { key: 'because_of', header: h('because_of'), width: 18 },
        { key: 'credit', header: h('credit'), width: 12 },
        { key: 'tax', header: h('tax'), width: 12 },
        { key: 'currency', header: h('currency'), width: 10 },
        { key: 'status', header: h('status'), width: 14 },
      ],
      rows: lines.map((l) => ({
        ...l,
        credit: money(l.premium_diff_minor),
        tax: money(l.tax_diff_minor),
        status: translate(lang, `cancellations.summary.status.${outcome.status}`),
      })),
    },
  ]);
  const stem = imp.file_name.replace(/\.[^.]+$/, '').slice(0, 60) || 'cancellation';
  return { filename: `${stem}-summary.xlsx`, body };
}
