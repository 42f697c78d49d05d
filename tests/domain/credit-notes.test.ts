/**
 * Credit notes and refunds (docs/decisions/billing.md "Credit notes and refunds: the model"): a policy
 * cancelled on an unpaid, a part-paid and a paid invoice gets a credit note that names the invoice and
 * lowers its balance; the invoice page, the client's statement, /billing's summary, the invoices'
 * summary and the overdue reminders all read the lower figure; what a credit note gives beyond what was
 * owed is credit on the account, refunded without ever making the invoice due again; an overpayment is
 * refunded the same way; an extended policy is credited on its invoice and its supplementary invoice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { companies, invoiceItems, invoiceReminders, invoices } from '../../drizzle/schema';
import { billingSummary, clientStatement } from '../../workers/domain/billing/service';
import { statementQuerySchema } from '../../workers/domain/billing/schema';
import { invoiceDetail } from '../../workers/domain/invoices/detail';
import { invoiceSummary, listInvoices } from '../../workers/domain/invoices/service';
import { invoiceListQuerySchema } from '../../workers/domain/invoices/schema';
import { recordTransaction } from '../../workers/domain/payments/record';
import { recordTransactionSchema } from '../../workers/domain/payments/schema';
import { confirmAmendment, createAmendment, quoteAmendment } from '../../workers/domain/policies/amendments';
import { sendOverdueEmails, sendScheduledOverdueReminders } from '../../workers/domain/reminders/overdue';
import { Conflict, ValidationFailed } from '../../workers/domain/errors';
import { formatMessage } from '../../workers/platform/i18n';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, actorCtx, testEnv } from '../support/world';
import { asSchool, day, db, issuePolicies, seedAmendmentsWorld, type PolicyRow } from '../support/amendments';
import { insertTransaction, reloadInvoice } from '../support/billing';
import type { CheckoutWorld } from '../support/checkout';

let w: CheckoutWorld;
let school: ActorCtx;
let finance: ActorCtx;

beforeAll(async () => {
  w = await seedAmendmentsWorld();
  school = await asSchool();
  finance = await actorCtx(DEMO_ACCOUNTS.finance);
}, SETUP_TIMEOUT_MS);

const none = { page: 1, items: 25 };

/** Cancels the policies through the amendments engine (as the insureds list does); the documents made. */
async function cancel(rows: PolicyRow[]) {
  const { id } = await createAmendment(school, {
    kind: 'cancel',
    selection: { ids: rows.map((r) => r.public_id) },
    query: none,
  });
  await quoteAmendment(school, id, { reason: 'Did not travel' });
  return (await confirmAmendment(school, id)).invoices;
}

async function invoiceOf(p: PolicyRow) {
  const [row] = await db().select().from(invoices).where(eq(invoices.id, p.invoice_id!));
  return row;
}

const pay = (amount: number, kind: 'payment' | 'refund', invoiceId: string) =>
  recordTransaction(
    finance,
    invoiceId,
    kind,
    recordTransactionSchema.parse({
      amount: (amount / 100).toFixed(2),
      paid_on: day(0),
      method: 'bank_transfer',
    }),
  );

async function refusal(run: Promise<unknown>): Promise<string> {
  const e = await run.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ValidationFailed);
  return formatMessage((e as ValidationFailed).errors[0].message, 'en');
}

/** Every figure that reads an invoice's balance, for the demo school's client in GBP. */
async function figures() {
  const client = w.oakwood.public_id;
  const statement = await clientStatement(finance, client, statementQuerySchema.parse({}));
  const gbp = statement.currencies.find((c) => c.currency === 'GBP')!;
  const summary = await billingSummary(finance);
  const aging = summary.aging.find((a) => a.client.id === client && a.currency === 'GBP')!;
  const [list] = await invoiceSummary(
    finance,
    invoiceListQuerySchema.parse({ client_id: client, currency: 'GBP' }),
  );
  return {
    closing: gbp.closing_minor,
    statement_credit: gbp.aging.credit,
    aging_total: aging.total_minor,
    aging_credit: aging.unapplied_credit_minor,
    outstanding: list.balance_minor,
    credit: list.credit_minor,
    invoiced: list.total_minor,
    invoices: list.count,
    credited: list.credit_notes.total_minor,
    credit_notes: list.credit_notes.count,
    received: list.paid_minor,
  };
}

/** The invoices' summary adds up: invoiced - credited - received = outstanding - credit = statement. */
function addsUp(f: Awaited<ReturnType<typeof figures>>) {
  expect(f.invoiced - f.credited - f.received).toBe(f.outstanding - f.credit);
  expect(f.closing).toBe(f.outstanding - f.credit);
  expect(f.aging_total).toBe(f.closing);
  expect(f.aging_credit).toBe(f.credit);
  expect(f.statement_credit).toBe(f.credit);
}

