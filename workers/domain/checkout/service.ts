/**
 * Checkout (spec 002 s.7: POST policy-batches/confirm-open; spec 001 s.4 Cart): every open policy batch
 * in the actor's cart is confirmed together; its enrollments become policies with policy numbers, and an
 * invoice is issued per client and currency. Decisions in docs/decisions/checkout-and-payments.md, "Checkout".
 *
 * Whose cart: the open batches the user put in it (as the cart page shows them), on campuses they may still
 * see; a staff user ordering on behalf of clients may narrow it to one client (`client_id`); without it
 * every client of the cart is invoiced (one invoice each).
 *
 * All or nothing, once: the whole checkout is ONE D1 batch (one transaction) of set-based statements, a
 * dozen or so whatever the number of applicants. Its first statement for each invoice is guarded: the
 * invoice number is NULL (which the table refuses, rolling everything back) unless every batch of the
 * checkout is still open, has exactly the applicants priced, and none of them has errors. D1 runs batches
 * one after another, so of two checkouts of the same cart (two clicks, two tabs) the second always sees
 * the first's result: with the same checkout key it answers the same invoice(s) (the unique
 * `invoices.checkout_key`), with another key it is refused with a clear message.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  campuses,
  clients,
  contracts,
  countries,
  enrollments,
  policyBatches,
  products,
} from '../../../drizzle/schema';
import { randomToken } from '../../platform/crypto';
import { inJson, runBatch, type Statement } from '../../platform/db';
import { loadLanguages } from '../../platform/i18n';
import { logActivityFrom } from '../audit/activity-log';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { batchRules } from '../enrollments/batches';
import { feeForDays } from '../enrollments/fees';
import { cartScope } from '../enrollments/cart';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { billingAddressSnapshot } from '../invoices/billing-address';
import { findVisibleInvoice, invoicesOfCheckout, presentInvoice } from '../invoices/queries';
import { invoiceLinesStatements, invoicedOn, isPeriodic } from '../invoices/periodic';
import { settleInvoices } from '../invoices/settle';
import { issuePolicyStatements, TRIP_DAYS_SQL, type FeeRow } from '../policies/issue';
import { msg, todayIso } from '../validation';
import type { ConfirmOpenInput } from './schema';
import { dueDate, paymentChoices, type PaymentChoice, type PaymentTerms } from './terms';
import { enqueueWelcomeEmails, welcomeStatements } from './welcome';
import { orderConfirmed } from '../notifications/events';
import { invoicesWhere, policiesWhere, webhookEvents } from '../webhooks/emit';

/** Who may check out: issuing policies. */
export const CHECKOUT_PERMISSION = 'create_policy';
export const INVOICE_SERIES = 'invoice';
export const INVOICE_NUMBER_DIGITS = 7;

/** One open batch of the cart with what checkout needs to know about it. */
export interface CheckoutBatch {
  id: number;
  public_id: string;
  company_id: number;
  client_id: number;
  client_public_id: string;
  client_name: string;
  client_lang: string;
  payment_terms: PaymentTerms;
  payment_method: string;
  campus_id: number;
  campus_public_id: string;
  campus_name: string;
  /** The campus's country (ISO alpha-2): its tax is named by it (IPT, levy, tax). */
  country_code: string | null;
  pay_with_bank_transfer: boolean;
  contract_id: number;
  contract_name: string;
  product_name: string;
  currency: string;
  send_welcome_email: boolean;
  count: number;
  with_errors: number;
  premium_minor: number;
  tax_minor: number;
  stamp_duty_minor: number;
  total_minor: number;
  fees: FeeRow[];
}

/** The batches of one future invoice: one client, one currency. */
export interface CartGroup {
  key: string;
  client: { id: number; public_id: string; name: string; lang: string };
  company_id: number;
  currency: string;
  payment_terms: PaymentTerms;
  choices: PaymentChoice[];
  batches: CheckoutBatch[];
  count: number;
  premium_minor: number;
  tax_minor: number;
  stamp_duty_minor: number;
  total_minor: number;
}

export interface CheckoutPlan {
  groups: CartGroup[];
  /** Every client with open batches in view (a staff user picks one). */
  clients: { public_id: string; name: string }[];
  /** The payment choices every invoice of this checkout allows (with one client: its choices). */
  choices: PaymentChoice[];
  count: number;
  with_errors: number;
}

