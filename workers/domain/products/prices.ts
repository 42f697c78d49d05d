/**
 * A product's prices (spec 001 s.3, 002 s.7): bands of trip length (min..max days) with net, sale and
 * optional custom amounts in the product's currency, for a period (from/to dates, or none: the default
 * price) and a destination (a region, some countries, or anywhere).
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { countries, productPrices } from '../../../drizzle/schema';
import { inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed, type FieldError } from '../errors';
import { wholePage } from '../lists';
import { major, msg, todayIso } from '../validation';
import { logActivity } from '../audit/activity-log';
import { findProduct, type ProductRow } from './queries';
import { PRICE_PERIODS, type PriceInput, type PricePeriod } from './schema';

type PriceRow = typeof productPrices.$inferSelect;

/** expired: to date past; future: from date ahead; default: no dates; otherwise current. */
export function pricePeriod(
  p: { from_date: string | null; to_date: string | null },
  today: string,
): PricePeriod {
  if (!p.from_date && !p.to_date) return 'default';
  if (p.to_date && p.to_date < today) return 'expired';
  if (p.from_date && p.from_date > today) return 'future';
  return 'current';
}

type Band = Pick<PriceRow, 'min_days' | 'max_days' | 'from_date' | 'to_date' | 'region_code'> & {
  destination_country_ids: number[] | null;
};

function sameDestination(a: Band, b: Band): boolean {
  const countriesA = a.destination_country_ids ?? [];
  const countriesB = b.destination_country_ids ?? [];
  const kind = (p: Band, ids: number[]) => (p.region_code ? 'region' : ids.length ? 'countries' : 'anywhere');
  const [ka, kb] = [kind(a, countriesA), kind(b, countriesB)];
  if (ka !== kb) return false;
  if (ka === 'anywhere') return true;
  if (ka === 'region') return a.region_code === b.region_code;
  return countriesA.some((id) => countriesB.includes(id));
}

function samePeriod(a: Band, b: Band): boolean {
  const isDefault = (p: Band) => !p.from_date && !p.to_date;
  if (isDefault(a) || isDefault(b)) return isDefault(a) && isDefault(b);
  const [fromA, toA] = [a.from_date ?? '0000-00-00', a.to_date ?? '9999-99-99'];
  const [fromB, toB] = [b.from_date ?? '0000-00-00', b.to_date ?? '9999-99-99'];
  return fromA <= toB && fromB <= toA;
}

/**
 * The band `candidate` clashes with, if any: the same destination, periods that overlap (default prices
 * only with default prices) and trip lengths that overlap. Two prices for one trip would be ambiguous.
 */
export function overlappingBand<T extends Band>(candidate: Band, others: T[]): T | undefined {
  return others.find(
    (o) =>
      sameDestination(candidate, o) &&
      samePeriod(candidate, o) &&
      candidate.min_days <= o.max_days &&
      o.min_days <= candidate.max_days,
  );
}

