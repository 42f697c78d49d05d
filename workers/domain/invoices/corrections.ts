/**
 * Correcting an issued invoice ("Issued invoices are never edited: a mistake is corrected by a
 * credit note (its own number series) or, before any payment, by voiding"):
 *
 * - Void (update_invoice): an invoice or supplementary invoice with no payment (succeeded or started)
 *   and no credit note against it, with a reason. It keeps its number; its status becomes `void` and it
 *   owes nothing. One batch: the guarded update, settleInvoice, the activity log (before and after).
 *   Voided twice (two tabs): the second finds it void and is refused.
 * - Credit note (create_invoice): for the whole invoice (every line not yet credited) or the chosen
 *   lines, each line credited in full at the tax rate and stamp duty it was issued with. Its number comes
 *   from the CN series in the same batch (no gaps); it names the invoice (credit_for_id) and both are
 *   settled. A line is credited once: the number is NULL (refused by the table, the whole batch rolled
 *   back) when any chosen line has been credited meanwhile, so a double submission issues one note.
 */
import { and, eq, sql } from 'drizzle-orm';
import { invoices } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, ValidationFailed } from '../errors';
import { CREDIT_NOTE_SERIES } from '../policies/amendments/confirm';
import { msg, todayIso } from '../validation';
import { creditedItemIds, hasPayments } from './detail';
import { findVisibleInvoice, type InvoiceRow } from './queries';
import type { CreditNoteInput, VoidInvoiceInput } from './schema';
import { settleInvoice } from './settle';

const money = (i: InvoiceRow) => ({
  status: i.status,
  total_minor: i.total_minor,
  paid_minor: i.paid_minor,
  refunded_minor: i.refunded_minor,
  credited_minor: i.credited_minor,
  voided_at: i.voided_at ? new Date(i.voided_at).toISOString() : null,
  void_reason: i.void_reason,
});

