/**
 * The client page's money lists: "payments" (the client's payments that came in, newest
 * first) and "transactions" (every transaction of its invoices: payments, refunds, pending and failed).
 * What the user sees of them is the invoices they may see (visibleInvoices, access/scope.ts).
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { invoices, transactions } from '../../../drizzle/schema';
import { requirePermission } from '../access/actor';
import { findClient } from '../access/finders';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { countAll, paginate } from '../lists';
import { listQuerySchema, type ListQuery } from '../list-query';

/** Who opens the client's money tabs (workers/domain/clients/tabs.ts says the same). */
export const CLIENT_MONEY_ACCESS = 'read_client_billing|read_invoice';

export interface ClientTransactionRow {
  id: string;
  invoice_id: string;
  invoice_number: string;
  kind: 'payment' | 'refund';
  gateway: 'barclaycard' | 'bank_transfer' | 'manual';
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  method: string | null;
  amount_minor: number;
  currency: string;
  paid_on: string | null;
  note: string | null;
  receipt_name: string | null;
  created_at: string;
}

/** The client's transactions, newest first; `only: 'payments'` keeps the payments that came in. */
export async function clientTransactions(
  ctx: ActorCtx,
  clientId: string,
  query: Partial<ListQuery> = {},
  only: 'payments' | 'all' = 'all',
) {
  requirePermission(ctx.actor, CLIENT_MONEY_ACCESS);
  const client = await findClient(ctx, clientId, 'read_client');
  const q = listQuerySchema.parse(query);
  const where = and(
    eq(invoices.client_id, client.id),
    visibleInvoices(ctx.actor),
    only === 'payments'
      ? and(eq(transactions.kind, 'payment'), eq(transactions.status, 'succeeded'))
      : undefined,
  );
  const page = await paginate<{
    t: typeof transactions.$inferSelect;
    invoice_public_id: string;
    invoice_number: string;
  }>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          t: transactions,
          invoice_public_id: sql<string>`${invoices.public_id}`.as('invoice_public_id'),
          invoice_number: sql<string>`${invoices.number}`.as('invoice_number'),
        })
        .from(transactions)
        .innerJoin(invoices, eq(invoices.id, transactions.invoice_id))
        .where(where)
        .orderBy(
          desc(sql`coalesce(${transactions.paid_on}, date(${transactions.created_at} / 1000, 'unixepoch'))`),
          desc(transactions.created_at),
          desc(transactions.id),
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(transactions)
      .innerJoin(invoices, eq(invoices.id, transactions.invoice_id))
      .where(where),
  });
  return {
    meta: page.meta,
    items: page.items.map(({ t, invoice_public_id, invoice_number }): ClientTransactionRow => ({
      id: t.public_id,
      invoice_id: invoice_public_id,
      invoice_number,
      kind: t.kind,
      gateway: t.gateway,
      status: t.status,
      method: t.method,
      amount_minor: t.amount_minor,
      currency: t.currency,
      paid_on: t.paid_on,
      note: t.note,
      receipt_name: t.receipt_key ? (t.receipt_name ?? 'receipt') : null,
      created_at: t.created_at.toISOString(),
    })),
  };
}