async function countryNames(ctx: ActorCtx, ids: number[]) {
  if (!ids.length) return new Map<number, { id: number; name: string; abbreviation: string }>();
  const rows = await ctx.db
    .select({ id: countries.id, name: countries.name, abbreviation: countries.abbreviation })
    .from(countries)
    .where(inJson(countries.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
}

function presentPrice(
  p: PriceRow,
  product: ProductRow,
  today: string,
  names: Map<number, { id: number; name: string; abbreviation: string }>,
) {
  const ids = p.destination_country_ids ?? [];
  return {
    id: p.id,
    product_id: product.public_id,
    min_days: p.min_days,
    max_days: p.max_days,
    net: major(p.net_minor),
    sale: major(p.sale_minor),
    custom: major(p.custom_minor),
    net_minor: p.net_minor,
    sale_minor: p.sale_minor,
    custom_minor: p.custom_minor,
    currency: product.currency,
    flat: p.flat,
    from_date: p.from_date,
    to_date: p.to_date,
    region_code: p.region_code,
    destination_country_ids: ids,
    destination_countries: ids.map((id) => names.get(id)).filter((c) => !!c),
    period: pricePeriod(p, today),
  };
}
export type PriceView = ReturnType<typeof presentPrice>;

/** GET products/{id}/prices: every price of the product (optionally one period), by period and days. */
export async function listPrices(ctx: ActorCtx, productId: string, period?: PricePeriod) {
  requirePermission(ctx.actor, 'read_product');
  const product = await findProduct(ctx, productId);
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select()
    .from(productPrices)
    .where(eq(productPrices.product_id, product.id))
    .orderBy(asc(productPrices.from_date), asc(productPrices.min_days), asc(productPrices.id));
  const names = await countryNames(ctx, [...new Set(rows.flatMap((r) => r.destination_country_ids ?? []))]);
  const order = (p: PricePeriod) => ['current', 'default', 'future', 'expired'].indexOf(p);
  const items = rows
    .map((r) => presentPrice(r, product, today, names))
    .filter((p) => !period || p.period === period)
    .sort((a, b) => order(a.period) - order(b.period));
  return wholePage(items);
}

async function findPrice(ctx: ActorCtx, product: ProductRow, priceId: number): Promise<PriceRow> {
  const [row] = await ctx.db
    .select()
    .from(productPrices)
    .where(and(eq(productPrices.id, priceId), eq(productPrices.product_id, product.id)))
    .limit(1);
  if (!row) throw new NotFound();
  return row;
}

function priceValues(input: PriceInput) {
  return {
    min_days: input.min_days,
    max_days: input.max_days,
    net_minor: input.net,
    sale_minor: input.sale,
    custom_minor: input.custom ?? null,
    flat: input.flat ?? false,
    from_date: input.from_date ?? null,
    to_date: input.to_date ?? null,
    region_code: input.region_code ?? null,
    destination_country_ids: input.destination_country_ids?.length
      ? [...new Set(input.destination_country_ids)]
      : null,
  };
}

/** The rules that need the product, the clock or the other prices. */
async function checkPrice(
  ctx: ActorCtx,
  product: ProductRow,
  values: ReturnType<typeof priceValues>,
  before: PriceRow | null,
) {
  const errors: FieldError[] = [];
  const today = todayIso(ctx.now);
  if (values.min_days < product.min_purchase_days)
    errors.push({
      key: 'min_days',
      message: msg('products.errors.min_days_below_purchase', { days: product.min_purchase_days }),
    });
  if (values.from_date && values.from_date !== before?.from_date && values.from_date < today)
    errors.push({ key: 'from_date', message: msg('validation.start_not_past') });
  if (values.to_date && values.to_date !== before?.to_date && values.to_date < today)
    errors.push({ key: 'to_date', message: msg('products.errors.end_not_past') });
  const ids = values.destination_country_ids ?? [];
  if (ids.length) {
    const found = await countryNames(ctx, ids);
    if (found.size !== ids.length)
      errors.push({ key: 'destination_country_ids', message: msg('products.errors.country_unknown') });
  }
  if (!errors.length) {
    const others = await ctx.db
      .select()
      .from(productPrices)
      .where(
        and(eq(productPrices.product_id, product.id), before ? ne(productPrices.id, before.id) : undefined),
      );
    const clash = overlappingBand(values, others);
    if (clash)
      errors.push({
        key: 'min_days',
        message: msg('products.errors.price_overlap', { min: clash.min_days, max: clash.max_days }),
      });
  }
  if (errors.length) throw new ValidationFailed(errors);
}

/** A price as its product's logs tab shows it: amounts in major units, countries by code. */
async function loggablePrice(
  ctx: ActorCtx,
  p: Omit<ReturnType<typeof priceValues>, 'region_code'> & { region_code: string | null },
) {
  const names = await countryNames(ctx, p.destination_country_ids ?? []);
  return {
    min_days: p.min_days,
    max_days: p.max_days,
    net: major(p.net_minor),
    sale: major(p.sale_minor),
    custom: major(p.custom_minor),
    flat: p.flat,
    from_date: p.from_date,
    to_date: p.to_date,
    region_code: p.region_code,
    destination_countries: (p.destination_country_ids ?? []).map((id) => names.get(id)?.abbreviation ?? id),
  };
}

async function priceView(ctx: ActorCtx, product: ProductRow, row: PriceRow) {
  const names = await countryNames(ctx, row.destination_country_ids ?? []);
  return presentPrice(row, product, todayIso(ctx.now), names);
}

/** POST products/{id}/prices/add. */
export async function addPrice(ctx: ActorCtx, productId: string, input: PriceInput) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  const values = priceValues(input);
  await checkPrice(ctx, product, values, null);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(productPrices)
      .values({ ...values, product_id: product.id, created_at: ctx.now, updated_at: ctx.now })
      .returning(),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: product.id,
      action: 'price_added',
      after: await loggablePrice(ctx, values),
      company_id: product.company_id,
    }),
  ]);
  return priceView(ctx, product, row);
}

/** POST products/{id}/prices/{priceId}/update. */
export async function updatePrice(ctx: ActorCtx, productId: string, priceId: number, input: PriceInput) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  const before = await findPrice(ctx, product, priceId);
  const values = priceValues(input);
  await checkPrice(ctx, product, values, before);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(productPrices)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(productPrices.id, before.id))
      .returning(),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: product.id,
      action: 'price_updated',
      before: await loggablePrice(ctx, before),
      after: await loggablePrice(ctx, values),
      company_id: product.company_id,
    }),
  ]);
  return priceView(ctx, product, row);
}

/** DELETE products/{id}/prices/{priceId}/update. */
export async function deletePrice(ctx: ActorCtx, productId: string, priceId: number) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  const before = await findPrice(ctx, product, priceId);
  await runBatch(ctx.db, [
    ctx.db.delete(productPrices).where(eq(productPrices.id, before.id)),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: product.id,
      action: 'price_deleted',
      before: {
        ...before,
        id: undefined,
        product_id: undefined,
        created_at: undefined,
        updated_at: undefined,
      },
      company_id: product.company_id,
    }),
  ]);
}

export { PRICE_PERIODS };
