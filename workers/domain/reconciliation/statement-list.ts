/**
 * The bank statements list (the reconciliation page and `GET bank-statements`): the statements the actor
 * may see, newest first, searched and filtered, one page at a time.
 *
 * The search finds a statement by its file name or account, or by any of its credits' text, payer's
 * reference or payer's name: finance looking for "the statement with Oakwood's payment" types the payer.
 */
import { and, desc, eq, exists, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import { bankStatementLines, bankStatements } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { visibleBankStatements } from '../access/scope';
import type { ActorCtx } from '../context';
import { likeAny, paginate, type Page } from '../lists';
import { READ_PERMISSION, type StatementListQuery, type StatementStatus } from './schema';

export interface StatementListItem {
  id: string;
  format: 'csv' | 'camt053';
  status: StatementStatus;
  file_name: string;
  account: string | null;
  line_count: number;
  matched_count: number;
  recorded_count: number;
  currency: string | null;
  created_at: string;
  confirmed_at: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function conditions(ctx: ActorCtx, q: StatementListQuery): SQL {
  const search = q.search
    ? or(
        likeAny([bankStatements.file_name, bankStatements.account], q.search),
        exists(
          ctx.db
            .select({ one: sql`1` })
            .from(bankStatementLines)
            .where(
              and(
                sql`${bankStatementLines.statement_id} = ${bankStatements.id}`,
                likeAny(
                  [bankStatementLines.text, bankStatementLines.reference, bankStatementLines.counterparty],
                  q.search,
                ),
              ),
            ),
        ),
      )
    : undefined;
  return and(
    visibleBankStatements(ctx.actor),
    q.status ? eq(bankStatements.status, q.status) : undefined,
    q.format ? eq(bankStatements.format, q.format) : undefined,
    q.from ? gte(bankStatements.created_at, new Date(`${q.from}T00:00:00Z`)) : undefined,
    q.to ? lt(bankStatements.created_at, new Date(Date.parse(`${q.to}T00:00:00Z`) + DAY_MS)) : undefined,
    search,
  )!;
}

/** The statements the actor may see (read_billing), newest first, matching the search and filters. */
export async function listStatements(ctx: ActorCtx, q: StatementListQuery): Promise<Page<StatementListItem>> {
  requirePermission(ctx.actor, READ_PERMISSION);
  const where = conditions(ctx, q);
  const page = await paginate<typeof bankStatements.$inferSelect>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select()
        .from(bankStatements)
        .where(where)
        .orderBy(desc(bankStatements.created_at), desc(bankStatements.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(bankStatements)
      .where(where),
  });
  return {
    meta: page.meta,
    items: page.items.map((r) => ({
      id: r.public_id,
      format: r.format,
      status: r.status,
      file_name: r.file_name,
      account: r.account,
      line_count: r.line_count,
      matched_count: r.matched_count,
      recorded_count: r.recorded_count,
      currency: r.currency,
      created_at: r.created_at.toISOString(),
      confirmed_at: r.confirmed_at ? r.confirmed_at.toISOString() : null,
    })),
  };
}