async function reload(ctx: ActorCtx, id: number): Promise<InvoiceRow> {
  const [row] = await ctx.db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/** POST invoices/{id}/void. */
export async function voidInvoice(ctx: ActorCtx, id: string, input: VoidInvoiceInput) {
  requirePermission(ctx.actor, 'update_invoice');
  const row = await findVisibleInvoice(ctx, id);
  const i = row.invoice;
  if (i.type === 'credit_note') throw new Conflict(msg('invoices.errors.void_credit_note'));
  if (i.voided_at) throw new Conflict(msg('invoices.errors.already_void'));
  if (await hasPayments(ctx, i.id)) throw new Conflict(msg('invoices.errors.void_paid'));
  if (i.credited_minor > 0) throw new Conflict(msg('invoices.errors.void_credited'));
  const ts = ctx.now.getTime();
  const after = {
    ...money(i),
    status: 'void' as const,
    voided_at: ctx.now.toISOString(),
    void_reason: input.reason,
  };
  await runBatch(ctx.db, [
    ctx.db.run(sql`UPDATE invoices SET voided_at = ${ts}, voided_by = ${ctx.actor.user_id},
        void_reason = ${input.reason}, updated_at = ${ts}
      WHERE id = ${i.id} AND voided_at IS NULL AND credited_minor = 0 AND NOT EXISTS (
        SELECT 1 FROM transactions t WHERE t.invoice_id = ${i.id} AND t.kind = 'payment'
          AND t.status IN ('succeeded', 'pending'))`),
    settleInvoice(ctx.db, i.id, ctx.now),
    logActivity(ctx, {
      entity_type: 'invoice',
      entity_id: i.id,
      action: 'void',
      before: money(i),
      after,
      company_id: i.company_id,
      client_id: i.client_id,
    }),
  ]);
  const fresh = await reload(ctx, i.id);
  if (!fresh.voided_at || fresh.voided_by !== ctx.actor.user_id || fresh.voided_at.getTime() !== ts)
    throw new Conflict(msg('invoices.errors.void_paid'));
  return { id: fresh.public_id, number: fresh.number, status: fresh.status, void_reason: fresh.void_reason };
}

/** POST invoices/{id}/credit-note: the note's public id and number. */
export async function issueCreditNote(ctx: ActorCtx, id: string, input: CreditNoteInput) {
  requirePermission(ctx.actor, 'create_invoice');
  const row = await findVisibleInvoice(ctx, id);
  const i = row.invoice;
  if (i.type === 'credit_note') throw new Conflict(msg('invoices.errors.credit_credit_note'));
  if (i.voided_at) throw new Conflict(msg('invoices.errors.credit_void'));
  const items = await ctx.db.all<{
    id: number;
    unit_minor: number;
    quantity: number;
    tax_minor: number;
    stamp_duty_minor: number;
    total_minor: number;
  }>(sql`SELECT id, unit_minor, quantity, tax_minor, stamp_duty_minor, total_minor
    FROM invoice_items WHERE invoice_id = ${i.id} ORDER BY id`);
  const done = new Set(await creditedItemIds(ctx, i.id));
  const known = new Set(items.map((x) => Number(x.id)));
  if (input.items.some((x) => !known.has(x)))
    throw ValidationFailed.field('items', msg('invoices.errors.unknown_line'));
  if (input.items.some((x) => done.has(x)))
    throw ValidationFailed.field('items', msg('invoices.errors.line_credited'));
  const chosen = input.items.length
    ? items.filter((x) => input.items.includes(Number(x.id)))
    : items.filter((x) => !done.has(Number(x.id)));
  if (!chosen.length) throw ValidationFailed.field('items', msg('invoices.errors.nothing_to_credit'));
  const sum = (f: (x: (typeof chosen)[number]) => number) => chosen.reduce((a, x) => a + Number(f(x)), 0);
  const premium = sum((x) => x.unit_minor * x.quantity);
  const tax = sum((x) => x.tax_minor);
  const stamp = sum((x) => x.stamp_duty_minor);
  const total = sum((x) => x.total_minor);
  const ids = chosen.map((x) => Number(x.id));
  const pid = publicId();
  const today = todayIso(ctx.now);
  const ts = ctx.now.getTime();
  // NULL (refused: NOT NULL) unless none of the chosen lines is credited by a standing note.
  const guard = sql`NOT EXISTS (SELECT 1 FROM invoice_items ci JOIN invoices c ON c.id = ci.invoice_id
      WHERE c.credit_for_id = ${i.id} AND c.type = 'credit_note' AND c.voided_at IS NULL
        AND ${inJson(sql`ci.credits_item_id`, ids)})
    AND (SELECT voided_at FROM invoices WHERE id = ${i.id}) IS NULL`;
  const noteId = idByPublicId(invoices, pid);
  // The logs name both documents by their numbers, the note's as the batch draws it.
  const noteNumber = sql`SELECT number FROM invoices WHERE public_id = ${pid}`;
  try {
    await runBatch(ctx.db, [
      ctx.db.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES (${CREDIT_NOTE_SERIES}, 0)`),
      ctx.db.run(sql`UPDATE sequences SET value = value + 1 WHERE name = ${CREDIT_NOTE_SERIES}`),
      ctx.db.run(sql`INSERT INTO invoices (public_id, number, company_id, client_id, campus_id, status,
          payment_method, currency, date, due_at, paid_at, insurance_cost_minor, tax_minor, admin_fee_minor,
          total_minor, paid_minor, type, payment_reference, created_by, stamp_duty_minor, credit_for_id,
          billing_address, void_reason, group_name, created_at, updated_at)
        SELECT ${pid}, CASE WHEN ${guard} THEN 'CN' || printf('%07d', s.value) END, i.company_id, i.client_id,
          i.campus_id, 'issued', i.payment_method, i.currency, ${today}, ${today}, NULL, ${premium}, ${tax}, 0,
          ${total}, 0, 'credit_note', 'CN' || printf('%07d', s.value) || '-' || upper(hex(randomblob(2))),
          ${ctx.actor.user_id}, ${stamp}, i.id, i.billing_address, NULL, i.group_name, ${ts}, ${ts}
        FROM invoices i CROSS JOIN sequences s WHERE i.id = ${i.id} AND s.name = ${CREDIT_NOTE_SERIES}`),
      ctx.db.run(sql`INSERT INTO invoice_items (invoice_id, policy_id, description, quantity, unit_minor,
          tax_minor, total_minor, kind, tax_rate_bp, stamp_duty_minor, credits_item_id)
        SELECT ${noteId}, policy_id, description, quantity, unit_minor, tax_minor, total_minor, kind,
          tax_rate_bp, stamp_duty_minor, id
        FROM invoice_items WHERE invoice_id = ${i.id} AND ${inJson(sql`id`, ids)}
        ORDER BY id`),
      settleInvoice(ctx.db, i.id, ctx.now),
      logActivity(ctx, {
        entity_type: 'invoice',
        entity_id: i.id,
        action: 'credit_note',
        before: money(i),
        after: {
          ...money(i),
          credited_minor: i.credited_minor + total,
          reason: input.reason,
        },
        drawn: { credit_note: noteNumber },
        company_id: i.company_id,
        client_id: i.client_id,
      }),
      logActivity(ctx, {
        entity_type: 'invoice',
        entity_id: noteId,
        action: 'created',
        before: null,
        after: {
          type: 'credit_note',
          credit_for: i.number,
          total_minor: total,
          tax_minor: tax,
          reason: input.reason,
        },
        company_id: i.company_id,
        client_id: i.client_id,
      }),
    ]);
  } catch (e) {
    if (/NOT NULL constraint failed: invoices\.number/i.test(String((e as Error)?.message ?? e)))
      throw new Conflict(msg('invoices.errors.line_credited'));
    throw e;
  }
  const [note] = await ctx.db
    .select({ id: invoices.public_id, number: invoices.number, total_minor: invoices.total_minor })
    .from(invoices)
    .where(and(eq(invoices.public_id, pid)));
  return { ...note, credit_for: i.public_id, reason: input.reason };
}
