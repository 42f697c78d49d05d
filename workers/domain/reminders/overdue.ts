/**
 * Overdue reminders: the accounting contact of each client with overdue invoices is emailed
 * on the company's schedule (`companies.overdue_reminder_days`, e.g. 1, 7 and 14 days after the due
 * date), once per step, one email per client per run listing its invoices, in the client's language.
 * Finance sends one on demand (`invoices/overdue-email`). Every reminder is logged on the invoice: an
 * `invoice_reminders` row and an activity-log row, in the same batch as the email's outbox row.
 *
 * - Overdue: an invoice (not a credit note, not void) with a balance whose due date has passed.
 * - Steps: an invoice's step today is the largest step it has reached (days overdue >= step). It is
 *   sent when no scheduled reminder of that step or a later one was sent: a task that missed some days
 *   sends the step reached, not every step it passed. The table's unique index (invoice, step) keeps a
 *   step to one reminder however often the task runs.
 * - Recipient: the client's accounting contact with an email, else its initial contact; a client with
 *   neither is skipped and the skip is logged on each invoice (once per step), so the first run after a
 *   contact is added still reminds them.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { clients, companies, contacts, invoiceReminders, invoices } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { inJson, runBatch, type DB, type Statement } from '../../platform/db';
import { loadLanguages, translate } from '../../platform/i18n';
import { logActivities } from '../audit/activity-log';
import { requirePermission } from '../access/actor';
import { visibleInvoices } from '../access/scope';
import type { ActorCtx, Ctx } from '../context';
import { Conflict, NotFound } from '../errors';
import { findVisibleInvoice } from '../invoices/queries';
import { daysOverdue } from '../invoices/status';
import { flushOutbox, queueMessage } from '../outbox/service';
import { britishDate } from '../formats';
import { msg, todayIso } from '../validation';

export const OVERDUE_TEMPLATE = 'overdue_reminder';
/** Sending a reminder on demand is finance work. */
export const OVERDUE_PERMISSION = 'update_invoice';
/** At most this many invoices are listed in one email. */
const MAX_LISTED = 100;

const balanceSql = sql<number>`(${invoices.total_minor} - ${invoices.paid_minor} + ${invoices.refunded_minor} - ${invoices.credited_minor})`;

/** Invoices that are overdue on `today`: a balance, past the due date, neither void nor a credit note. */
function overdueWhere(today: string) {
  return and(
    sql`${invoices.voided_at} IS NULL`,
    sql`${invoices.type} <> 'credit_note'`,
    sql`${balanceSql} > 0`,
    sql`${invoices.due_at} < ${today}`,
  );
}

interface OverdueInvoice {
  id: number;
  number: string;
  client_id: number;
  company_id: number;
  currency: string;
  due_at: string;
  balance: number;
  payment_reference: string;
}

const overdueColumns = {
  id: invoices.id,
  number: invoices.number,
  client_id: invoices.client_id,
  company_id: invoices.company_id,
  currency: invoices.currency,
  due_at: invoices.due_at,
  balance: balanceSql.as('balance'),
  payment_reference: invoices.payment_reference,
};

/** The step an invoice has reached on `today` under `steps` (days after the due date), or null. */
export function stepReached(steps: readonly number[], dueAt: string, today: string): number | null {
  const days = daysOverdue(dueAt, today);
  const reached = steps.filter((s) => s >= 1 && s <= days);
  return reached.length ? Math.max(...reached) : null;
}

/** The schedule as stored: whole days from 1 to 365, sorted, without repeats. */
export function cleanSteps(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.map(Number).filter((n) => Number.isInteger(n) && n >= 1 && n <= 365))].sort(
    (a, b) => a - b,
  );
}

