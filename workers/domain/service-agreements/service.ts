/**
 * Service agreements (spec 001 s.3, s.4, s.5; spec 002 s.7): what a client has agreed with an insurer,
 * as product rows (product, campus, net and sale price, min days, dates, PO number). Approving or
 * activating an agreement creates or updates one contract per row (contracts.service_agreement_row_id is
 * unique) in the same batch as the agreement itself; deactivating it archives them.
 *
 * Scope: an agreement belongs to a client (access/scope.ts agreementScope); its rows' campuses must be
 * the client's and its products and insurer the client's company's. Reading is in queries.ts, documents
 * in documents.ts, the row and contract statements in sync.ts.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import {
  campuses,
  contracts,
  insurers,
  products,
  serviceAgreementRows,
  serviceAgreements,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { logActivity } from '../audit/activity-log';
import { findClient } from '../access/finders';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import type { AgreementRowInput, CreateAgreementInput, UpdateAgreementInput } from './schema';
import { type AgreementRow, type RowRow, type ProductRow, findAgreement } from './records';
import { getServiceAgreement, type AgreementView } from './queries';
import { resolveInput } from './resolve';
import { logNames, agreementForLog, rowsForLog, resolvedLogRows, namesOf } from './log';
import { rowStatements, contractSyncStatements } from './sync';

export const AGREEMENT_SAVED = msg('service_agreements.saved');

/**
 * service-agreements/add: save (pending) or save and approve (active: one contract per row, in the same
 * batch). Answers the saved agreement.
 */
