/**
 * Policy batches: the one place that creates a batch, finds one in the actor's scope, says which
 * contracts a campus may order under and what the rules and the fee of a batch's applicants depend on.
 * Writing applicants into a batch and putting it into the cart are in staging.ts.
 */
import { and, eq } from 'drizzle-orm';
import {
  campuses,
  clients,
  contracts,
  countries,
  policyBatches,
  products,
  units,
  type enrollments,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import type { DB } from '../../platform/db';
import { can, requirePermission } from '../access/actor';
import { findCampus } from '../access/finders';
import { visibleCampus } from '../access/scope';
import type { ActorCtx, Ctx } from '../context';
import { productsAvailableForCampus, type AvailableContract } from '../contracts/service';
import { taxRateFor } from '../countries/service';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { msg, todayIso } from '../validation';
import type { Pricing } from './fees';
import type { RuleContext } from './rules';

export type BatchRow = typeof policyBatches.$inferSelect;
export type EnrollmentRow = typeof enrollments.$inferSelect;

/** Who may order: school users and staff with the insured or policy creation permission. */
export const ORDER_PERMISSION = 'create_insured|create_policy';

/**
 * A new draft batch for a campus and one of the contracts available to it (productsAvailableForCampus).
 * Ids are public ids. A contract the campus may not order under is "not found" on contract_id.
 */
export async function createBatch(
  ctx: ActorCtx,
  input: {
    campus_id: string;
    contract_id: string;
    source: 'single' | 'import';
    import_id?: number | null;
    contact_source?: string | null;
    conversation_id?: string | null;
  },
): Promise<BatchRow> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const { campus, client, contract } = await orderableContract(ctx, input.campus_id, input.contract_id);
  const [batch] = await ctx.db
    .insert(policyBatches)
    .values({
      public_id: publicId(),
      company_id: client.company_id,
      client_id: client.id,
      campus_id: campus.id,
      contract_id: contract.contract_id,
      source: input.source,
      import_id: input.import_id ?? null,
      contact_source: input.contact_source ?? null,
      conversation_id: input.conversation_id ?? null,
      created_by: ctx.actor.user_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning();
  return batch!;
}

/** The contracts of the campus's open (in cart) batches: they stay orderable while in the cart. */
export async function openContractIds(db: DB, campusId: number): Promise<number[]> {
  const rows = await db
    .selectDistinct({ id: policyBatches.contract_id })
    .from(policyBatches)
    .where(and(eq(policyBatches.campus_id, campusId), eq(policyBatches.status, 'open')));
  return rows.map((r) => r.id);
}

/**
 * What a campus (internal id) may order now: the configuration's rule (productsAvailableForCampus: its
 * current contracts) merged with the contracts of its open cart batches. Nothing at all: ValidationFailed
 * with the spec's 'No contract found…' message.
 */
export async function orderableContracts(ctx: ActorCtx, campusId: number): Promise<AvailableContract[]> {
  return productsAvailableForCampus(ctx, campusId, {
    cartContractIds: await openContractIds(ctx.db, campusId),
  });
}

/**
 * A campus in the actor's scope (public id; NotFound otherwise) and one of its orderable contracts
 * (public id; otherwise ValidationFailed on contract_id with `message`).
 */
export async function orderableContract(
  ctx: ActorCtx,
  campusId: string,
  contractId: string,
  message = msg('contracts.errors.not_found'),
) {
  const { campus, client } = await findCampus(ctx, campusId, ORDER_PERMISSION);
  const contract = (await orderableContracts(ctx, campus.id)).find((c) => c.id === contractId);
  if (!contract) throw ValidationFailed.field('contract_id', message);
  return { campus, client, contract };
}

/** A batch by public id (text) or id (number), in the actor's campus scope; otherwise NotFound. */
export async function findVisibleBatch(ctx: ActorCtx, id: string | number): Promise<BatchRow> {
  requirePermission(ctx.actor, `${ORDER_PERMISSION}|read_insured|read_policy`);
  const [row] = await ctx.db
    .select({ batch: policyBatches })
    .from(policyBatches)
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(
      and(
        typeof id === 'number' ? eq(policyBatches.id, id) : eq(policyBatches.public_id, id),
        visibleCampus(ctx.actor),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('enrollments.errors.batch_not_found'));
  return row.batch;
}

/** A batch that may still change: draft or open (not confirmed or cleared). */
export function requireEditable(batch: BatchRow) {
  if (batch.status !== 'draft' && batch.status !== 'open')
    throw new Conflict(msg('enrollments.errors.batch_closed'));
}

/**
 * What the rules and the fee of the batch's applicants depend on: its product and contract limits, the
 * countries, whether the actor may backdate, and the price with the campus country's tax of today.
 */
export async function batchRules(
  ctx: Ctx,
  batch: BatchRow,
): Promise<{ rules: RuleContext; pricing: Pricing }> {
  const today = todayIso(ctx.now);
  const [[row], countryRows] = await ctx.db.batch([
    ctx.db
      .select({
        contract: {
          start_date: contracts.start_date,
          end_date: contracts.end_date,
          min_days: contracts.min_days,
          sale_minor: contracts.sale_minor,
          custom_minor: contracts.custom_minor,
          net_minor: contracts.net_minor,
          currency: contracts.currency,
        },
        product: {
          min_purchase_days: products.min_purchase_days,
          max_term_days: products.max_term_days,
          insured_age_min: products.insured_age_min,
          insured_age_max: products.insured_age_max,
          max_enrolment_period_days: products.max_enrolment_period_days,
          effective_start_date: products.effective_start_date,
          effective_end_date: products.effective_end_date,
        },
        unit_days: units.days,
        campus_country_id: campuses.country_id,
        stamp_duty: countries.stamp_duty_applicable,
      })
      .from(contracts)
      .innerJoin(products, eq(products.id, contracts.product_id))
      .innerJoin(campuses, eq(campuses.id, contracts.campus_id))
      .leftJoin(countries, eq(countries.id, campuses.country_id))
      .leftJoin(units, eq(units.id, products.unit_id))
      .where(eq(contracts.id, batch.contract_id))
      .limit(1),
    ctx.db
      .select({ id: countries.id, passport: countries.requires_passport_number })
      .from(countries)
      .where(eq(countries.status, 'active')),
  ]);
  if (!row) throw new NotFound(msg('contracts.errors.not_found'));
  const tax = row.campus_country_id ? await taxRateFor(ctx.db, row.campus_country_id, today) : null;
  return {
    rules: {
      today,
      allowPastStartDate: can(ctx.actor, 'allow_past_start_date'),
      product: row.product,
      contract: {
        start_date: row.contract.start_date,
        end_date: row.contract.end_date,
        min_days: row.contract.min_days,
      },
      countryIds: new Set(countryRows.map((c) => c.id)),
      passportCountryIds: new Set(countryRows.filter((c) => c.passport).map((c) => c.id)),
    },
    pricing: {
      sale_minor: row.contract.sale_minor,
      custom_minor: row.contract.custom_minor,
      net_minor: row.contract.net_minor,
      currency: row.contract.currency,
      unit_days: row.unit_days ?? null,
      min_days: Math.max(row.product.min_purchase_days, row.contract.min_days),
      tax: tax ? { rate_bp: tax.rate_bp, amount_minor: tax.amount_minor } : null,
      stamp_duty: !!row.stamp_duty,
    },
  };
}