/** The client's reminder recipient: its accounting contact with an email, else its initial contact. */
async function recipientOf(db: DB, clientId: number) {
  const rows = await db
    .select({ email: contacts.email, first_name: contacts.first_name, type: contacts.type })
    .from(contacts)
    .where(
      and(
        eq(contacts.owner_type, 'client'),
        eq(contacts.owner_id, clientId),
        inJson(contacts.type, ['accounting', 'initial']),
        sql`coalesce(${contacts.email}, '') <> ''`,
      ),
    )
    .orderBy(asc(contacts.position), asc(contacts.id));
  return rows.find((r) => r.type === 'accounting') ?? rows.find((r) => r.type === 'initial') ?? null;
}

const amount = (minor: number, currency: string) => `${currency} ${(minor / 100).toFixed(2)}`;

/** The email of one client's overdue invoices, in the client's language. */
function reminderEmail(
  env: Pick<Env, 'PUBLIC_URL' | 'PRODUCT_NAME'>,
  lang: string,
  today: string,
  client: { name: string },
  contact: { first_name: string },
  listed: OverdueInvoice[],
) {
  const t = (k: string, p?: Record<string, string | number>) => translate(lang, `overdue.email.${k}`, p);
  const lines = listed.slice(0, MAX_LISTED).map((i) =>
    t('line', {
      number: i.number,
      amount: amount(i.balance, i.currency),
      due: britishDate(i.due_at),
      count: daysOverdue(i.due_at, today),
      reference: i.payment_reference,
    }),
  );
  if (listed.length > MAX_LISTED) lines.push(t('more', { count: listed.length - MAX_LISTED }));
  const prefix = lang === 'en' ? '' : `/${lang}`;
  return {
    subject: t('subject', { count: listed.length, product: env.PRODUCT_NAME }),
    body_text: [
      t('greeting', { name: contact.first_name }),
      '',
      t('intro', { count: listed.length, client: client.name }),
      '',
      ...lines,
      '',
      t('pay', { link: `${env.PUBLIC_URL}${prefix}/invoices` }),
      '',
      t('paid_already'),
    ].join('\n'),
  };
}

/**
 * One client's reminder: the email, the reminder rows (which hold the outbox row) and the logs, in one
 * batch. Scheduled rows conflict on (invoice, step) and are then not written again.
 */
function reminderStatements(
  ctx: Pick<Ctx, 'db' | 'actor' | 'now'>,
  input: {
    kind: 'scheduled' | 'manual';
    recipient: string;
    email: { subject: string; body_text: string };
    invoices: (OverdueInvoice & { step: number })[];
  },
): Statement[] {
  const { db, now } = ctx;
  const stamp = now.getTime();
  const recipient = input.recipient.toLowerCase();
  const rows = JSON.stringify(input.invoices.map((i) => ({ id: i.id, step: i.step })));
  return [
    queueMessage(db, now, {
      channel: 'email',
      recipient,
      template: OVERDUE_TEMPLATE,
      subject: input.email.subject,
      body_text: input.email.body_text,
    }),
    db.run(sql`INSERT INTO invoice_reminders (invoice_id, kind, step_days, recipient, outbox_id, sent_by,
        created_at, updated_at)
      SELECT json_extract(value, '$.id'), ${input.kind}, json_extract(value, '$.step'), ${recipient},
        (SELECT max(id) FROM outbox WHERE template = ${OVERDUE_TEMPLATE} AND recipient = ${recipient}),
        ${ctx.actor?.user_id ?? null}, ${stamp}, ${stamp}
      FROM json_each(${rows}) WHERE true
      ON CONFLICT DO NOTHING`),
    ...logActivities(
      ctx,
      input.invoices.map((i) => ({
        entity_type: 'invoice',
        entity_id: i.id,
        action: 'overdue_reminder_sent',
        after: {
          kind: input.kind,
          step_days: i.step,
          recipient,
          days_overdue: daysOverdue(i.due_at, todayIso(now)),
        },
        company_id: i.company_id,
        client_id: i.client_id,
      })),
    ),
  ];
}

