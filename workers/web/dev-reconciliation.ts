import { Hono } from 'hono';
import { eq, sql } from 'drizzle-orm';
import { clients, users } from '../../drizzle/schema';
import {
  camt053Xml,
  demoEntries,
  openDemoInvoices,
  seedReconciliation,
  statementCsv,
  type CamtEntry,
} from '../../drizzle/seed/reconciliation';
import type { Env } from '../env';
import { createDb } from '../platform/db';
import { loadActor } from '../domain/access/actor';
import { visibleCompanyIds } from '../domain/access/scope';
import { devOnly } from './dev';

/**
 * Development-only (devOnly: absent in production, needs the local SESSION_SECRET): bank statements a
 * person (or a browser test, or the demo) can upload against what is unpaid right now.
 * - POST /__dev/reconciliation/statement { email }: a camt.053 XML and the same credits as a bank's CSV,
 *   built from the open invoices of the user's company (drizzle/seed/reconciliation.ts demoEntries), with
 *   the invoices they should match.
 *   With `every: true`: one credit per open invoice, each quoting its payment reference (the bench).
 * - POST /__dev/reconciliation/invoices { email, count }: `count` unpaid invoices of the user's company
 *   written at once with numbers from the series (the bench's 2000 invoices; no policies behind them).
 * - POST /__dev/reconciliation/seed: the demo statement under review (seedReconciliation).
 */
export const devReconciliation = new Hono<{ Bindings: Env }>()
  .use('*', devOnly)
  .post('/statement', async (c) => {
    const input = (await c.req.json()) as { email: string; every?: boolean };
    const db = createDb(c.env.DB);
    const companyId = await companyOf(db, input.email);
    if (!companyId) return c.json({ message: 'No such user with a company' }, 404);
    const open = await openDemoInvoices(db, companyId);
    const today = new Date().toISOString().slice(0, 10);
    const stamp = Date.now().toString(36);
    const entries: CamtEntry[] = input.every
      ? open.map((i, n) => ({
          amount_minor: i.balance,
          currency: i.currency,
          booking_date: today,
          bank_reference: `BENCH-${n + 1}`,
          text: `Payment ${i.payment_reference}`,
          debtor: i.client,
        }))
      : demoEntries(open, today);
    return c.json({
      invoices: open
        .slice(0, 5)
        .map((i) => ({ number: i.number, balance_minor: i.balance, currency: i.currency })),
      xml: camt053Xml(
        entries.map((e) => ({ ...e, bank_reference: `${e.bank_reference}-${stamp}` })),
        { id: `DEV-${stamp}` },
      ),
      csv: statementCsv(
        entries
          .filter((e) => e.direction !== 'DBIT')
          .map((e) => ({
            booking_date: e.booking_date,
            text: e.text,
            payer: e.debtor,
            paid_in_minor: e.amount_minor,
            currency: e.currency,
            bank_reference: `${e.bank_reference}-csv-${stamp}`,
          })),
      ),
    });
  })
  .post('/invoices', async (c) => {
    const input = (await c.req.json()) as { email: string; count?: number };
    const db = createDb(c.env.DB);
    const companyId = await companyOf(db, input.email);
    if (!companyId) return c.json({ message: 'No such user with a company' }, 404);
    const [client] = await db.select().from(clients).where(eq(clients.company_id, companyId)).limit(1);
    if (!client) return c.json({ message: 'No client' }, 404);
    const count = Math.min(Math.max(input.count ?? 10, 1), 10_000);
    const now = Date.now();
    const today = new Date(now).toISOString().slice(0, 10);
    const due = new Date(now + 30 * 86_400_000).toISOString().slice(0, 10);
    const rows = Array.from({ length: count }, (_, i) => 10_000 + ((i * 7919) % 90_000));
    await db.run(sql`INSERT OR IGNORE INTO sequences (name, value) VALUES ('invoice', 0)`);
    await db.$client.batch([
      db.$client
        .prepare(
          `INSERT INTO invoices (public_id, number, company_id, client_id, status, payment_method, currency, date,
            due_at, insurance_cost_minor, tax_minor, total_minor, payment_reference, type, created_at, updated_at)
          SELECT lower(hex(randomblob(8))), 'INV' || printf('%07d', s.value + j.key + 1), ?1, ?2, 'unpaid',
            'bank_transfer', 'GBP', ?3, ?4, j.value, 0, j.value,
            'INV' || printf('%07d', s.value + j.key + 1) || '-B' || upper(hex(randomblob(2))), 'invoice', ?5, ?5
          FROM json_each(?6) AS j, sequences s WHERE s.name = 'invoice'`,
        )
        .bind(companyId, client.id, today, due, now, JSON.stringify(rows)),
      db.$client.prepare(`UPDATE sequences SET value = value + ?1 WHERE name = 'invoice'`).bind(count),
    ]);
    return c.json({ count });
  })
  .post('/seed', async (c) => {
    await seedReconciliation(createDb(c.env.DB));
    return c.json({ ok: true });
  });

async function companyOf(db: ReturnType<typeof createDb>, email: string): Promise<number | undefined> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  if (!user) return undefined;
  const actor = await loadActor(db, user.id);
  return actor ? visibleCompanyIds(actor)[0] : undefined;
}