describe('a cancellation on an unpaid invoice', () => {
  it('issues a credit note against the invoice that lowers what it owes everywhere', async () => {
    const issued = await issuePolicies(w, 3);
    const inv = await invoiceOf(issued[0]);
    const before = await figures();
    addsUp(before);

    const [doc] = await cancel([issued[0]]);
    expect(doc).toMatchObject({ type: 'credit_note', status: 'issued' });
    const credit = doc.total_minor;
    expect(credit).toBe(issued[0].premium_minor + issued[0].tax_minor);

    const note = await invoiceDetail(finance, doc.id);
    expect(note).toMatchObject({
      type: 'credit_note',
      status: 'issued',
      policy_count: 1,
      payment_method: inv.payment_method,
      credit_for: { id: inv.public_id, number: inv.number },
      credited_invoice: { balance_minor: inv.total_minor - credit, account_credit_minor: 0 },
      due_state: null,
    });
    const [line] = await db().select().from(invoiceItems).where(eq(invoiceItems.invoice_id, note.id_numeric));
    expect(line).toMatchObject({ policy_id: issued[0].id, total_minor: credit });
    expect(line.credits_item_id).not.toBeNull();

    const page = await invoiceDetail(finance, inv.public_id);
    expect(page).toMatchObject({
      status: 'unpaid',
      credited_minor: credit,
      balance_minor: inv.total_minor - credit,
      account_credit_minor: 0,
      policy_count: 3,
    });
    expect(page.credit_notes.map((c) => c.id)).toEqual([doc.id]);

    const after = await figures();
    addsUp(after);
    expect(after.outstanding).toBe(before.outstanding - credit);
    expect(after.closing).toBe(before.closing - credit);
    expect(after.aging_total).toBe(before.aging_total - credit);
    expect([after.invoices, after.invoiced]).toEqual([before.invoices, before.invoiced]);
    expect([after.credit_notes, after.credited]).toEqual([before.credit_notes + 1, before.credited + credit]);
  });

  it('shows what is left as overdue, and never reminds of an invoice whose balance is all credited', async () => {
    const issued = await issuePolicies(w, 2);
    const inv = await invoiceOf(issued[0]);
    await db()
      .update(invoices)
      .set({ due_at: day(-20) })
      .where(eq(invoices.id, inv.id));
    const [doc] = await cancel([issued[0]]);
    const left = inv.total_minor - doc.total_minor;
    const overdue = () =>
      listInvoices(finance, invoiceListQuerySchema.parse({ status: 'overdue', number: inv.number }));
    expect((await overdue()).items).toEqual([
      expect.objectContaining({ id: inv.public_id, balance_minor: left, due_state: 'overdue' }),
    ]);

    await cancel([issued[1]]);
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid', credited_minor: inv.total_minor });
    expect((await overdue()).items).toEqual([]);
    const e = await sendOverdueEmails(finance, [inv.public_id]).then(
      () => null,
      (x: Error) => x,
    );
    expect(e).toBeInstanceOf(Conflict);
    expect(formatMessage(e!.message, 'en')).toBe('None of these invoices is overdue.');
    await db()
      .update(companies)
      .set({ overdue_reminder_days: [1, 7] })
      .where(eq(companies.id, inv.company_id));
    await sendScheduledOverdueReminders(db(), testEnv(), new Date());
    const rows = await db().select().from(invoiceReminders).where(eq(invoiceReminders.invoice_id, inv.id));
    expect(rows).toEqual([]);
  });
});

