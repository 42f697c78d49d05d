/**
 * Events notify the users who should know, in the same batch as the change (docs/decisions/notifications.md):
 * an order checked out tells who ordered and the client's users who may read insureds; a payment tells
 * the company's finance staff and the client's invoice readers, never whoever recorded it; a refused
 * change tells nobody. Each notification is a key with parameters and a link to its page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt } from 'drizzle-orm';
import { invoices, notifications, policyBatches } from '../../drizzle/schema';
import { confirmOpenBatches } from '../../workers/domain/checkout/service';
import { confirmOpenSchema } from '../../workers/domain/checkout/schema';
import { listNotifications } from '../../workers/domain/notifications/service';
import { recordTransaction } from '../../workers/domain/payments/record';
import { recordTransactionSchema } from '../../workers/domain/payments/schema';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import {
  asSchool,
  checkoutKey,
  day,
  db,
  openBatch,
  seedCheckoutWorld,
  setClientTerms,
  trip,
  userId,
  type CheckoutWorld,
} from '../support/checkout';

let w: CheckoutWorld;

beforeAll(async () => {
  w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
}, SETUP_TIMEOUT_MS);

/** The notifications written for `email` after row id `after`. */
async function newFor(email: string, after: number) {
  return db()
    .select()
    .from(notifications)
    .where(and(eq(notifications.user_id, await userId(email)), gt(notifications.id, after)));
}

async function lastId(): Promise<number> {
  const rows = await db().select({ id: notifications.id }).from(notifications);
  return Math.max(0, ...rows.map((r) => r.id));
}

describe('an order checked out', () => {
  it('tells who ordered and the client’s insured readers, with the invoice number and its link', async () => {
    const since = await lastId();
    await openBatch(w, 2);
    const result = await confirmOpenBatches(
      await asSchool(),
      confirmOpenSchema.parse({ checkout_key: checkoutKey() }),
    );
    if (!('invoice' in result)) throw new Error('expected one invoice');
    const [invoice] = await db().select().from(invoices).where(eq(invoices.public_id, result.invoice.id));

    const [told] = await newFor(DEMO_ACCOUNTS.schoolAdmin, since);
    expect(told).toMatchObject({
      message_key: 'order_confirmed',
      params: { count: 2, client: w.oakwood.name, number: invoice.number },
      to: `/invoices/by-number/${invoice.number}`,
      client_id: w.oakwood.id,
      campus_id: w.north.id,
    });
    const [shown] = (await listNotifications(await asSchool(), { lang: 'en' })).items;
    expect(shown).toMatchObject({
      title: 'Order confirmed',
      description: `2 policies for ${w.oakwood.name} are issued, invoice ${invoice.number}.`,
      read: false,
    });
    // Staff of the company are not told of a school's order; nor is another client's user.
    expect(await newFor(DEMO_ACCOUNTS.finance, since)).toHaveLength(0);
  });

  it('a refused checkout tells nobody', async () => {
    const since = await lastId();
    const { batch } = await openBatch(w, [
      { ...trip(10) },
      { ...trip(10), errors: [{ field: 'first_name', message: 'validation.required' }] },
    ]);
    await expect(
      confirmOpenBatches(await asSchool(), confirmOpenSchema.parse({ checkout_key: checkoutKey() })),
    ).rejects.toThrow();
    expect(await lastId()).toBe(since);
    await db().update(policyBatches).set({ status: 'cleared' }).where(eq(policyBatches.id, batch.id));
  });
});

describe('a payment received', () => {
  it('tells the finance staff and the client’s invoice readers, not whoever recorded it', async () => {
    await openBatch(w, 1);
    const result = await confirmOpenBatches(
      await asSchool(),
      confirmOpenSchema.parse({ checkout_key: checkoutKey() }),
    );
    if (!('invoice' in result)) throw new Error('expected one invoice');
    const [invoice] = await db().select().from(invoices).where(eq(invoices.public_id, result.invoice.id));
    const since = await lastId();
    await recordTransaction(
      await actorCtx(DEMO_ACCOUNTS.finance),
      invoice.public_id,
      'payment',
      recordTransactionSchema.parse({ amount: '1.50', paid_on: day(0), method: 'bank_transfer' }),
    );
    expect(await newFor(DEMO_ACCOUNTS.finance, since)).toHaveLength(0);
    const [senior] = await newFor(DEMO_ACCOUNTS.seniorAdmin, since);
    expect(senior).toMatchObject({
      message_key: 'payment_received',
      params: { number: invoice.number, amount_minor: 150, currency: invoice.currency },
      to: `/invoices/by-number/${invoice.number}`,
    });
    const [school] = await newFor(DEMO_ACCOUNTS.schoolAdmin, since);
    expect(school?.message_key).toBe('payment_received');
    const [shown] = (await listNotifications(await asSchool(), { lang: 'en' })).items;
    expect(shown.description).toBe(`£1.50 received for invoice ${invoice.number} (${w.oakwood.name}).`);
    // Users of no invoice reading (the campus employee) are not told.
    expect(await newFor(DEMO_ACCOUNTS.campusEmployee, since)).toHaveLength(0);
  });
});
