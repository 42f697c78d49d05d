/**
 * Paying an invoice (ARCHITECTURE "Payments"; spec 002 s.7 "Invoices and payments"; decisions in
 * docs/decisions/checkout-and-payments.md, "Payments").
 *
 * - Card (Barclaycard ePDQ): `startCardPayment` builds the hosted page's form signed with SHA-IN; the
 *   answer comes back twice, by the browser (/payment/barclaycard/callback/success|fail) and by ePDQ's
 *   server-to-server notification (/payment/barclaycard/notify). Both go through `recordCardResult`,
 *   which verifies the SHA-OUT signature in constant time, checks ORDERID, AMOUNT and CURRENCY against
 *   the invoice, and records the answer once per (PAYID, STATUS): replayed, concurrent or out of order,
 *   exactly one transaction per answer, and the invoice is paid once. A wrong answer records nothing.
 * - Bank transfer: `startBankTransfer` records a pending transaction (one per invoice) that quotes the
 *   invoice's payment reference; staff approve it with the date the money arrived.
 * - Invoiced directly / pay later: nothing to do at checkout; the invoice waits for its due date.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { companies, invoices, transactions, users } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { publicId } from '../../platform/crypto';
import { runBatch, type DB, type Statement } from '../../platform/db';
import { paymentReceived } from '../notifications/events';
import { logActivityFrom } from '../audit/activity-log';
import {
  amountField,
  answerAmountMinor,
  epdqLanguage,
  hostedPageUrl,
  normaliseParams,
  outcomeOf,
  signIn,
  verifyOut,
  type CardOutcome,
} from '../../platform/epdq';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { Conflict, ValidationFailed } from '../errors';
import { findVisibleInvoice, presentInvoice, type JoinedInvoice } from '../invoices/queries';
import { settleInvoice, settleInvoices } from '../invoices/settle';
import { balanceMinor } from '../invoices/status';
import { msg, todayIso } from '../validation';
import { cardResultSchema, type ApproveBankTransferInput, type StartPaymentInput } from './schema';
import { refuseInSupportView } from '../access/support';
import { paidNow, webhookEvents } from '../webhooks/emit';

type TransactionRow = typeof transactions.$inferSelect;

/** Approving a bank transfer is finance work. */
export const APPROVE_PERMISSION = 'update_invoice';

export function presentTransaction(
  t: TransactionRow,
  invoicePublicId: string,
  user?: { public_id: string; name: string } | null,
) {
  return {
    id: t.public_id,
    invoice_id: invoicePublicId,
    kind: t.kind,
    gateway: t.gateway,
    status: t.status,
    identifier: t.identifier,
    gateway_status: t.gateway_status,
    amount: t.amount_minor / 100,
    amount_minor: t.amount_minor,
    currency: t.currency,
    paid_on: t.paid_on,
    extra: t.extra,
    method: t.method,
    note: t.note,
    receipt: t.receipt_key ? { name: t.receipt_name ?? 'receipt', type: t.receipt_type } : null,
    editable: t.gateway !== 'barclaycard' && t.status === 'succeeded',
    user: user ? { id: user.public_id, name: user.name } : null,
    created_at: t.created_at,
  };
}
export type TransactionView = ReturnType<typeof presentTransaction>;

function requireUnpaid(invoice: JoinedInvoice['invoice']) {
  if (invoice.voided_at || invoice.status === 'void') throw new Conflict(msg('payments.errors.void'));
  if (invoice.type === 'credit_note') throw new Conflict(msg('payments.errors.credit_note'));
  if (invoice.status === 'paid' || balanceMinor(invoice) <= 0)
    throw new Conflict(msg('payments.errors.already_paid'));
  if (invoice.status === 'refunded') throw new Conflict(msg('payments.errors.refunded'));
}

