/**
 * The statements that write an agreement's rows and keep one contract per row in step with them (made on
 * approval, updated with the rows, archived when the agreement is deactivated), for one batch.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import { contracts, serviceAgreementRows, serviceAgreements } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, type Statement } from '../../platform/db';
import { diff, logActivity, logActivityFrom } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { type RowRow, type ContractRow, allColumns } from './records';
import type { Resolved } from './resolve';
import { type LogNames, contractLogValues } from './log';

/**
 * The statements that write an agreement's rows: rows no longer present lose their contract (archived
 * and detached, so the row can go), kept rows are updated, new rows inserted, positions 0..n-1.
 */
export function rowStatements(
  ctx: ActorCtx,
  saId: SQL<number> | number,
  resolved: Resolved,
  existingRows: RowRow[],
  existingContracts: ContractRow[],
): Statement[] {
  const keep = new Set(resolved.rows.map((r) => r.id).filter(Boolean) as number[]);
  const removed = existingRows.filter((r) => !keep.has(r.id)).map((r) => r.id);
  const statements: Statement[] = [];
  if (removed.length) {
    for (const c of existingContracts.filter(
      (c) => c.service_agreement_row_id && removed.includes(c.service_agreement_row_id),
    )) {
      if (c.status === 'active')
        statements.push(
          logActivity(ctx, {
            entity_type: 'contract',
            entity_id: c.id,
            action: 'archived',
            before: { status: c.status },
            after: { status: 'archived', reason: 'row removed from service agreement' },
            company_id: c.company_id,
            client_id: c.client_id,
          }),
        );
    }
    statements.push(
      ctx.db
        .update(contracts)
        .set({ service_agreement_row_id: null, status: 'archived', updated_at: ctx.now })
        .where(inJson(contracts.service_agreement_row_id, removed)),
      ctx.db.delete(serviceAgreementRows).where(inJson(serviceAgreementRows.id, removed)),
    );
  }
  resolved.rows.forEach((r, position) => {
    const values = {
      product_id: r.productRow.id,
      campus_id: r.campusId,
      net_minor: r.net_price,
      sale_minor: r.sale_price,
      min_days: r.min_days,
      start_date: r.start_date,
      end_date: r.end_date ?? null,
      po_number: r.po_number ?? null,
      position,
      updated_at: ctx.now,
    };
    if (r.id) {
      statements.push(
        ctx.db.update(serviceAgreementRows).set(values).where(eq(serviceAgreementRows.id, r.id)),
      );
    } else {
      statements.push(
        ctx.db.insert(serviceAgreementRows).values({
          ...values,
          service_agreement_id: saId,
          created_at: ctx.now,
        }),
      );
    }
  });
  return statements;
}

/**
 * The statements that create or update one contract per row (found by its position, since a new row's
 * id is only known inside the batch), each with its activity-log row. Contracts are active, named after
 * the product, marked default when their product is the agreement's default product.
 */
export function contractSyncStatements(
  ctx: ActorCtx,
  sa: { publicId: string; companyId: number; clientId: number; defaultProductId: number | null },
  resolved: Resolved,
  existingContracts: ContractRow[],
  names: LogNames,
): Statement[] {
  const byRow = new Map(
    existingContracts.filter((c) => c.service_agreement_row_id).map((c) => [c.service_agreement_row_id!, c]),
  );
  const now = ctx.now.getTime();
  const statements: Statement[] = [];
  resolved.rows.forEach((r, position) => {
    const before = r.id ? byRow.get(r.id) : undefined;
    const after = {
      name: r.productRow.name,
      status: 'active' as const,
      campus_id: r.campusId,
      product_id: r.productRow.id,
      start_date: r.start_date,
      end_date: r.end_date ?? null,
      net_minor: r.net_price,
      sale_minor: r.sale_price,
      min_days: r.min_days,
      po_number: r.po_number ?? null,
      is_default: sa.defaultProductId === r.productRow.id,
    };
    const rowAt = and(
      eq(serviceAgreementRows.service_agreement_id, idByPublicId(serviceAgreements, sa.publicId)),
      eq(serviceAgreementRows.position, position),
    );
    const provided: Record<string, unknown> = {
      public_id: sql`${publicId()}`,
      company_id: sql`${sa.companyId}`,
      client_id: sql`${sa.clientId}`,
      campus_id: serviceAgreementRows.campus_id,
      product_id: serviceAgreementRows.product_id,
      service_agreement_id: serviceAgreementRows.service_agreement_id,
      service_agreement_row_id: serviceAgreementRows.id,
      name: sql`${after.name}`,
      start_date: serviceAgreementRows.start_date,
      end_date: serviceAgreementRows.end_date,
      status: sql`'active'`,
      is_default: sql`${after.is_default ? 1 : 0}`,
      net_minor: serviceAgreementRows.net_minor,
      sale_minor: serviceAgreementRows.sale_minor,
      currency: sql`${r.productRow.currency}`,
      min_days: serviceAgreementRows.min_days,
      po_number: serviceAgreementRows.po_number,
      created_at: sql`${now}`,
      updated_at: sql`${now}`,
    };
    statements.push(
      ctx.db
        .insert(contracts)
        .select(
          ctx.db.select(allColumns(contracts, provided)).from(serviceAgreementRows).where(rowAt) as never,
        )
        .onConflictDoUpdate({
          target: contracts.service_agreement_row_id,
          set: Object.fromEntries(
            [
              'campus_id',
              'product_id',
              'name',
              'start_date',
              'end_date',
              'status',
              'is_default',
              'net_minor',
              'sale_minor',
              'currency',
              'min_days',
              'po_number',
              'updated_at',
            ].map((k) => [k, sql.raw(`excluded.${k}`)]),
          ),
        }),
    );
    const change = before
      ? diff(contractLogValues(before, names), contractLogValues(after, names))
      : { before: null, after: contractLogValues(after, names) };
    if (before && Object.keys(change.after ?? {}).length === 0) return;
    statements.push(
      logActivityFrom(
        ctx,
        { entity_type: 'contract', action: before ? 'updated' : 'created' },
        sql`SELECT ${contracts.id} AS entity_id,
            ${change.before ? JSON.stringify(change.before) : null} AS before,
            ${JSON.stringify({ ...change.after, service_agreement: sa.publicId })} AS after,
            ${sa.companyId} AS company_id, ${sa.clientId} AS client_id
          FROM ${contracts}
          INNER JOIN ${serviceAgreementRows} ON ${serviceAgreementRows.id} = ${contracts.service_agreement_row_id}
          WHERE ${rowAt}`,
      ),
    );
  });
  return statements;
}
