/**
 * Builders for products and contracts shared by the demo seed and the tests of campuses, service
 * agreements and contracts. Each returns the row it wrote. Contracts made through an agreement come from
 * the domain (approving the agreement); `buildContract` writes one directly, for tests that need a
 * contract in a given state (archived, expired, future) without going through the rules.
 */
import { and, eq } from 'drizzle-orm';
import { campuses, clients, contracts, insurers, products } from '../schema';
import type { DB } from '../../workers/platform/db';
import { publicId } from '../../workers/platform/crypto';

export async function buildProduct(
  db: DB,
  input: {
    companyId: number;
    code: string;
    name: string;
    effectiveStart?: string;
    effectiveEnd?: string | null;
    currency?: string;
    insurerId?: number | null;
    status?: 'active' | 'archived';
  },
) {
  const [row] = await db
    .insert(products)
    .values({
      public_id: publicId(),
      company_id: input.companyId,
      insurer_id: input.insurerId ?? null,
      code: input.code,
      name: input.name,
      effective_start_date: input.effectiveStart ?? '2020-01-01',
      effective_end_date: input.effectiveEnd === undefined ? null : input.effectiveEnd,
      currency: input.currency ?? 'GBP',
      min_purchase_days: 6,
      territorial_limit: 'international',
      status: input.status ?? 'active',
    })
    .returning();
  return row;
}

export async function buildContract(
  db: DB,
  input: {
    campusId: number;
    productId: number;
    startDate: string;
    endDate?: string | null;
    status?: 'active' | 'archived';
    name?: string;
    netMinor?: number;
    saleMinor?: number;
    minDays?: number;
    isDefault?: boolean;
  },
) {
  const [campus] = await db
    .select({ client_id: campuses.client_id, company_id: clients.company_id })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(eq(campuses.id, input.campusId));
  const [product] = await db.select().from(products).where(eq(products.id, input.productId));
  const [row] = await db
    .insert(contracts)
    .values({
      public_id: publicId(),
      company_id: campus.company_id,
      client_id: campus.client_id,
      campus_id: input.campusId,
      product_id: input.productId,
      name: input.name ?? product.name,
      start_date: input.startDate,
      end_date: input.endDate === undefined ? null : input.endDate,
      status: input.status ?? 'active',
      is_default: input.isDefault ?? false,
      net_minor: input.netMinor ?? 5000,
      sale_minor: input.saleMinor ?? 7500,
      currency: product.currency,
      min_days: input.minDays ?? 6,
    })
    .returning();
  return row;
}

/** A product of a demo agreement and its price at every campus (major units, as the agreement form takes them). */
export interface DemoAgreementProduct {
  code: string;
  name: string;
  currency?: string;
  net_price: string;
  sale_price: string;
}

/**
 * A demo school's service agreement: an insurer and products of the company (the UK demo: an existing
 * active product when another seed made one), and an approved agreement with one row per campus and
 * product, so every campus has current contracts to order under. Goes through the domain (the agreement
 * rules and the contracts made on approval), acting as the given user, on `now` (default today: the
 * agreement starts that day and runs a year). Without `products` and `insurerName`, Oakwood's agreement:
 * Albion Underwriting Partners' student cover at £95 (net £60).
 */
export async function seedDemoContracts(
  db: DB,
  input: {
    companyId: number;
    clientPublicId: string;
    campusPublicIds: string[];
    actingUserId: number;
    name?: string;
    insurerName?: string;
    products?: DemoAgreementProduct[];
    now?: Date;
  },
) {
  const [{ loadActor }, { createServiceAgreement }, { createAgreementSchema }] = await Promise.all([
    import('../../workers/domain/access/actor'),
    import('../../workers/domain/service-agreements/service'),
    import('../../workers/domain/service-agreements/schema'),
  ]);
  const insurerName = input.insurerName ?? 'Albion Underwriting Partners';
  let [insurer] = await db.select().from(insurers).where(eq(insurers.company_id, input.companyId)).limit(1);
  if (!insurer)
    [insurer] = await db
      .insert(insurers)
      .values({ public_id: publicId(), company_id: input.companyId, name: insurerName })
      .returning();
  const priced = input.products
    ? await Promise.all(
        input.products.map(async (p) => ({
          row: await buildProduct(db, {
            companyId: input.companyId,
            code: p.code,
            name: p.name,
            currency: p.currency,
            insurerId: insurer.id,
          }),
          net_price: p.net_price,
          sale_price: p.sale_price,
        })),
      )
    : [
        {
          row:
            (
              await db
                .select()
                .from(products)
                .where(and(eq(products.company_id, input.companyId), eq(products.status, 'active')))
                .limit(1)
            )[0] ??
            (await buildProduct(db, {
              companyId: input.companyId,
              code: 'OAK_STUDENT',
              name: 'Student Travel Cover',
              insurerId: insurer.id,
            })),
          net_price: '60.00',
          sale_price: '95.00',
        },
      ];
  const actor = await loadActor(db, input.actingUserId, { selectedCompanyId: input.companyId });
  if (!actor) throw new Error('The acting user of the demo agreement cannot act');
  const now = input.now ?? new Date();
  const today = now.toISOString().slice(0, 10);
  const inAYear = new Date(now.getTime() + 365 * 86_400_000).toISOString().slice(0, 10);
  await createServiceAgreement(
    { db, env: {} as never, now, actor },
    createAgreementSchema.parse({
      client_id: input.clientPublicId,
      name: input.name ?? `Oakwood student cover ${today.slice(0, 4)}`,
      insurer_id: insurer.public_id,
      start_date: today,
      end_date: inAYear,
      default_product_id: priced[0].row.public_id,
      approve: 'approve',
      rows: input.campusPublicIds.flatMap((campus_id) =>
        priced.map(({ row: product, net_price, sale_price }) => ({
          product_id: product.public_id,
          campus_id,
          net_price,
          sale_price,
          min_days: '6',
          start_date: today,
          end_date:
            product.effective_end_date && product.effective_end_date < inAYear
              ? product.effective_end_date
              : inAYear,
        })),
      ),
    }),
  );
}