function requireCurrency(invoice: JoinedInvoice['invoice'], currency: string) {
  if (currency.toUpperCase() !== invoice.currency)
    throw ValidationFailed.field('currency', msg('payments.errors.currency'));
}

/** The address of one of our pages, in the reader's language (English has no prefix). */
function pageUrl(env: Env, lang: string | undefined, path: string): string {
  const prefix = lang && lang !== 'en' ? `/${lang}` : '';
  return new URL(`${prefix}${path}`, env.PUBLIC_URL).toString();
}

export interface HostedForm {
  action: string;
  method: 'post';
  fields: Record<string, string>;
}

/**
 * The ePDQ hosted page's form for paying an unpaid invoice by card: ORDERID is the invoice number, AMOUNT
 * the invoice total in minor units. Changes nothing: the answer is recorded when it comes back.
 */
export async function startCardPayment(
  ctx: ActorCtx,
  invoiceId: string,
  input: StartPaymentInput,
): Promise<{ form: HostedForm; invoice: ReturnType<typeof presentInvoice> }> {
  refuseInSupportView(ctx.actor); // the school pays by card itself (docs/decisions/sign-in.md, "Support view")
  const row = await findVisibleInvoice(ctx, invoiceId);
  requireUnpaid(row.invoice);
  requireCurrency(row.invoice, input.currency);
  if (!ctx.env.EPDQ_PSPID || !ctx.env.EPDQ_SHA_IN || !ctx.env.EPDQ_URL)
    throw new Conflict(msg('payments.errors.card_unavailable'));
  const fields: Record<string, string> = {
    PSPID: ctx.env.EPDQ_PSPID,
    ORDERID: row.invoice.number,
    AMOUNT: amountField(balanceMinor(row.invoice)),
    CURRENCY: row.invoice.currency,
    LANGUAGE: epdqLanguage(ctx.lang),
    COM: `${ctx.env.PRODUCT_NAME} ${row.invoice.number}`.slice(0, 100),
    ACCEPTURL: pageUrl(ctx.env, ctx.lang, '/payment/barclaycard/callback/success'),
    DECLINEURL: pageUrl(ctx.env, ctx.lang, '/payment/barclaycard/callback/fail'),
    EXCEPTIONURL: pageUrl(ctx.env, ctx.lang, '/payment/barclaycard/callback/fail'),
    CANCELURL: pageUrl(ctx.env, ctx.lang, '/payment/barclaycard/callback/fail'),
  };
  if (ctx.actor.email) fields.EMAIL = ctx.actor.email;
  fields.SHASIGN = await signIn(fields, ctx.env.EPDQ_SHA_IN);
  return {
    form: { action: hostedPageUrl(ctx.env.EPDQ_URL, ctx.env.PUBLIC_URL), method: 'post', fields },
    invoice: presentInvoice(row),
  };
}

export interface CardResult {
  outcome: CardOutcome;
  /** The same answer had been recorded before (a replay, or the other of browser and notification). */
  duplicate: boolean;
  invoice: { id: string; number: string; status: string };
  transaction: TransactionView;
}

/**
 * Records an ePDQ answer. Used by the browser return, the server-to-server notification and the API's
 * verify call; needs no signed-in user (the signature is the proof). Throws ValidationFailed, recording
 * nothing, when the signature, the order, the amount or the currency is wrong.
 */