export interface OverdueRun {
  /** Emails written (one per client). */
  sent: number;
  /** Invoices listed in them. */
  invoices: number;
  /** Clients with overdue invoices but no accounting or initial contact email. */
  without_contact: number;
}

/** The daily task: each client's invoices that reached a step not yet sent, one email per client. */
export async function sendScheduledOverdueReminders(db: DB, env: Env, now: Date): Promise<OverdueRun> {
  const today = todayIso(now);
  const rows = await db
    .select({
      ...overdueColumns,
      steps: companies.overdue_reminder_days,
      last_step: sql<number | null>`(SELECT max(r.step_days) FROM invoice_reminders r
        WHERE r.invoice_id = ${invoices.id} AND r.kind = 'scheduled')`.as('last_step'),
    })
    .from(invoices)
    .innerJoin(companies, eq(companies.id, invoices.company_id))
    .where(overdueWhere(today))
    .orderBy(asc(invoices.client_id), asc(invoices.due_at), asc(invoices.id));
  const byClient = new Map<number, (OverdueInvoice & { step: number })[]>();
  for (const r of rows) {
    const step = stepReached(cleanSteps(r.steps), r.due_at, today);
    if (step === null || (r.last_step !== null && r.last_step >= step)) continue;
    const list = byClient.get(r.client_id) ?? [];
    list.push({ ...r, step });
    byClient.set(r.client_id, list);
  }
  const run: OverdueRun = { sent: 0, invoices: 0, without_contact: 0 };
  const ctx = { db, actor: null, now };
  for (const [clientId, due] of byClient) {
    const [client] = await db
      .select({ name: clients.name, lang: clients.preferred_lang })
      .from(clients)
      .where(eq(clients.id, clientId));
    const contact = await recipientOf(db, clientId);
    if (!client || !contact?.email) {
      run.without_contact += 1;
      await logSkipped(db, now, due);
      continue;
    }
    await loadLanguages([client.lang]);
    const email = reminderEmail(env, client.lang ?? 'en', today, client, contact, due);
    await runBatch(
      db,
      reminderStatements(ctx, { kind: 'scheduled', recipient: contact.email, email, invoices: due }),
    );
    run.sent += 1;
    run.invoices += due.length;
  }
  if (run.sent) await handOver(db, env, now);
  return run;
}

/** A skipped reminder (no contact) is logged on each invoice, once per step. */
async function logSkipped(db: DB, now: Date, due: (OverdueInvoice & { step: number })[]) {
  const ids = due.map((d) => d.id);
  const logged = await db.all<{ entity_id: number; step: number }>(sql`SELECT entity_id,
      json_extract(after, '$.step_days') AS step FROM activity_logs
    WHERE entity_type = 'invoice' AND action = 'overdue_reminder_skipped'
      AND ${inJson(sql`entity_id`, ids)}`);
  const done = new Set(logged.map((l) => `${l.entity_id}:${l.step}`));
  const fresh = due.filter((d) => !done.has(`${d.id}:${d.step}`));
  if (!fresh.length) return;
  await runBatch(
    db,
    logActivities(
      { db, actor: null, now },
      fresh.map((i) => ({
        entity_type: 'invoice',
        entity_id: i.id,
        action: 'overdue_reminder_skipped',
        after: { step_days: i.step, reason: 'no_contact' },
        company_id: i.company_id,
        client_id: i.client_id,
      })),
    ),
  );
}

async function handOver(db: DB, env: Env, now: Date) {
  try {
    await flushOutbox(db, env, now);
  } catch (e) {
    console.warn('Overdue reminders are left for the outbox cron: the queue refused them', e);
  }
}

/**
 * POST invoices/overdue-email: finance sends a reminder now for the given invoices (public ids) they
 * may see: the overdue ones, grouped by client, one email each. Not found (404) when an id names no
 * invoice they may see; refused when none of them is overdue or none of their clients has a contact.
 */