describe('a cancellation on a part-paid invoice', () => {
  it('lowers what is due, puts the rest on the account, and that rest is refunded with the invoice staying paid', async () => {
    const issued = await issuePolicies(w, 2);
    const inv = await invoiceOf(issued[0]);
    const part = Math.round(inv.total_minor * 0.75);
    await pay(part, 'payment', inv.public_id);
    const before = await figures();

    const [doc] = await cancel([issued[0]]);
    const credit = doc.total_minor;
    const owedBefore = inv.total_minor - part;
    const onAccount = credit - owedBefore;
    expect(onAccount).toBeGreaterThan(0);
    const page = await invoiceDetail(finance, inv.public_id);
    expect(page).toMatchObject({
      status: 'paid',
      balance_minor: 0,
      account_credit_minor: onAccount,
      due_state: null,
    });
    expect(page.can.record_refund).toBe(true);
    const after = await figures();
    addsUp(after);
    expect(after.outstanding).toBe(before.outstanding - owedBefore);
    expect(after.credit).toBe(before.credit + onAccount);
    expect(after.closing).toBe(before.closing - credit);

    // A refund is at most the credit on the invoice.
    expect(await refusal(pay(onAccount + 1, 'refund', inv.public_id))).toBe(
      `Refund cannot be more than the credit on this invoice (${(onAccount / 100).toFixed(2)}): what was paid beyond what it still owes after its credit notes`,
    );
    const refunded = await pay(onAccount, 'refund', inv.public_id);
    expect(refunded.invoice).toMatchObject({ status: 'paid', balance_minor: 0, due_state: null });
    expect((await invoiceDetail(finance, doc.id)).credited_invoice).toMatchObject({
      balance_minor: 0,
      account_credit_minor: 0,
      refunded_minor: onAccount,
    });
    const done = await figures();
    addsUp(done);
    expect(done.outstanding).toBe(after.outstanding);
    expect(done.credit).toBe(before.credit);
    expect(done.received).toBe(after.received - onAccount);
  });
});

describe('a cancellation on a paid invoice', () => {
  it('leaves the whole credit on the account; refunding all of it after a full cancellation is refunded', async () => {
    const issued = await issuePolicies(w, 2);
    const inv = await invoiceOf(issued[0]);
    await pay(inv.total_minor, 'payment', inv.public_id);
    const before = await figures();
    const [first] = await cancel([issued[0]]);
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid', credited_minor: first.total_minor });
    const after = await figures();
    addsUp(after);
    expect(after.outstanding).toBe(before.outstanding);
    expect(after.credit).toBe(before.credit + first.total_minor);

    await pay(first.total_minor, 'refund', inv.public_id);
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid' });
    const [second] = await cancel([issued[1]]);
    await pay(second.total_minor, 'refund', inv.public_id);
    expect(await reloadInvoice(inv.id)).toMatchObject({
      status: 'refunded',
      refunded_minor: inv.total_minor,
      credited_minor: inv.total_minor,
    });
    expect(await refusal(pay(1, 'refund', inv.public_id))).toContain('Refund cannot be more than the credit');
    addsUp(await figures());
  });
});

describe('refunds', () => {
  it('refund an overpayment and leave the invoice paid; nothing owed back is refused', async () => {
    const [p] = await issuePolicies(w, 1);
    const inv = await invoiceOf(p);
    await pay(inv.total_minor, 'payment', inv.public_id);
    const message = await refusal(pay(100, 'refund', inv.public_id));
    expect(message).toContain('Refund cannot be more than the credit on this invoice (0.00)');
    expect((await invoiceDetail(finance, inv.public_id)).can.record_refund).toBe(false);
    // Paid twice over (a bank transfer on top of a card payment): 5.00 too much.
    await insertTransaction(await reloadInvoice(inv.id), { amount_minor: 500 });
    expect(await reloadInvoice(inv.id)).toMatchObject({ status: 'paid' });
    const answer = await pay(500, 'refund', inv.public_id);
    expect(answer.invoice).toMatchObject({ status: 'paid', balance_minor: 0, account_credit_minor: 0 });
    addsUp(await figures());
  });
});

describe('an extended policy cancelled', () => {
  it('is credited on its invoice and on the supplementary invoice of its extension, one note each', async () => {
    const [p] = await issuePolicies(w, 1);
    const inv = await invoiceOf(p);
    const { id } = await createAmendment(school, {
      kind: 'extend',
      selection: { ids: [p.public_id] },
      query: none,
    });
    await quoteAmendment(school, id, { new_end_date: day(36) });
    const [supplementary] = (await confirmAmendment(school, id)).invoices;
    expect(supplementary.type).toBe('supplementary');
    const docs = await cancel([p]);
    expect(docs.map((d) => d.type)).toEqual(['credit_note', 'credit_note']);
    const notes = await db()
      .select()
      .from(invoices)
      .where(
        inArray(
          invoices.public_id,
          docs.map((d) => d.id),
        ),
      );
    const byTarget = new Map(notes.map((n) => [n.credit_for_id, n.total_minor]));
    expect(byTarget.get(inv.id)).toBe(inv.total_minor);
    expect(byTarget.get((await reloadInvoice(notes[0].credit_for_id!)).id)).toBeDefined();
    const sup = await db().select().from(invoices).where(eq(invoices.public_id, supplementary.id));
    expect(byTarget.get(sup[0].id)).toBe(sup[0].total_minor);
    for (const target of [inv.id, sup[0].id])
      expect(await reloadInvoice(target)).toMatchObject({ status: 'paid', paid_minor: 0 });
    addsUp(await figures());
  });
});