export async function recordCardResult(
  db: DB,
  env: Env,
  raw: Record<string, string>,
  opts: { now?: Date; source?: 'browser' | 'notification' | 'api' } = {},
): Promise<CardResult> {
  const now = opts.now ?? new Date();
  // Whatever door it came through (browser return, notification, API): a sane number and size of fields.
  if (!cardResultSchema.safeParse(raw).success)
    throw ValidationFailed.field('PAYID', msg('payments.errors.incomplete'));
  const params = normaliseParams(raw);
  if (!(await verifyOut(params, env.EPDQ_SHA_OUT)))
    throw ValidationFailed.field('SHASIGN', msg('payments.errors.signature'));
  const payId = params.PAYID ?? '';
  const status = params.STATUS ?? '';
  if (!/^\d{1,30}$/.test(payId) || !/^\d{1,3}$/.test(status))
    throw ValidationFailed.field('PAYID', msg('payments.errors.incomplete'));
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.number, params.ORDERID ?? ''))
    .limit(1);
  if (!invoice) throw ValidationFailed.field('ORDERID', msg('payments.errors.order'));
  if ((params.CURRENCY ?? '').toUpperCase() !== invoice.currency)
    throw ValidationFailed.field('CURRENCY', msg('payments.errors.currency'));
  const outcome = outcomeOf(status);
  const answer = and(
    eq(transactions.gateway, 'barclaycard'),
    eq(transactions.identifier, payId),
    eq(transactions.gateway_status, status),
  );
  const [before] = await db
    .select({ id: transactions.id, amount_minor: transactions.amount_minor })
    .from(transactions)
    .where(answer)
    .limit(1);
  // A card payment pays the balance (part payments exist): the amount asked for when it started, or,
  // for an answer recorded before (a replay), the amount it recorded then. Another payment of this
  // PAYID (a pending answer before the final one) was for the same amount.
  const [sameOrder] = await db
    .select({ amount_minor: transactions.amount_minor })
    .from(transactions)
    .where(and(eq(transactions.gateway, 'barclaycard'), eq(transactions.identifier, payId)))
    .limit(1);
  const expected = before?.amount_minor ?? sameOrder?.amount_minor;
  const amount = answerAmountMinor(params.AMOUNT);
  const open = balanceMinor(invoice);
  if (amount === null || (expected !== undefined ? amount !== expected : amount < open))
    throw ValidationFailed.field('AMOUNT', msg('payments.errors.amount'));
  // Finance may record a part (or whole) payment while the card page is open: a card payment that would
  // now pay more than is open is refused, recording nothing (its amount is fixed when it starts). An
  // answer that moves no money (declined, cancelled) is recorded as it is.
  const paying = outcome === 'succeeded' || outcome === 'pending';
  const paidMeanwhile = (now: typeof invoice) =>
    ValidationFailed.field(
      'AMOUNT',
      msg('payments.errors.paid_meanwhile', {
        number: invoice.number,
        amount: (amount / 100).toFixed(2),
        open: (Math.max(0, balanceMinor(now)) / 100).toFixed(2),
        currency: invoice.currency,
      }),
    );
  if (!before && paying && amount > open) throw paidMeanwhile(invoice);
  const today = todayIso(now);
  if (!before) {
    // The balance is checked again inside the batch: a payment recorded since the check above wins.
    const fits = paying
      ? sql`(SELECT i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor FROM invoices i
          WHERE i.id = ${invoice.id}) >= ${amount}`
      : sql`1`;
    const stamp = now.getTime();
    const statements: Statement[] = [
      db.run(sql`INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, identifier, gateway_status,
          amount_minor, currency, paid_on, extra, created_at, updated_at)
        SELECT ${publicId()}, ${invoice.id}, 'payment', 'barclaycard', ${outcome}, ${payId}, ${status}, ${amount},
          ${invoice.currency}, ${outcome === 'succeeded' ? today : null},
          ${JSON.stringify(pick(params, ['ACCEPTANCE', 'BRAND', 'CARDNO', 'NCERROR', 'PM', 'TRXDATE', 'ED', 'CN']))},
          ${stamp}, ${stamp}
        WHERE ${fits}
        ON CONFLICT DO NOTHING`),
    ];
    // Settled (and announced) only when this answer was written now.
    statements.push(
      settleInvoices(
        db,
        sql`x.id = ${invoice.id} AND EXISTS (SELECT 1 FROM transactions t WHERE t.gateway = 'barclaycard'
          AND t.identifier = ${payId} AND t.gateway_status = ${status} AND t.created_at = ${stamp})`,
        now,
      ),
    );
    statements.push(webhookEvents({ db, now }, 'invoice.paid', paidNow(invoice.id, now)));
    statements.push(paymentLog(db, { payId, status, now, source: opts.source ?? 'browser' }));
    if (outcome === 'succeeded')
      statements.push(
        ...(await paymentReceived({ db, now }, invoice, {
          amount_minor: amount,
          by: null,
          when: sql`EXISTS (SELECT 1 FROM transactions t WHERE t.gateway = 'barclaycard'
            AND t.identifier = ${payId} AND t.gateway_status = ${status} AND t.created_at = ${stamp})`,
        })),
      );
    await runBatch(db, statements);
  }
  const [row] = await db.select().from(transactions).where(answer).limit(1);
  const [after] = await db.select().from(invoices).where(eq(invoices.id, invoice.id));
  if (!row) throw paidMeanwhile(after);
  return {
    outcome,
    duplicate: !!before,
    invoice: { id: after.public_id, number: after.number, status: after.status },
    transaction: presentTransaction(row, after.public_id),
  };
}