export async function sendOverdueEmails(ctx: ActorCtx, invoiceIds: string[]) {
  requirePermission(ctx.actor, OVERDUE_PERMISSION);
  // An id that names no invoice the actor may see is not found (404), not "not overdue".
  const known = await ctx.db
    .select({ id: invoices.public_id })
    .from(invoices)
    .where(and(inJson(invoices.public_id, invoiceIds), visibleInvoices(ctx.actor)));
  if (known.length < new Set(invoiceIds).size) throw new NotFound(msg('checkout.errors.invoice_not_found'));
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select(overdueColumns)
    .from(invoices)
    .where(and(inJson(invoices.public_id, invoiceIds), visibleInvoices(ctx.actor), overdueWhere(today)))
    .orderBy(asc(invoices.client_id), asc(invoices.due_at), asc(invoices.id));
  if (!rows.length) throw new Conflict(msg('overdue.errors.none_overdue'));
  const byClient = new Map<number, (OverdueInvoice & { step: number })[]>();
  for (const r of rows) byClient.set(r.client_id, [...(byClient.get(r.client_id) ?? []), { ...r, step: 0 }]);
  const result = { sent: 0, invoices: 0, without_contact: 0, recipients: [] as string[] };
  for (const [clientId, due] of byClient) {
    const [client] = await ctx.db
      .select({ name: clients.name, lang: clients.preferred_lang })
      .from(clients)
      .where(eq(clients.id, clientId));
    const contact = await recipientOf(ctx.db, clientId);
    if (!client || !contact?.email) {
      result.without_contact += 1;
      continue;
    }
    await loadLanguages([client.lang]);
    const email = reminderEmail(ctx.env, client.lang ?? 'en', today, client, contact, due);
    await runBatch(
      ctx.db,
      reminderStatements(ctx, { kind: 'manual', recipient: contact.email, email, invoices: due }),
    );
    result.sent += 1;
    result.invoices += due.length;
    result.recipients.push(contact.email.toLowerCase());
  }
  if (!result.sent) throw new Conflict(msg('overdue.errors.no_contact'));
  await handOver(ctx.db, ctx.env, ctx.now);
  return result;
}

/** POST invoices/overdue-email: the invoices (public ids) to remind about. */
export const overdueEmailSchema = z.object({
  invoice_ids: z
    .array(z.string().trim().min(1).max(40), { required_error: msg('overdue.errors.invoice_ids') })
    .min(1, msg('overdue.errors.invoice_ids'))
    .max(500, msg('overdue.errors.invoice_ids')),
});

/** The reminders sent for an invoice the actor may see, newest first (for the invoice page). */
export async function remindersOfInvoice(ctx: ActorCtx, invoiceId: string) {
  const row = await findVisibleInvoice(ctx, invoiceId);
  const rows = await ctx.db
    .select()
    .from(invoiceReminders)
    .where(eq(invoiceReminders.invoice_id, row.invoice.id))
    .orderBy(sql`${invoiceReminders.created_at} DESC`, sql`${invoiceReminders.id} DESC`);
  return rows.map((r) => ({
    kind: r.kind,
    step_days: r.step_days,
    recipient: r.recipient,
    sent_at: r.created_at.toISOString(),
  }));
}

/**
 * The page's "Send overdue reminder": the same as sendOverdueEmails, answering a refusal (nothing
 * overdue, no contact) as its message instead of throwing, so the page can go back and say it.
 */
export async function sendOverdueEmailFromPage(
  ctx: ActorCtx,
  invoiceId: string,
): Promise<{ toast: string; ok: boolean }> {
  requirePermission(ctx.actor, OVERDUE_PERMISSION);
  const row = await findVisibleInvoice(ctx, invoiceId);
  try {
    const r = await sendOverdueEmails(ctx, [row.invoice.public_id]);
    return { ok: true, toast: msg('overdue.toasts.sent', { recipients: r.recipients.join(', ') }) };
  } catch (e) {
    if (e instanceof Conflict) return { ok: false, toast: e.message };
    throw e;
  }
}
