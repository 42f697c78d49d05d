/**
 * Demo data for amendments: a student product priced per started week and its contract on a campus, so
 * extending or shortening a trip charges or credits a difference (the demo's first product is priced per
 * trip, where a longer trip costs the same). Safe to run twice. The development route
 * /__dev/amendments/issue issues its browser-test and bench policies under it; the demo seed may call it
 * for each demo campus (docs/decisions/after-the-sale.md, "Amendments").
 */
import { and, eq } from 'drizzle-orm';
import { campuses, clients, contracts, insurers, products, units } from '../schema';
import type { DB } from '../../workers/platform/db';
import { buildContract, buildProduct } from './contracts';

export const WEEKLY_PRODUCT_CODE = 'WEEKLY_STUDENT';

/** The weekly-priced contract of a campus (made with its product when missing): 45.00 a week. */
export async function buildWeeklyContract(db: DB, campusId: number) {
  const [campus] = await db
    .select({ company_id: clients.company_id })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(eq(campuses.id, campusId));
  let [product] = await db
    .select()
    .from(products)
    .where(and(eq(products.company_id, campus.company_id), eq(products.code, WEEKLY_PRODUCT_CODE)));
  if (!product) {
    product = await buildProduct(db, {
      companyId: campus.company_id,
      code: WEEKLY_PRODUCT_CODE,
      name: 'Student Cover (weekly)',
    });
    const [week] = await db.select().from(units).where(eq(units.name, 'week'));
    const [insurer] = await db.select({ id: insurers.id }).from(insurers).orderBy(insurers.id).limit(1);
    // What the insurance card and certificate print: the insurer, the master certificate, whom to call.
    [product] = await db
      .update(products)
      .set({
        ...(week ? { unit_id: week.id } : {}),
        insurer_id: insurer?.id ?? null,
        master_certificate_number: 'MC-2026-0417',
        medical_assistance_phone: '+44 20 7946 0321',
        medical_assistance_email: 'assistance@medassist.example',
        claim_phone: '+44 20 7946 0155',
        claim_email: 'claims@studentcover.example',
      })
      .where(eq(products.id, product.id))
      .returning();
  }
  const [existing] = await db
    .select()
    .from(contracts)
    .where(and(eq(contracts.campus_id, campusId), eq(contracts.product_id, product.id)));
  if (existing) return existing;
  const start = new Date(Date.now() - 90 * 86_400_000).toISOString().slice(0, 10);
  return buildContract(db, {
    campusId,
    productId: product.id,
    startDate: start,
    saleMinor: 4500,
    netMinor: 3000,
    name: 'Student Cover (weekly)',
  });
}