export async function createServiceAgreement(
  ctx: ActorCtx,
  input: CreateAgreementInput,
): Promise<AgreementView> {
  const client = await findClient(ctx, input.client_id, 'create_service_agreement').catch((e) => {
    if (e instanceof NotFound)
      throw ValidationFailed.field('client_id', msg('campuses.errors.client_not_found'));
    throw e;
  });
  const resolved = await resolveInput(ctx, client, input, new Map());
  const approve = input.approve === 'approve';
  const pid = publicId();
  const values = {
    public_id: pid,
    client_id: client.id,
    company_id: client.company_id,
    insurer_id: resolved.insurerId,
    default_product_id: resolved.defaultProductId,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    status: approve ? ('active' as const) : ('pending' as const),
    approved_at: approve ? ctx.now : null,
    approved_by: approve ? ctx.actor.user_id : null,
    created_by: ctx.actor.user_id,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
  const saId = idByPublicId(serviceAgreements, pid);
  const names = await namesOf(ctx, resolved);
  await runBatch(ctx.db, [
    ctx.db.insert(serviceAgreements).values(values),
    ...rowStatements(ctx, saId, resolved, [], []),
    ...(approve
      ? contractSyncStatements(
          ctx,
          {
            publicId: pid,
            companyId: client.company_id,
            clientId: client.id,
            defaultProductId: resolved.defaultProductId,
          },
          resolved,
          [],
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: saId,
      action: approve ? 'created_and_approved' : 'created',
      after: {
        ...agreementForLog(values, names),
        ...rowsForLog(resolvedLogRows(resolved.rows), names),
      },
      company_id: client.company_id,
      client_id: client.id,
    }),
  ]);
  return getServiceAgreement(ctx, pid);
}

async function currentState(ctx: ActorCtx, sa: AgreementRow) {
  const [rows, contractRows] = await ctx.db.batch([
    ctx.db
      .select()
      .from(serviceAgreementRows)
      .where(eq(serviceAgreementRows.service_agreement_id, sa.id))
      .orderBy(asc(serviceAgreementRows.position)),
    ctx.db.select().from(contracts).where(eq(contracts.service_agreement_id, sa.id)),
  ]);
  return { rows, contracts: contractRows, rowById: new Map(rows.map((r) => [r.id, r])) };
}

/**
 * service-agreements/{id}/update: update (an active agreement's contracts follow its rows), or update
 * and approve/activate (pending or inactive becomes active, contracts made or updated).
 */
export async function updateServiceAgreement(
  ctx: ActorCtx,
  id: string,
  input: UpdateAgreementInput,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
  const state = await currentState(ctx, sa);
  const resolved = await resolveInput(ctx, client, input, state.rowById);
  const approve = input.approve === 'approve';
  const status = approve ? 'active' : sa.status;
  const values = {
    insurer_id: resolved.insurerId,
    default_product_id: resolved.defaultProductId,
    name: input.name,
    start_date: input.start_date,
    end_date: input.end_date ?? null,
    status,
    approved_at: approve && !sa.approved_at ? ctx.now : sa.approved_at,
    approved_by: approve && !sa.approved_by ? ctx.actor.user_id : sa.approved_by,
    updated_at: ctx.now,
  };
  const names = await namesOf(ctx, resolved, sa, state);
  await runBatch(ctx.db, [
    ctx.db.update(serviceAgreements).set(values).where(eq(serviceAgreements.id, sa.id)),
    ...rowStatements(ctx, sa.id, resolved, state.rows, state.contracts),
    ...(status === 'active'
      ? contractSyncStatements(
          ctx,
          {
            publicId: sa.public_id,
            companyId: sa.company_id,
            clientId: sa.client_id,
            defaultProductId: resolved.defaultProductId,
          },
          resolved,
          state.contracts,
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action:
        approve && sa.status !== 'active' ? (sa.status === 'pending' ? 'approved' : 'activated') : 'updated',
      before: { ...agreementForLog(sa, names), ...rowsForLog(state.rows, names) },
      after: {
        ...agreementForLog({ ...sa, ...values }, names),
        ...rowsForLog(resolvedLogRows(resolved.rows), names),
      },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}

/** The agreement's saved rows as an input (for activating, adding a row, or setting the default). */
function savedRowsAsInput(
  rows: RowRow[],
  productById: Map<number, ProductRow>,
  campusPublicId: Map<number, string>,
): AgreementRowInput[] {
  return rows.map((r) => ({
    id: r.id,
    product_id: productById.get(r.product_id)!.public_id,
    campus_id: campusPublicId.get(r.campus_id)!,
    net_price: r.net_minor,
    sale_price: r.sale_minor,
    min_days: r.min_days,
    start_date: r.start_date,
    end_date: r.end_date ?? undefined,
    po_number: r.po_number ?? undefined,
  }));
}

async function savedAsInput(ctx: ActorCtx, sa: AgreementRow, rows: RowRow[]) {
  const productIds = [...new Set([...rows.map((r) => r.product_id), sa.default_product_id ?? 0])];
  const campusIds = [...new Set(rows.map((r) => r.campus_id))];
  const [productRows, campusRows, insurerRows] = await ctx.db.batch([
    ctx.db.select().from(products).where(inJson(products.id, productIds)),
    ctx.db
      .select({ id: campuses.id, public_id: campuses.public_id })
      .from(campuses)
      .where(inJson(campuses.id, campusIds)),
    ctx.db
      .select({ public_id: insurers.public_id })
      .from(insurers)
      .where(eq(insurers.id, sa.insurer_id ?? 0)),
  ]);
  const productById = new Map(productRows.map((p) => [p.id, p]));
  return {
    name: sa.name,
    insurer_id: insurerRows[0]?.public_id ?? '',
    start_date: sa.start_date,
    end_date: sa.end_date ?? undefined,
    default_product_id: sa.default_product_id ? productById.get(sa.default_product_id)?.public_id : undefined,
    rows: savedRowsAsInput(rows, productById, new Map(campusRows.map((c) => [c.id, c.public_id]))),
  };
}

/**
 * service-agreements/{id}/status/update: activate (pending or inactive becomes active; its contracts are
 * made or reactivated) or deactivate (inactive; its active contracts are archived).
 */
export async function setServiceAgreementStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'inactive',
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  if (sa.status === status)
    throw ValidationFailed.field('status', msg(`service_agreements.errors.already_${status}`));
  if (status === 'active') {
    const state = await currentState(ctx, sa);
    const input = await savedAsInput(ctx, sa, state.rows);
    const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
    const resolved = await resolveInput(ctx, client, input, state.rowById);
    const names = await namesOf(ctx, resolved, sa, state);
    await runBatch(ctx.db, [
      ctx.db
        .update(serviceAgreements)
        .set({
          status: 'active',
          approved_at: sa.approved_at ?? ctx.now,
          approved_by: sa.approved_by ?? ctx.actor.user_id,
          updated_at: ctx.now,
        })
        .where(eq(serviceAgreements.id, sa.id)),
      ...contractSyncStatements(
        ctx,
        {
          publicId: sa.public_id,
          companyId: sa.company_id,
          clientId: sa.client_id,
          defaultProductId: sa.default_product_id,
        },
        resolved,
        state.contracts,
        names,
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: sa.status === 'pending' ? 'approved' : 'activated',
        before: { status: sa.status },
        after: { status: 'active' },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  } else {
    const active = await ctx.db
      .select()
      .from(contracts)
      .where(and(eq(contracts.service_agreement_id, sa.id), eq(contracts.status, 'active')));
    await runBatch(ctx.db, [
      ctx.db
        .update(serviceAgreements)
        .set({ status: 'inactive', updated_at: ctx.now })
        .where(eq(serviceAgreements.id, sa.id)),
      ctx.db
        .update(contracts)
        .set({ status: 'archived', updated_at: ctx.now })
        .where(and(eq(contracts.service_agreement_id, sa.id), eq(contracts.status, 'active'))),
      ...active.map((c) =>
        logActivity(ctx, {
          entity_type: 'contract',
          entity_id: c.id,
          action: 'archived',
          before: { status: 'active' },
          after: { status: 'archived', reason: 'service agreement deactivated' },
          company_id: c.company_id,
          client_id: c.client_id,
        }),
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: 'deactivated',
        before: { status: sa.status },
        after: { status: 'inactive' },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  }
  return getServiceAgreement(ctx, sa.public_id);
}

/**
 * service-agreements/{id}/contracts/add: one more product row; on an active agreement its contract is
 * made at once. Row errors are keyed by the row's field (`product_id`, ...).
 */
export async function addServiceAgreementContract(
  ctx: ActorCtx,
  id: string,
  row: AgreementRowInput,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const state = await currentState(ctx, sa);
  const saved = await savedAsInput(ctx, sa, state.rows);
  const input = { ...saved, rows: [...saved.rows, { ...row, id: undefined }] };
  const client = await findClient(ctx, sa.client_id, 'update_service_agreement');
  const last = input.rows.length - 1;
  // Errors of the new row land on its own fields; the saved rows were checked when saved.
  const resolved = await resolveInput(ctx, client, input, state.rowById, (i) =>
    i === last ? '' : `rows.${i}`,
  ).catch((e) => {
    if (e instanceof ValidationFailed)
      throw new ValidationFailed(e.errors.map((x) => ({ ...x, key: x.key.replace(/^\./, '') })));
    throw e;
  });
  const names = await namesOf(ctx, resolved, sa, state);
  await runBatch(ctx.db, [
    ctx.db.update(serviceAgreements).set({ updated_at: ctx.now }).where(eq(serviceAgreements.id, sa.id)),
    ...rowStatements(ctx, sa.id, resolved, state.rows, state.contracts),
    ...(sa.status === 'active'
      ? contractSyncStatements(
          ctx,
          {
            publicId: sa.public_id,
            companyId: sa.company_id,
            clientId: sa.client_id,
            defaultProductId: sa.default_product_id,
          },
          resolved,
          state.contracts,
          names,
        )
      : []),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'row_added',
      after: rowsForLog(resolvedLogRows([resolved.rows[last]]), names),
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}

/** service-agreements/{id}/default-product: the product marked default (null clears it). */
export async function setDefaultProduct(
  ctx: ActorCtx,
  id: string,
  productId: string | null | undefined,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  let product: ProductRow | null = null;
  if (productId) {
    [product] = await ctx.db
      .select()
      .from(products)
      .where(and(eq(products.public_id, productId), eq(products.company_id, sa.company_id)))
      .limit(1);
    if (!product) throw ValidationFailed.field('product_id', msg('contracts.errors.product_not_found'));
  }
  const names = await logNames(ctx, { products: [sa.default_product_id] });
  await runBatch(ctx.db, [
    ctx.db
      .update(serviceAgreements)
      .set({ default_product_id: product?.id ?? null, updated_at: ctx.now })
      .where(eq(serviceAgreements.id, sa.id)),
    ctx.db
      .update(contracts)
      .set({ is_default: sql`${contracts.product_id} = ${product?.id ?? 0}`, updated_at: ctx.now })
      .where(eq(contracts.service_agreement_id, sa.id)),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'default_product_set',
      before: { default_product: names.product.get(sa.default_product_id ?? 0) ?? null },
      after: { default_product: product ? `${product.name} (${product.code})` : null },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  return getServiceAgreement(ctx, sa.public_id);
}
