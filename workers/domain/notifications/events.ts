/**
 * The notifications each event of the portal raises, and who receives them (docs/decisions/notifications.md).
 * Each builder answers statements for the batch that makes the change, so a notification exists exactly
 * when its event happened. Who may see the thing comes from access/ (`usersWhoMaySee`).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { DB, Statement } from '../../platform/db';
import { usersWhoMaySee, type BusinessScope } from '../access/thread-readers';
import type { Permission } from '../access/permissions';
import type { Ctx } from '../context';
import { notify, type NotificationKey } from './service';

type NotifyCtx = Pick<Ctx, 'db' | 'now'>;

/** The school users of the scope who hold `permission`, and the acting user (told of their own doing). */
async function schoolReaders(
  db: DB,
  scope: BusinessScope,
  permission: Permission,
  also: (number | null)[] = [],
) {
  const readers = await usersWhoMaySee(db, scope, 'school', permission);
  return [...readers.map((r) => r.id), ...also.filter((id): id is number => id != null)];
}

const clientName = (id: number) => sql`(SELECT name FROM clients WHERE id = ${id})`;
const invoiceNumber = (where: SQL) => sql`(SELECT number FROM invoices WHERE ${where})`;
const invoicePage = (where: SQL) =>
  sql`'/invoices/by-number/' || (SELECT number FROM invoices WHERE ${where})`;

/**
 * An order checked out: its policies are issued (and invoiced, unless on account). Told to the user who
 * ordered and to the client's school users who may read insureds of the order's campus.
 */
export async function orderConfirmed(
  ctx: NotifyCtx,
  order: BusinessScope & {
    ordered_by: number;
    client_name: string;
    policies: number;
    invoice_key: string | null;
  },
): Promise<Statement[]> {
  const user_ids = await schoolReaders(ctx.db, order, 'read_insured', [order.ordered_by]);
  const where = sql`checkout_key = ${order.invoice_key}`;
  return notify(ctx, {
    user_ids,
    key: order.invoice_key ? 'order_confirmed' : 'order_confirmed_on_account',
    params: {
      count: order.policies,
      client: order.client_name,
      ...(order.invoice_key ? { number: invoiceNumber(where) } : {}),
    },
    to: order.invoice_key ? invoicePage(where) : '/insureds',
    client_id: order.client_id,
    campus_id: order.campus_id,
  });
}

/**
 * Invoices issued on their own (a period's invoices, `ids` a subquery of their ids), each told to the
 * client's users who see every campus and may read invoices.
 */
export async function invoicesIssued(
  ctx: NotifyCtx,
  client: { company_id: number; client_id: number },
  ids: SQL,
): Promise<Statement[]> {
  const user_ids = await schoolReaders(ctx.db, { ...client, campus_id: null }, 'read_invoice');
  return notify(ctx, {
    user_ids,
    key: 'invoice_issued',
    params: {
      number: sql`i.number`,
      client: clientName(client.client_id),
      amount_minor: sql`i.total_minor`,
      currency: sql`i.currency`,
    },
    to: sql`'/invoices/by-number/' || i.number`,
    client_id: client.client_id,
    campus_id: sql`i.campus_id`,
    each: sql`invoices i`,
    when: sql`i.id IN ${ids}`,
  });
}

/**
 * A payment received on an invoice: told to the company's finance staff (who hold update_invoice: they
 * record and reconcile payments) and to the client's users who may read invoices; never to whoever
 * recorded it.
 */
export async function paymentReceived(
  ctx: NotifyCtx,
  invoice: BusinessScope & { number: string | null; currency: string },
  payment: { amount_minor: number | SQL; by: number | null; when?: SQL },
): Promise<Statement[]> {
  const [finance, school] = await Promise.all([
    usersWhoMaySee(ctx.db, invoice, 'company', 'update_invoice'),
    usersWhoMaySee(ctx.db, invoice, 'school', 'read_invoice'),
  ]);
  return notify(ctx, {
    user_ids: [...finance, ...school].map((u) => u.id).filter((id) => id !== payment.by),
    key: 'payment_received',
    params: {
      number: invoice.number ?? '',
      client: clientName(invoice.client_id),
      amount_minor: payment.amount_minor,
      currency: invoice.currency,
    },
    to: `/invoices/by-number/${invoice.number}`,
    client_id: invoice.client_id,
    campus_id: invoice.campus_id,
    when: payment.when,
  });
}

/**
 * An amendment confirmed (policies extended, trip dates changed, policies cancelled): told to whoever
 * asked for it and, for each client and campus its policies belong to, to the school users who may read
 * insureds there.
 */
export async function amendmentConfirmed(
  ctx: NotifyCtx,
  a: { id: number; public_id: string; kind: string; policy_count: number; created_by: number },
): Promise<Statement[]> {
  const places = await ctx.db.all<{ company_id: number; client_id: number; campus_id: number }>(
    sql`SELECT DISTINCT p.company_id, p.client_id, p.campus_id
      FROM policy_amendment_lines l JOIN policies p ON p.id = l.policy_id WHERE l.amendment_id = ${a.id}`,
  );
  const to = `/insureds/amendments/${a.public_id}`;
  const key = `amendment_${a.kind}` as NotificationKey;
  const told = new Set<number>();
  const statements: Statement[] = [];
  for (const place of places) {
    const readers = (await usersWhoMaySee(ctx.db, place, 'school', 'read_insured')).filter(
      (u) => !told.has(u.id),
    );
    readers.forEach((u) => told.add(u.id));
    statements.push(
      ...notify(ctx, {
        user_ids: readers.map((u) => u.id),
        key,
        params: { count: a.policy_count },
        to,
        client_id: place.client_id,
        campus_id: place.campus_id,
      }),
    );
  }
  if (!told.has(a.created_by))
    statements.push(...notify(ctx, { user_ids: [a.created_by], key, params: { count: a.policy_count }, to }));
  return statements;
}
