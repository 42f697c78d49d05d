/**
 * Test world of checkout and payments: the contracts world (demo seed + a stranger company) plus a
 * contract on the demo school's North campus (sale 95.00, net 60.00, custom price none), a 12 % tax rate
 * for the UK (the campus's country), and helpers that fill a user's cart with open batches through the
 * builders. Each test file has its own storage.
 */
import { eq } from 'drizzle-orm';
import { clients, invoices, taxRates, users } from '../../drizzle/schema';
import { buildPolicyBatch, countryId, seedApplicants, type ApplicantSeed } from '../../drizzle/seed/builders';
import { buildContract } from '../../drizzle/seed/contracts';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, userByEmail } from './world';
import { day, db, seedContractsWorld, type ContractsWorld } from './contracts';

export interface CheckoutWorld extends ContractsWorld {
  contract: { id: number; public_id: string };
  southContract: { id: number; public_id: string };
}

export async function seedCheckoutWorld(): Promise<CheckoutWorld> {
  const w = await seedContractsWorld();
  const d = db();
  const contract = await buildContract(d, {
    campusId: w.north.id,
    productId: w.product.id,
    startDate: day(-30),
    endDate: day(400),
    saleMinor: 9500,
    netMinor: 6000,
  });
  const southContract = await buildContract(d, {
    campusId: w.south.id,
    productId: w.product.id,
    startDate: day(-30),
    endDate: day(400),
    saleMinor: 8000,
    netMinor: 5000,
  });
  await d.insert(taxRates).values({
    country_id: await countryId(d, 'GB'),
    rate_bp: 1200,
    start_date: day(-100),
    active: true,
  });
  return { ...w, contract, southContract };
}

/** A trip of `days` days starting in `from` days. */
export function trip(days: number, from = 10) {
  return { start_date: day(from), end_date: day(from + days - 1) };
}

/** Puts an open batch of `applicants` into the cart of `email` (default the school's master user). */
export async function openBatch(
  w: CheckoutWorld,
  applicants: ApplicantSeed[] | number,
  opts: { email?: string; campus?: 'north' | 'south'; sendWelcomeEmail?: boolean; openedAt?: Date } = {},
) {
  const user = await userByEmail(opts.email ?? DEMO_ACCOUNTS.schoolAdmin);
  const south = opts.campus === 'south';
  return buildPolicyBatch(db(), {
    campusId: south ? w.south.id : w.north.id,
    contractId: south ? w.southContract.id : w.contract.id,
    createdBy: user.id,
    applicants: typeof applicants === 'number' ? seedApplicants(applicants, trip(20)) : applicants,
    sendWelcomeEmail: opts.sendWelcomeEmail,
    openedAt: opts.openedAt,
  });
}

/** A fresh checkout key, as the checkout page makes one. */
let keys = 0;
export function checkoutKey(): string {
  keys += 1;
  return `test-checkout-key-${Date.now().toString(36)}-${keys}`;
}

export const asSchool = (): Promise<ActorCtx> => actorCtx(DEMO_ACCOUNTS.schoolAdmin);

export async function setClientTerms(
  clientId: number,
  terms: typeof clients.$inferInsert.payment_terms,
  method: typeof clients.$inferInsert.payment_method = 'bank_transfer',
) {
  await db()
    .update(clients)
    .set({ payment_terms: terms, payment_method: method })
    .where(eq(clients.id, clientId));
}

export async function invoiceByNumber(number: string) {
  const [row] = await db().select().from(invoices).where(eq(invoices.number, number));
  return row;
}

export async function userId(email: string): Promise<number> {
  const [u] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return u.id;
}

export { day, db };