function pick(params: Record<string, string>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) if (params[n]) out[n] = params[n];
  return out;
}

/** The activity-log row of a recorded card answer, written once however often the answer comes. */
function paymentLog(db: DB, input: { payId: string; status: string; now: Date; source: string }): Statement {
  return logActivityFrom(
    { db, actor: null, now: input.now },
    { entity_type: 'invoice', action: 'card_payment' },
    sql`SELECT t.invoice_id AS entity_id, NULL AS before,
      json_object('transaction', t.public_id, 'payid', t.identifier, 'status', t.gateway_status,
        'outcome', t.status, 'amount_minor', t.amount_minor, 'currency', t.currency, 'source', ${input.source},
        'invoice_status', i.status) AS after, i.company_id, i.client_id
    FROM transactions t JOIN invoices i ON i.id = t.invoice_id
    WHERE t.gateway = 'barclaycard' AND t.identifier = ${input.payId} AND t.gateway_status = ${input.status}
      AND NOT EXISTS (SELECT 1 FROM activity_logs l WHERE l.entity_type = 'invoice'
        AND l.entity_id = t.invoice_id AND l.action = 'card_payment'
        AND json_extract(l.after, '$.transaction') = t.public_id)`,
  );
}

/** The company's bank details an invoice is paid to (companies: bank name, BIC, IBAN, branch, account). */
export async function bankDetailsOf(db: DB, companyId: number) {
  const [row] = await db
    .select({
      company_name: companies.name,
      bank_name: companies.bank_name,
      bic: companies.bic,
      iban: companies.iban,
      branch_code: companies.branch_code,
      account_number: companies.account_number,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row ?? null;
}

/**
 * Starts paying an invoice by bank transfer: a pending bank-transfer transaction quoting the invoice's
 * payment reference (one per invoice: starting again answers the same one), the invoice pending.
 */
export async function startBankTransfer(ctx: ActorCtx, invoiceId: string, input: StartPaymentInput) {
  const row = await findVisibleInvoice(ctx, invoiceId);
  const invoice = row.invoice;
  requireUnpaid(invoice);
  requireCurrency(invoice, input.currency);
  const mine = and(
    eq(transactions.gateway, 'bank_transfer'),
    eq(transactions.identifier, invoice.payment_reference),
    eq(transactions.gateway_status, 'awaiting'),
  );
  const [existing] = await ctx.db.select().from(transactions).where(mine).limit(1);
  if (!existing) {
    await runBatch(ctx.db, [
      ctx.db
        .insert(transactions)
        .values({
          public_id: publicId(),
          invoice_id: invoice.id,
          kind: 'payment',
          gateway: 'bank_transfer',
          status: 'pending',
          identifier: invoice.payment_reference,
          gateway_status: 'awaiting',
          amount_minor: balanceMinor(invoice),
          currency: invoice.currency,
          user_id: ctx.actor.user_id,
          created_at: ctx.now,
          updated_at: ctx.now,
        })
        .onConflictDoNothing(),
      ctx.db.run(sql`UPDATE invoices SET payment_method = 'bank_transfer', updated_at = ${ctx.now.getTime()}
        WHERE id = ${invoice.id} AND status IN ('unpaid', 'pending')`),
      settleInvoice(ctx.db, invoice.id, ctx.now),
      logActivityFrom(
        ctx,
        { entity_type: 'invoice', action: 'bank_transfer_started' },
        sql`SELECT ${invoice.id} AS entity_id, NULL AS before,
          json_object('transaction', t.public_id, 'reference', t.identifier) AS after,
          ${invoice.company_id} AS company_id, ${invoice.client_id} AS client_id
        FROM transactions t WHERE t.gateway = 'bank_transfer' AND t.identifier = ${invoice.payment_reference}
          AND t.gateway_status = 'awaiting'
          AND NOT EXISTS (SELECT 1 FROM activity_logs l WHERE l.entity_type = 'invoice'
            AND l.entity_id = ${invoice.id} AND l.action = 'bank_transfer_started')`,
      ),
    ]);
  }
  const [transaction] = await ctx.db.select().from(transactions).where(mine).limit(1);
  const fresh = await findVisibleInvoice(ctx, invoice.id);
  return {
    transaction: presentTransaction(transaction, invoice.public_id),
    invoice: presentInvoice(fresh),
    bank_details: await bankDetailsOf(ctx.db, invoice.company_id),
  };
}

/**
 * Staff approve a bank transfer with the date the money arrived ('Payment date is required', 'Payment
 * date cannot be in future'): the pending transaction succeeds (or one is recorded, when the client paid
 * without starting one), and the invoice is paid on that date. A paid invoice is refused.
 */
export async function approveBankTransfer(ctx: ActorCtx, invoiceId: string, input: ApproveBankTransferInput) {
  requirePermission(ctx.actor, APPROVE_PERMISSION);
  if (input.date > todayIso(ctx.now))
    throw ValidationFailed.field('date', msg('validation.payment_date_future'));
  const row = await findVisibleInvoice(ctx, invoiceId);
  const invoice = row.invoice;
  requireUnpaid(invoice);
  const stamp = ctx.now.getTime();
  const ref = invoice.payment_reference;
  // The transfer pays the balance as it is when approved (part payments may have come since it started).
  const balance = sql`(SELECT i.total_minor - i.paid_minor + i.refunded_minor - i.credited_minor
    FROM invoices i WHERE i.id = ${invoice.id})`;
  // Told before the transfer pays it: the amount is the balance it pays.
  const told = await paymentReceived(ctx, invoice, {
    amount_minor: balance,
    by: ctx.actor.user_id,
    when: sql`${balance} > 0`,
  });
  await runBatch(ctx.db, [
    ...told,
    ctx.db.run(sql`UPDATE transactions SET status = 'succeeded', gateway_status = 'approved',
        amount_minor = ${balance}, paid_on = ${input.date}, user_id = ${ctx.actor.user_id}, updated_at = ${stamp}
      WHERE invoice_id = ${invoice.id} AND gateway = 'bank_transfer' AND status = 'pending'
        AND ${balance} > 0`),
    ctx.db.run(sql`INSERT INTO transactions (public_id, invoice_id, kind, gateway, status, identifier,
        gateway_status, amount_minor, currency, paid_on, user_id, created_at, updated_at)
      SELECT ${publicId()}, ${invoice.id}, 'payment', 'bank_transfer', 'succeeded', ${ref}, 'approved',
        ${balance}, ${invoice.currency}, ${input.date}, ${ctx.actor.user_id}, ${stamp}, ${stamp}
      WHERE ${balance} > 0 AND NOT EXISTS (SELECT 1 FROM transactions WHERE gateway = 'bank_transfer'
        AND identifier = ${ref} AND gateway_status = 'approved')`),
    ctx.db.run(sql`UPDATE invoices SET payment_method = 'bank_transfer', updated_at = ${stamp}
      WHERE id = ${invoice.id}`),
    settleInvoice(ctx.db, invoice.id, ctx.now),
    webhookEvents(ctx, 'invoice.paid', paidNow(invoice.id, ctx.now)),
    logActivityFrom(
      ctx,
      { entity_type: 'invoice', action: 'bank_transfer_approved' },
      sql`SELECT ${invoice.id} AS entity_id, json_object('status', ${invoice.status}) AS before,
        json_object('status', 'paid', 'paid_at', ${input.date}, 'transaction', t.public_id) AS after,
        ${invoice.company_id} AS company_id, ${invoice.client_id} AS client_id
      FROM transactions t WHERE t.gateway = 'bank_transfer' AND t.identifier = ${ref}
        AND t.gateway_status = 'approved'
        AND NOT EXISTS (SELECT 1 FROM activity_logs l WHERE l.entity_type = 'invoice'
          AND l.entity_id = ${invoice.id} AND l.action = 'bank_transfer_approved')`,
    ),
  ]);
  const fresh = await findVisibleInvoice(ctx, invoice.id);
  const [transaction] = await ctx.db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.gateway, 'bank_transfer'),
        eq(transactions.identifier, ref),
        eq(transactions.gateway_status, 'approved'),
      ),
    )
    .limit(1);
  return {
    invoice: presentInvoice(fresh),
    transaction: presentTransaction(transaction, invoice.public_id),
  };
}

