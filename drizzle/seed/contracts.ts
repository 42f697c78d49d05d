/**
 * Builders for products and contracts shared by the demo seed and the tests of campuses, service
 * agreements and contracts. Each returns the row it wrote. Contracts made through an agreement come from
 * the domain (approving the agreement); `buildContract` writes one directly, for tests that need a
 * contract in a given state (archived, expired, future) without going through the rules.
 */
import { eq } from 'drizzle-orm';
import { campuses, clients, contracts, products } from '../schema';
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
