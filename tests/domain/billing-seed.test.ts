/**
 * The demo billing seed (drizzle/seed/billing.ts): invoices for the demo policies, their lines and totals
 * agreeing, paid, part paid, overdue, refunded, credited and voided ones, numbers without gaps, and a
 * second run that changes nothing. Kingsbridge's many small invoices (drizzle/seed/invoice-volume.ts)
 * follow the same rules and are more than one ZIP made in the request holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { clients, users } from '../../drizzle/schema';
import { seedBilling } from '../../drizzle/seed/billing';
import { seedDemoPolicies } from '../../drizzle/seed/policies';
import { seedInvoiceVolume } from '../../drizzle/seed/invoice-volume';
import { MAX_DOWNLOAD_INVOICES } from '../../workers/domain/invoices/schema';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

let w: ContractsWorld;
let kingsbridgeId: number;
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
  kingsbridgeId = kingsbridge.id;
  await seedInvoiceVolume(db(), { clientId: kingsbridge.id, companyId: w.albion.id, userId: senior.id });
}, SETUP_TIMEOUT_MS);

describe('the demo billing', () => {
  it('invoices every demo policy, with lines that sum to the totals and numbers without gaps', async () => {
    const [{ left }] = await db().all<{ left: number }>(
      sql`SELECT count(*) AS left FROM policies WHERE invoice_id IS NULL`,
    );
    expect(Number(left)).toBe(0);
    const wrong = await db().all(sql`SELECT i.number FROM invoices i
      WHERE i.total_minor <> (SELECT coalesce(sum(x.total_minor), 0) FROM invoice_items x WHERE x.invoice_id = i.id)
        OR i.tax_minor <> (SELECT coalesce(sum(x.tax_minor), 0) FROM invoice_items x WHERE x.invoice_id = i.id)`);
    expect(wrong).toEqual([]);
    const numbers = await db().all<{ number: string }>(
      sql`SELECT number FROM invoices WHERE number LIKE 'INV%' ORDER BY number`,
    );
    expect(numbers.length).toBeGreaterThan(10);
    expect(numbers.map((r) => Number(r.number.slice(3)))).toEqual(numbers.map((_, i) => i + 1));
    const [{ value }] = await db().all<{ value: number }>(
      sql`SELECT value FROM sequences WHERE name = 'invoice'`,
    );
    expect(Number(value)).toBe(numbers.length);
  });

  it('has paid, part-paid, overdue, refunded, credited and voided invoices', async () => {
    const [s] = await db().all<Record<string, number>>(sql`SELECT
        sum(status = 'paid' AND type = 'invoice') AS paid,
        sum(status = 'unpaid' AND paid_minor > 0) AS part_paid,
        sum(status = 'unpaid' AND due_at < date('now') AND type = 'invoice') AS overdue,
        sum(refunded_minor > 0) AS refunded,
        sum(type = 'credit_note') AS credit_notes,
        sum(credited_minor > 0) AS credited,
        sum(status = 'void') AS voided
      FROM invoices`);
    for (const key of ['paid', 'part_paid', 'overdue', 'refunded', 'credit_notes', 'credited', 'voided'])
      expect(Number(s[key]), key).toBeGreaterThan(0);
  });

  it('dates no invoice, credit note, transaction or issued policy after the moment it ran', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const now = Date.now();
    const invoices = await db().all<{ number: string; date: string }>(
      sql`SELECT number, date FROM invoices WHERE date > ${today} OR paid_at > ${today} OR created_at > ${now}`,
    );
    expect(invoices).toEqual([]);
    const transactions = await db().all(
      sql`SELECT id, paid_on FROM transactions WHERE paid_on > ${today} OR created_at > ${now}`,
    );
    expect(transactions).toEqual([]);
    const policies = await db().all(sql`SELECT id FROM policies WHERE issued_at > ${now}`);
    expect(policies).toEqual([]);
    const [{ n }] = await db().all<{ n: number }>(
      sql`SELECT count(*) AS n FROM invoices WHERE type = 'credit_note'`,
    );
    expect(Number(n)).toBeGreaterThan(0);
  });

  it('gives Kingsbridge more invoices than one ZIP in the request holds: paid, overdue and open', async () => {
    const [k] = await db().all<Record<string, number>>(sql`SELECT count(*) AS n,
        sum(status = 'paid') AS paid,
        sum(status = 'unpaid' AND due_at < date('now')) AS overdue,
        sum(status = 'unpaid' AND due_at >= date('now')) AS open,
        count(DISTINCT group_name) AS groups
      FROM invoices WHERE client_id = ${kingsbridgeId} AND checkout_key LIKE 'demo-volume:%'`);
    expect(Number(k.n)).toBe(220);
    expect(Number(k.n)).toBeGreaterThan(MAX_DOWNLOAD_INVOICES);
    expect(Number(k.groups)).toBe(10);
    for (const key of ['paid', 'overdue', 'open']) expect(Number(k[key]), key).toBeGreaterThan(0);
  });

  it('does nothing when run again', async () => {
    const before = await db().all(sql`SELECT count(*) AS n FROM invoices`);
    expect(
      await seedInvoiceVolume(db(), { clientId: kingsbridgeId, companyId: w.albion.id, userId: null }),
    ).toEqual({ invoices: 0 });
    expect(await seedBilling(db(), { userId: null })).toEqual({ invoices: 0 });
    expect(await db().all(sql`SELECT count(*) AS n FROM invoices`)).toEqual(before);
  });
});