/** The transactions (payments and refunds) of an invoice, newest first. */
export async function invoiceTransactions(ctx: ActorCtx, invoiceId: string) {
  const row = await findVisibleInvoice(ctx, invoiceId);
  const rows = await ctx.db
    .select({
      transaction: transactions,
      user_public_id: sql<string | null>`${users.public_id}`.as('user_public_id'),
      user_name: sql<string | null>`${users.first_name} || ' ' || ${users.last_name}`.as('user_name'),
    })
    .from(transactions)
    .leftJoin(users, eq(users.id, transactions.user_id))
    .where(eq(transactions.invoice_id, row.invoice.id))
    .orderBy(desc(transactions.created_at), desc(transactions.id));
  return rows.map((r) =>
    presentTransaction(
      r.transaction,
      row.invoice.public_id,
      r.user_public_id ? { public_id: r.user_public_id, name: r.user_name ?? '' } : null,
    ),
  );
}

/** What the bank-transfer page shows: the invoice, where to pay, and its pending transfer if started. */
export async function bankTransferView(ctx: ActorCtx, invoiceId: string) {
  const row = await findVisibleInvoice(ctx, invoiceId);
  const [pending] = await ctx.db
    .select()
    .from(transactions)
    .where(
      and(
        eq(transactions.invoice_id, row.invoice.id),
        eq(transactions.gateway, 'bank_transfer'),
        eq(transactions.gateway_status, 'awaiting'),
      ),
    )
    .limit(1);
  return {
    invoice: presentInvoice(row),
    bank_details: await bankDetailsOf(ctx.db, row.invoice.company_id),
    transaction: pending ? presentTransaction(pending, row.invoice.public_id) : null,
  };
}

/**
 * payment/barclaycard/pay-invoice/verify: a correctly signed answer is recorded whoever sends it (as the
 * card provider's own notification would be), but only those who may read its invoice see the result.
 */
export async function verifyCardResult(ctx: ActorCtx, raw: Record<string, string>): Promise<CardResult> {
  const result = await recordCardResult(ctx.db, ctx.env, raw, { source: 'api', now: ctx.now });
  await findVisibleInvoice(ctx, result.invoice.id);
  return result;
}
