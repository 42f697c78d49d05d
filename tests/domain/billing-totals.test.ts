/**
 * The billing summary's running totals (drizzle/schema/billing-totals.ts), kept by triggers on invoices
 * and transactions: after the demo billing (paid, part paid, refunded, credited, voided invoices) and
 * after payments, refunds, edits and voids made through the services, every row equals the sum
 * recomputed from the invoices and transactions, and the summary a company user reads from them equals
 * the one summed invoice by invoice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { clients, users } from '../../drizzle/schema';
import { seedBilling } from '../../drizzle/seed/billing';
import { seedDemoPolicies } from '../../drizzle/seed/policies';
import { billingSummary } from '../../workers/domain/billing/service';
import { billingSummaryFrom } from '../../workers/domain/billing/summary';
import { voidInvoice } from '../../workers/domain/invoices/corrections';
import { editTransaction, recordTransaction } from '../../workers/domain/payments/record';
import { editTransactionSchema, recordTransactionSchema } from '../../workers/domain/payments/schema';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { db, seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { day, insertInvoice } from '../support/billing';

let w: ContractsWorld;
beforeAll(async () => {
  w = await seedContractsWorld();
  const [kingsbridge] = await db()
    .select()
    .from(clients)
    .where(eq(clients.name, 'Kingsbridge Language Academy'));
  const [senior] = await db().select().from(users).where(eq(users.email, DEMO_ACCOUNTS.seniorAdmin));
  await seedDemoPolicies(db(), {
    companyId: w.albion.id,
    oakwoodCampusIds: [w.north.id, w.south.id],
    kingsbridgeClientId: kingsbridge.id,
    seniorAdminId: senior.id,
  });
  await seedBilling(db(), { userId: senior.id });
}, SETUP_TIMEOUT_MS);

/** Rows of the totals that differ from a plain recomputation (empty when they agree). */
async function drift() {
  const balances = await db().all(sql`
    SELECT 'kept' AS side, * FROM (
      SELECT company_id, client_id, currency, due_at, owed_minor, credit_minor FROM billing_balances
      EXCEPT SELECT company_id, client_id, currency, due_at, sum(max(b, 0)), sum(max(-b, 0)) FROM (
        SELECT company_id, client_id, currency, due_at,
          CASE WHEN voided_at IS NOT NULL THEN 0
            WHEN type = 'credit_note' THEN CASE WHEN credit_for_id IS NULL THEN -total_minor ELSE 0 END
            ELSE total_minor - paid_minor + refunded_minor - credited_minor END AS b
        FROM invoices) WHERE b <> 0 GROUP BY 1, 2, 3, 4)
    UNION ALL
    SELECT 'recomputed', * FROM (
      SELECT company_id, client_id, currency, due_at, sum(max(b, 0)), sum(max(-b, 0)) FROM (
        SELECT company_id, client_id, currency, due_at,
          CASE WHEN voided_at IS NOT NULL THEN 0
            WHEN type = 'credit_note' THEN CASE WHEN credit_for_id IS NULL THEN -total_minor ELSE 0 END
            ELSE total_minor - paid_minor + refunded_minor - credited_minor END AS b
        FROM invoices) WHERE b <> 0 GROUP BY 1, 2, 3, 4
      EXCEPT SELECT company_id, client_id, currency, due_at, owed_minor, credit_minor FROM billing_balances)`);
  const months = await db().all(sql`
    WITH r AS (SELECT company_id, currency, month, sum(inv) AS invoiced, sum(col) AS collected FROM (
        SELECT company_id, currency, substr(date, 1, 7) AS month, total_minor AS inv, 0 AS col FROM invoices
        WHERE type <> 'credit_note' AND voided_at IS NULL
        UNION ALL
        SELECT i.company_id, i.currency, substr(coalesce(t.paid_on, date(t.created_at / 1000, 'unixepoch')), 1, 7), 0,
          CASE WHEN t.kind = 'payment' THEN t.amount_minor ELSE -t.amount_minor END
        FROM transactions t JOIN invoices i ON i.id = t.invoice_id WHERE t.status = 'succeeded')
      GROUP BY 1, 2, 3 HAVING sum(inv) <> 0 OR sum(col) <> 0)
    SELECT 'kept' AS side, * FROM (SELECT company_id, currency, month, invoiced_minor, collected_minor
      FROM billing_months WHERE invoiced_minor <> 0 OR collected_minor <> 0 EXCEPT SELECT * FROM r)
    UNION ALL
    SELECT 'recomputed', * FROM (SELECT * FROM r EXCEPT SELECT company_id, currency, month, invoiced_minor,
      collected_minor FROM billing_months)`);
  return { balances, months };
}

describe('billing running totals', () => {
  it('equal the invoices and transactions after the demo billing', async () => {
    const [{ n }] = await db().all<{ n: number }>(sql`SELECT count(*) AS n FROM billing_balances`);
    expect(Number(n)).toBeGreaterThan(0);
    expect(await drift()).toEqual({ balances: [], months: [] });
  });

  it('follow payments, refunds, edits and voids made through the services', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const owner = { company_id: w.albion.id, client_id: w.oakwood.id, campus_id: w.north.id };
    const a = await insertInvoice({ ...owner, total_minor: 12_000, date: day(-40), due_at: day(-10) });
    const b = await insertInvoice({ ...owner, total_minor: 5_000, date: day(-5), due_at: day(20) });
    const c = await insertInvoice({ ...owner, total_minor: 7_000, date: day(-70), due_at: day(-45) });
    const pay = (amount: string, paid_on: string) =>
      recordTransactionSchema.parse({ amount, paid_on, method: 'bank_transfer' });
    await recordTransaction(finance, a.public_id, 'payment', pay('100.00', day(-2)));
    // 40.00 credited on a paid-in-part invoice: 20.00 of it is credit on the account, refunded.
    await insertInvoice({
      ...owner,
      total_minor: 4_000,
      type: 'credit_note',
      credit_for_id: a.id,
      date: day(-1),
    });
    await recordTransaction(finance, a.public_id, 'refund', pay('20.00', day(0)));
    const part = await recordTransaction(finance, b.public_id, 'payment', pay('20.00', day(-35)));
    await editTransaction(
      finance,
      b.public_id,
      editTransactionSchema.parse({
        transaction_id: part.transaction.id,
        amount: '50.00',
        paid_on: day(-1),
        method: 'cheque',
      }),
    );
    await voidInvoice(finance, c.public_id, { reason: 'Issued twice' });
    expect(await drift()).toEqual({ balances: [], months: [] });
  });

  it('give the company user the same summary as summing every invoice', async () => {
    const finance = await actorCtx(DEMO_ACCOUNTS.finance);
    const kept = await billingSummaryFrom(finance, 'totals');
    expect(kept.aging.length).toBeGreaterThan(0);
    expect(kept).toEqual(await billingSummaryFrom(finance, 'invoices'));
    expect(await billingSummary(finance)).toEqual(kept);
  });
});