/** The actor's cart (cartScope), or the part of it ordered for one client. */
function openBatchScope(ctx: ActorCtx, clientPublicId?: string): SQL {
  return and(cartScope(ctx), clientPublicId ? eq(clients.public_id, clientPublicId) : undefined)!;
}

/**
 * The cart as checkout sees it: the open batches in scope grouped per client and currency, with the
 * applicants counted (and those with errors), and the fees recomputed with today's prices and tax.
 * Batches without applicants are left out (they stay in the cart until cleared).
 */
export async function planCheckout(ctx: ActorCtx, opts: { client_id?: string } = {}): Promise<CheckoutPlan> {
  requirePermission(ctx.actor, CHECKOUT_PERMISSION);
  const scope = openBatchScope(ctx, opts.client_id);
  const days = TRIP_DAYS_SQL('enrollments');
  const [rows, stats, allClients] = await ctx.db.batch([
    ctx.db
      .select({
        batch: policyBatches,
        client_public_id: sql<string>`${clients.public_id}`.as('client_public_id'),
        client_name: sql<string>`${clients.name}`.as('client_name'),
        client_lang: sql<string>`${clients.preferred_lang}`.as('client_lang'),
        payment_terms: sql<PaymentTerms>`${clients.payment_terms}`.as('payment_terms'),
        payment_method: sql<string>`${clients.payment_method}`.as('client_payment_method'),
        campus_public_id: sql<string>`${campuses.public_id}`.as('campus_public_id'),
        campus_name: sql<string>`${campuses.name}`.as('campus_name'),
        country_code: sql<string | null>`${countries.abbreviation}`.as('country_code'),
        pay_with_bank_transfer: sql<number>`${campuses.pay_with_bank_transfer}`.as('pay_with_bank_transfer'),
        contract_name: sql<string>`${contracts.name}`.as('contract_name'),
        currency: sql<string>`${contracts.currency}`.as('contract_currency'),
        product_name: sql<string>`${products.name}`.as('product_name'),
      })
      .from(policyBatches)
      .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
      .leftJoin(countries, eq(countries.id, campuses.country_id))
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .innerJoin(contracts, eq(contracts.id, policyBatches.contract_id))
      .innerJoin(products, eq(products.id, contracts.product_id))
      .where(scope)
      .orderBy(clients.name, campuses.name, policyBatches.id),
    ctx.db
      .select({
        batch_id: enrollments.batch_id,
        days: sql<number | null>`${days}`.as('days'),
        n: sql<number>`count(*)`.as('n'),
        with_errors: sql<number>`sum(CASE WHEN ${enrollments.error_count} > 0 THEN 1 ELSE 0 END)`.as(
          'with_errors',
        ),
      })
      .from(enrollments)
      .innerJoin(policyBatches, eq(policyBatches.id, enrollments.batch_id))
      .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(scope)
      .groupBy(enrollments.batch_id, days),
    ctx.db
      .selectDistinct({ public_id: clients.public_id, name: clients.name })
      .from(policyBatches)
      .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
      .innerJoin(clients, eq(clients.id, campuses.client_id))
      .where(openBatchScope(ctx))
      .orderBy(clients.name),
  ]);

  const byBatch = new Map<number, { days: number | null; n: number; with_errors: number }[]>();
  for (const s of stats) {
    const list = byBatch.get(s.batch_id) ?? [];
    list.push({
      days: s.days == null ? null : Number(s.days),
      n: Number(s.n),
      with_errors: Number(s.with_errors),
    });
    byBatch.set(s.batch_id, list);
  }

  const groups = new Map<string, CartGroup>();
  const rulesByContract = new Map<number, ReturnType<typeof batchRules>>();
  let count = 0;
  let withErrors = 0;
  for (const r of rows) {
    const lines = byBatch.get(r.batch.id) ?? [];
    const n = lines.reduce((t, l) => t + l.n, 0);
    if (!n) continue;
    const errors = lines.reduce((t, l) => t + l.with_errors, 0);
    // Batches of one contract share its prices: read them once.
    let rules = rulesByContract.get(r.batch.contract_id);
    if (!rules) rulesByContract.set(r.batch.contract_id, (rules = batchRules(ctx, r.batch)));
    const { pricing } = await rules;
    const fees: FeeRow[] = [];
    let premium = 0;
    let tax = 0;
    let stamp = 0;
    for (const l of lines) {
      if (l.days == null || l.days < 1 || l.with_errors === l.n) continue;
      const fee = feeForDays(l.days, pricing);
      fees.push({
        batch_id: r.batch.id,
        days: l.days,
        premium_minor: fee.premium_minor,
        net_minor: fee.net_minor,
        tax_minor: fee.tax_minor,
        tax_rate_bp: fee.tax_rate_bp,
        stamp_duty_minor: fee.stamp_duty_minor,
      });
      const valid = l.n - l.with_errors;
      premium += fee.premium_minor * valid;
      tax += fee.tax_minor * valid;
      stamp += fee.stamp_duty_minor * valid;
    }
    const batch: CheckoutBatch = {
      id: r.batch.id,
      public_id: r.batch.public_id,
      company_id: r.batch.company_id,
      client_id: r.batch.client_id,
      client_public_id: r.client_public_id,
      client_name: r.client_name,
      client_lang: r.client_lang,
      payment_terms: r.payment_terms,
      payment_method: r.payment_method,
      campus_id: r.batch.campus_id,
      campus_public_id: r.campus_public_id,
      campus_name: r.campus_name,
      country_code: r.country_code,
      pay_with_bank_transfer: !!Number(r.pay_with_bank_transfer),
      contract_id: r.batch.contract_id,
      contract_name: r.contract_name,
      product_name: r.product_name,
      currency: pricing.currency || r.currency,
      send_welcome_email: r.batch.send_welcome_email,
      count: n,
      with_errors: errors,
      premium_minor: premium,
      tax_minor: tax,
      stamp_duty_minor: stamp,
      total_minor: premium + tax + stamp,
      fees,
    };
    count += n;
    withErrors += errors;
    const key = `${batch.client_id}:${batch.currency}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        client: {
          id: batch.client_id,
          public_id: batch.client_public_id,
          name: batch.client_name,
          lang: batch.client_lang,
        },
        company_id: batch.company_id,
        currency: batch.currency,
        payment_terms: batch.payment_terms,
        choices: [],
        batches: [],
        count: 0,
        premium_minor: 0,
        tax_minor: 0,
        stamp_duty_minor: 0,
        total_minor: 0,
      };
      groups.set(key, group);
    }
    group.batches.push(batch);
    group.count += n;
    group.premium_minor += premium;
    group.tax_minor += tax;
    group.stamp_duty_minor += stamp;
    group.total_minor += premium + tax + stamp;
  }
  for (const g of groups.values())
    g.choices = paymentChoices(
      { payment_terms: g.payment_terms, payment_method: g.batches[0].payment_method },
      g.batches.some((b) => b.pay_with_bank_transfer),
    );
  const planned = [...groups.values()];
  const choices = planned.length
    ? planned.reduce((all, g) => all.filter((c) => g.choices.includes(c)), planned[0].choices)
    : [];
  return { groups: planned, clients: allClients, choices, count, with_errors: withErrors };
}

/** The answer of confirm-open: the invoice, or (when the checkout made several) the policy batches. */
export type CheckoutResult =
  | { invoice: ReturnType<typeof presentInvoice> }
  | {
      policy_batches: {
        id: string;
        status: string;
        campus: { id: string; name: string };
        invoice: { id: string; number: string } | null;
      }[];
      invoices: ReturnType<typeof presentInvoice>[];
      /** Batches issued on account (periodic terms): in policy_batches with no invoice, and here. */
      on_account?: OnAccountBatch[];
    };

/** A batch issued on account (periodic terms): its policies are invoiced when their period ends. */
export interface OnAccountBatch {
  id: string;
  campus: { id: string; name: string };
  client: { id: string; name: string };
  policies: number;
  payment_terms: PaymentTerms;
  /** The day the periodic invoicing will invoice them (the day after their period ends). */
  invoiced_on: string | null;
}

/**
 * The batches a checkout key issued on account, found by the key in their confirmation's log entry (by
 * this user, in the last day: a checkout key lives as long as the page that rendered it).
 */
async function onAccountOf(ctx: ActorCtx, key: string): Promise<OnAccountBatch[]> {
  const rows = await ctx.db.all<{
    id: string;
    campus_id: string;
    campus_name: string;
    client_id: string;
    client_name: string;
    payment_terms: PaymentTerms;
    confirmed_on: string;
    n: number;
  }>(sql`SELECT b.public_id AS id, c.public_id AS campus_id, c.name AS campus_name, cl.public_id AS client_id,
      cl.name AS client_name, cl.payment_terms,
      json_extract(a.after, '$.booking_date') AS confirmed_on,
      (SELECT count(*) FROM policies WHERE batch_id = b.id) AS n
    FROM activity_logs a
      JOIN policy_batches b ON b.id = a.entity_id
      JOIN campuses c ON c.id = b.campus_id
      JOIN clients cl ON cl.id = b.client_id
    WHERE coalesce(a.on_behalf_of_user_id, a.actor_user_id) = ${ctx.actor.user_id} AND a.created_at >= ${ctx.now.getTime() - 86_400_000}
      AND a.entity_type = 'policy_batch' AND a.action = 'confirmed'
      AND json_extract(a.after, '$.checkout_key') = ${key}
    ORDER BY b.id`);
  return rows.map((r) => ({
    id: r.id,
    campus: { id: r.campus_id, name: r.campus_name },
    client: { id: r.client_id, name: r.client_name },
    policies: Number(r.n),
    payment_terms: r.payment_terms,
    invoiced_on: isPeriodic(r.payment_terms) ? invoicedOn(r.payment_terms, r.confirmed_on) : null,
  }));
}

/** What a checkout key made, in the actor's view: its invoices (one per client and currency) and batches on account. */
async function resultOf(ctx: ActorCtx, key: string): Promise<CheckoutResult | null> {
  const [rows, onAccount] = await Promise.all([invoicesOfCheckout(ctx, key), onAccountOf(ctx, key)]);
  const accountBatches = onAccount.map((b) => ({
    id: b.id,
    status: 'confirmed' as const,
    campus: b.campus,
    invoice: null,
  }));
  if (!rows.length)
    return onAccount.length ? { policy_batches: accountBatches, invoices: [], on_account: onAccount } : null;
  const views = rows.map(presentInvoice);
  if (views.length === 1 && !onAccount.length) return { invoice: views[0] };
  const batches = await ctx.db
    .select({
      id: policyBatches.public_id,
      status: policyBatches.status,
      campus_id: campuses.public_id,
      campus_name: campuses.name,
      invoice_id: policyBatches.invoice_id,
    })
    .from(policyBatches)
    .innerJoin(campuses, eq(campuses.id, policyBatches.campus_id))
    .where(
      inJson(
        policyBatches.invoice_id,
        rows.map((r) => r.invoice.id),
      ),
    )
    .orderBy(policyBatches.id);
  const byId = new Map(rows.map((r) => [r.invoice.id, r.invoice]));
  return {
    policy_batches: batches
      .map((b) => {
        const invoice = b.invoice_id ? byId.get(b.invoice_id) : undefined;
        return {
          id: b.id,
          status: b.status,
          campus: { id: b.campus_id, name: b.campus_name },
          invoice: invoice ? { id: invoice.public_id, number: invoice.number } : null,
        };
      })
      .concat(accountBatches),
    invoices: views,
    ...(onAccount.length ? { on_account: onAccount } : {}),
  };
}

/** The result of a checkout key again (the page after an on-account checkout shows it). */
export async function checkoutResult(ctx: ActorCtx, key: string): Promise<CheckoutResult | null> {
  requirePermission(ctx.actor, CHECKOUT_PERMISSION);
  return resultOf(ctx, key);
}

/** Random characters for the payment reference (no 0/O, 1/I/L: it is read aloud and typed). */
function referenceSuffix(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

/**
 * Confirms all open batches of the actor's cart together: issues a policy per enrollment, one invoice per
 * client and currency, marks the batches confirmed with their invoice, and (when chosen) writes the
 * welcome emails. Idempotent per checkout key. Refused while any applicant has errors.
 */
export async function confirmOpenBatches(ctx: ActorCtx, input: ConfirmOpenInput): Promise<CheckoutResult> {
  requirePermission(ctx.actor, CHECKOUT_PERMISSION);
  const key = input.checkout_key;
  const replay = await resultOf(ctx, key);
  if (replay) return replay;

  const plan = await planCheckout(ctx, { client_id: input.client_id });
  if (!plan.groups.length) {
    if (input.client_id && !plan.clients.length) throw new NotFound(msg('checkout.errors.client_not_found'));
    throw ValidationFailed.field('checkout', msg('checkout.errors.empty'));
  }
  if (plan.with_errors)
    throw ValidationFailed.field('checkout', msg('checkout.errors.has_errors', { count: plan.with_errors }));
  if (input.payment_method)
    for (const g of plan.groups)
      if (!g.choices.includes(input.payment_method))
        throw ValidationFailed.field('payment_method', msg('checkout.errors.payment_method'));

  const today = todayIso(ctx.now);
  const now = ctx.now.getTime();
  const allIds = plan.groups.flatMap((g) => g.batches.map((b) => b.id));
  const statements: Statement[] = [
    ctx.db.run(
      sql`INSERT OR IGNORE INTO sequences (name, value) VALUES ('policy', 0), (${INVOICE_SERIES}, 0)`,
    ),
  ];
  // The welcome emails are written in each client's language.
  await loadLanguages(plan.groups.map((g) => g.client.lang));
  const told = await Promise.all(
    plan.groups.map((g, index) => {
      const campusIds = [...new Set(g.batches.map((b) => b.campus_id))];
      const onAccount =
        isPeriodic(g.payment_terms) && (input.payment_method ?? g.choices[0]) === 'invoiced_directly';
      return orderConfirmed(ctx, {
        company_id: g.company_id,
        client_id: g.client.id,
        campus_id: campusIds.length === 1 ? campusIds[0] : null,
        client_name: g.client.name,
        ordered_by: ctx.actor.user_id,
        policies: g.count,
        invoice_key: onAccount ? null : `${key}:${index + 1}`,
      });
    }),
  );
  plan.groups.forEach((g, index) => {
    const invoiceKey = `${key}:${index + 1}`;
    const ids = g.batches.map((b) => b.id);
    const method = input.payment_method ?? g.choices[0];
    const campusIds = [...new Set(g.batches.map((b) => b.campus_id))];
    const welcome = g.batches
      .filter((b) => input.send_welcome_email || b.send_welcome_email)
      .map((b) => b.id);
    // Checked inside the transaction, just before this group's batches change.
    const guard = sql`(SELECT count(*) FROM policy_batches WHERE ${inJson(sql`id`, ids)} AND status = 'open') = ${ids.length}
      AND NOT EXISTS (SELECT 1 FROM enrollments WHERE ${inJson(sql`batch_id`, ids)} AND error_count > 0)
      AND (SELECT count(*) FROM enrollments WHERE ${inJson(sql`batch_id`, ids)}) = ${g.count}`;
    if (isPeriodic(g.payment_terms) && method === 'invoiced_directly') {
      // On account: the policies now, the invoice when their period ends (invoices/periodic.ts).
      statements.push(
        ...issuePolicyStatements(ctx.db, {
          batchIds: ids,
          invoiceKey: null,
          currency: g.currency,
          fees: g.batches.flatMap((b) => b.fees),
          bookingDate: today,
          now: ctx.now,
          userId: ctx.actor.user_id,
          guard,
        }),
        webhookEvents(ctx, 'policy.issued', policiesWhere(inJson(sql`p.batch_id`, ids))),
        ctx.db
          .run(sql`UPDATE policy_batches SET status = 'confirmed', confirmed_at = ${now}, updated_at = ${now},
            invoice_id = NULL,
            send_welcome_email = CASE WHEN ${inJson(sql`id`, welcome)} THEN 1 ELSE 0 END
          WHERE ${inJson(sql`id`, ids)} AND status = 'open'`),
        logActivityFrom(
          ctx,
          { entity_type: 'policy_batch', action: 'confirmed' },
          sql`SELECT b.id AS entity_id, json_object('status', 'open') AS before,
            json_object('status', 'confirmed', 'invoice', NULL, 'on_account', json('true'),
              'payment_terms', ${g.payment_terms}, 'booking_date', ${today}, 'checkout_key', ${key},
              'policies', (SELECT count(*) FROM policies WHERE batch_id = b.id)) AS after, b.company_id, b.client_id
          FROM policy_batches b WHERE ${inJson(sql`b.id`, ids)}`,
        ),
      );
      if (welcome.length)
        statements.push(
          ...welcomeStatements(ctx.db, {
            where: inJson(sql`p.batch_id`, welcome),
            lang: g.client.lang,
            productName: ctx.env.PRODUCT_NAME,
            now: ctx.now,
          }),
        );
      statements.push(...told[index]);
      return;
    }
    statements.push(
      ctx.db.run(sql`WITH num AS (
          SELECT 'INV' || printf('%0${sql.raw(String(INVOICE_NUMBER_DIGITS))}d', value + 1) AS n
          FROM sequences WHERE name = ${INVOICE_SERIES}
        )
        INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status, payment_method,
          currency, date, due_at, insurance_cost_minor, tax_minor, admin_fee_minor, total_minor, paid_minor,
          payment_reference, created_by, checkout_key, billing_address, created_at, updated_at)
        SELECT lower(hex(randomblob(8))), CASE WHEN ${guard} THEN num.n END, ${g.company_id}, ${g.client.id},
          ${campusIds.length === 1 ? campusIds[0] : null}, 'unpaid', ${method}, ${g.currency}, ${today},
          ${dueDate(g.payment_terms, today)}, 0, 0, 0, 0, 0, num.n || '-' || ${referenceSuffix()},
          ${ctx.actor.user_id}, ${invoiceKey},
          ${billingAddressSnapshot('client', g.client.id, sql`(SELECT name FROM clients WHERE id = ${g.client.id})`)},
          ${now}, ${now}
        FROM num`),
      ctx.db.run(sql`UPDATE sequences SET value = value + 1 WHERE name = ${INVOICE_SERIES}`),
      ...issuePolicyStatements(ctx.db, {
        batchIds: ids,
        invoiceKey,
        currency: g.currency,
        fees: g.batches.flatMap((b) => b.fees),
        bookingDate: today,
        now: ctx.now,
        userId: ctx.actor.user_id,
      }),
      ...invoiceLinesStatements(ctx.db, sql`(SELECT id FROM invoices WHERE checkout_key = ${invoiceKey})`),
      webhookEvents(ctx, 'policy.issued', policiesWhere(inJson(sql`p.batch_id`, ids))),
      // An order that costs nothing is paid.
      settleInvoices(ctx.db, sql`x.checkout_key = ${invoiceKey}`, ctx.now),
      webhookEvents(ctx, 'invoice.issued', invoicesWhere(sql`checkout_key = ${invoiceKey}`)),
      ctx.db
        .run(sql`UPDATE policy_batches SET status = 'confirmed', confirmed_at = ${now}, updated_at = ${now},
          invoice_id = (SELECT id FROM invoices WHERE checkout_key = ${invoiceKey}),
          send_welcome_email = CASE WHEN ${inJson(sql`id`, welcome)} THEN 1 ELSE 0 END
        WHERE ${inJson(sql`id`, ids)} AND status = 'open'`),
      logActivityFrom(
        ctx,
        { entity_type: 'invoice', action: 'issued' },
        sql`SELECT id AS entity_id, NULL AS before,
          json_object('number', number, 'total_minor', total_minor, 'currency', currency,
            'payment_method', payment_method, 'due_at', due_at) AS after, company_id, client_id
        FROM invoices WHERE checkout_key = ${invoiceKey}`,
      ),
      logActivityFrom(
        ctx,
        { entity_type: 'policy_batch', action: 'confirmed' },
        sql`SELECT b.id AS entity_id, json_object('status', 'open') AS before,
          json_object('status', 'confirmed', 'invoice', i.number,
            'policies', (SELECT count(*) FROM policies WHERE batch_id = b.id)) AS after, b.company_id, b.client_id
        FROM policy_batches b JOIN invoices i ON i.id = b.invoice_id
        WHERE ${inJson(sql`b.id`, ids)}`,
      ),
    );
    if (welcome.length)
      statements.push(
        ...welcomeStatements(ctx.db, {
          where: inJson(sql`p.batch_id`, welcome),
          lang: g.client.lang,
          productName: ctx.env.PRODUCT_NAME,
          now: ctx.now,
        }),
      );
    // After the invoice: the notification names its number.
    statements.push(...told[index]);
  });

  try {
    await runBatch(ctx.db, statements);
  } catch (e) {
    // Another request got there first: the same checkout (answer its invoice) or another one.
    const again = await resultOf(ctx, key);
    if (again) return again;
    const [stillOpen] = await ctx.db
      .select({ n: sql<number>`count(*)` })
      .from(policyBatches)
      .where(and(inJson(policyBatches.id, allIds), eq(policyBatches.status, 'open')));
    if (Number(stillOpen?.n ?? 0) !== allIds.length)
      throw new Conflict(msg('checkout.errors.already_confirmed'));
    console.error('Checkout failed', e);
    throw new Conflict(msg('checkout.errors.changed'));
  }
  if (plan.groups.some((g) => g.batches.some((b) => input.send_welcome_email || b.send_welcome_email)))
    await enqueueWelcomeEmails(ctx.db, ctx.env, ctx.now);
  return (await resultOf(ctx, key))!;
}

/** A new checkout key, for the checkout page to embed when it renders. */
export function newCheckoutKey(): string {
  return randomToken();
}

/** The invoice of a checkout page (the payment step after confirming), in the actor's view. */
export async function checkoutInvoice(ctx: ActorCtx, invoiceId: string) {
  return presentInvoice(await findVisibleInvoice(ctx, invoiceId));
}
