/**
 * Service agreement records: their row types, the look-up inside the actor's scope (access/scope.ts
 * agreementScope), and the SQL helpers the writers share.
 */
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  type contracts,
  type products,
  type serviceAgreementRows,
  serviceAgreements,
} from '../../../drizzle/schema';
import { agreementScope } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { msg } from '../validation';

export type AgreementRow = typeof serviceAgreements.$inferSelect;
export type RowRow = typeof serviceAgreementRows.$inferSelect;
export type ContractRow = typeof contracts.$inferSelect;
export type ProductRow = typeof products.$inferSelect;

export function as<T>(column: SQLiteColumn, alias: string) {
  return sql<T>`${column}`.as(alias);
}

/**
 * The select list of an insert ... select: every column of the table, in its order (drizzle checks),
 * taking the given expressions and null for the others (the id, optional columns).
 */
export function allColumns(table: Parameters<typeof getTableColumns>[0], provided: Record<string, unknown>) {
  return Object.fromEntries(
    Object.keys(getTableColumns(table)).map((k) => [k, (provided[k] ?? sql`null`) as SQL]),
  ) as Record<string, SQL>;
}

export function visibleAgreements(ctx: ActorCtx): SQL {
  return agreementScope(ctx.actor);
}

export async function findAgreement(ctx: ActorCtx, id: string): Promise<AgreementRow> {
  const [row] = await ctx.db
    .select()
    .from(serviceAgreements)
    .where(and(eq(serviceAgreements.public_id, id), visibleAgreements(ctx)))
    .limit(1);
  if (!row) throw new NotFound(msg('service_agreements.errors.not_found'));
  return row;
}
