/**
 * Countries and their tax rates (spec 001 s.3 Country, s.5, s.8). Countries are reference data shared by
 * every company of a region: reading needs read_country, changes need create/update/archive_country, and
 * no tenant scope applies (there is no tenant column). Tax-rate changes are logged on their country.
 */
import { and, asc, desc, eq, gte, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import { countries, taxRates } from '../../../drizzle/schema';
import type { DB } from '../../platform/db';
import { runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { ARCHIVE_PERMISSION } from '../access/archiving';
import { activityFeed } from '../activity/feed';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, NotFound, ValidationFailed } from '../errors';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import { msg } from '../validation';
import type { AddTaxRateInput, CountryInput, CountryListQuery, UpdateTaxRateInput } from './schema';

type CountryRow = typeof countries.$inferSelect;
type TaxRateRow = typeof taxRates.$inferSelect;

/** A tax rate as the API and pages show it: percent and major units, not the stored integers. */
export function taxRateView(r: TaxRateRow) {
  return {
    id: r.id,
    country_id: r.country_id,
    tax_rate: r.rate_bp == null ? null : r.rate_bp / 100,
    tax_amount: r.amount_minor == null ? null : r.amount_minor / 100,
    currency: r.currency,
    start_date: r.start_date,
    end_date: r.end_date,
    active: r.active,
    status: r.active ? ('active' as const) : ('inactive' as const),
  };
}
export type TaxRateView = ReturnType<typeof taxRateView>;

function countryView(c: CountryRow) {
  return {
    id: c.id,
    name: c.name,
    abbreviation: c.abbreviation,
    code: c.code,
    dial_code: c.dial_code,
    capital: c.capital,
    region_code: c.region_code,
    currency_code: c.currency_code,
    currency_name: c.currency_name,
    currency_symbol: c.currency_symbol,
    language: c.language,
    status: c.status,
    age_min: c.age_min,
    age_max: c.age_max,
    travel_restriction_notes: c.travel_restriction_notes,
    stamp_duty_applicable: c.stamp_duty_applicable,
    requires_passport_number: c.requires_passport_number,
  };
}
export type CountryView = ReturnType<typeof countryView>;

/** The active countries for dropdowns everywhere (GET /countries). Reference data: no permission needed. */
export async function activeCountries(db: DB) {
  return db
    .select({
      id: countries.id,
      name: countries.name,
      abbreviation: countries.abbreviation,
      code: countries.code,
      dial_code: countries.dial_code,
      capital: countries.capital,
      region_code: countries.region_code,
      currency_code: countries.currency_code,
      currency_name: countries.currency_name,
      currency_symbol: countries.currency_symbol,
      language: countries.language,
      requires_passport_number: countries.requires_passport_number,
      age_min: countries.age_min,
      age_max: countries.age_max,
    })
    .from(countries)
    .where(eq(countries.status, 'active'))
    .orderBy(asc(countries.name));
}

// The active tax rate of each country, for the list (only one is active). Written out in full: drizzle
// leaves columns unqualified in a one-table select, which a correlated subquery would misread.
const activeRate = sql`(select tr.rate_bp from tax_rates tr where tr.country_id = "countries"."id" and tr.active = 1 limit 1)`;
const activeAmount = sql`(select tr.amount_minor from tax_rates tr where tr.country_id = "countries"."id" and tr.active = 1 limit 1)`;

function listWhere(q: CountryListQuery): SQL | undefined {
  return and(
    q.status && q.status !== 'all' ? eq(countries.status, q.status) : undefined,
    q.region_code ? eq(countries.region_code, q.region_code) : undefined,
    likeAny(
      [countries.name, countries.abbreviation, countries.code, countries.capital, countries.currency_code],
      q.search,
    ),
  );
}

const listColumns = {
  id: countries.id,
  name: countries.name,
  abbreviation: countries.abbreviation,
  code: countries.code,
  dial_code: countries.dial_code,
  capital: countries.capital,
  region_code: countries.region_code,
  currency_code: countries.currency_code,
  currency_name: countries.currency_name,
  currency_symbol: countries.currency_symbol,
  language: countries.language,
  status: countries.status,
  age_min: countries.age_min,
  age_max: countries.age_max,
  stamp_duty_applicable: countries.stamp_duty_applicable,
  requires_passport_number: countries.requires_passport_number,
  rate_bp: sql<number | null>`${activeRate}`.as('rate_bp'),
  amount_minor: sql<number | null>`${activeAmount}`.as('amount_minor'),
};

type ListRow = { [K in keyof typeof listColumns]: unknown } & {
  rate_bp: number | null;
  amount_minor: number | null;
};

function listItem(r: ListRow) {
  const { rate_bp, amount_minor, ...rest } = r;
  return {
    ...(rest as Omit<CountryView, 'travel_restriction_notes'>),
    tax_rate: rate_bp == null ? null : rate_bp / 100,
    tax_amount: amount_minor == null ? null : amount_minor / 100,
  };
}
export type CountryListItem = ReturnType<typeof listItem>;

const sortable = {
  name: countries.name,
  abbreviation: countries.abbreviation,
  code: countries.code,
  region_code: countries.region_code,
  currency_code: countries.currency_code,
  status: countries.status,
};

/** The countries management list: filters, sorting, paging (`{ items, meta }`). */
export async function listCountries(ctx: ActorCtx, q: CountryListQuery): Promise<Page<CountryListItem>> {
  requirePermission(ctx.actor, 'read_country');
  const where = listWhere(q);
  const page = await paginate<ListRow>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select(listColumns)
        .from(countries)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'name_asc', countries.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(countries).where(where),
  });
  return { items: page.items.map(listItem), meta: page.meta };
}

/** Every country matching the list's filters (the Excel export), in the list's order. */
export async function exportCountries(ctx: ActorCtx, q: CountryListQuery): Promise<CountryListItem[]> {
  requirePermission(ctx.actor, 'read_country');
  const rows = await ctx.db
    .select(listColumns)
    .from(countries)
    .where(listWhere(q))
    .orderBy(...orderBy(q.order, sortable, 'name_asc', countries.id))
    .limit(5000);
  return (rows as ListRow[]).map(listItem);
}

/** countries/summary: how many countries, active, archived, and with an active tax rate. */
export async function countriesSummary(ctx: ActorCtx) {
  requirePermission(ctx.actor, 'read_country');
  const [row] = await ctx.db
    .select({
      total: sql<number>`count(*)`,
      active: sql<number>`coalesce(sum(case when ${countries.status} = 'active' then 1 else 0 end), 0)`,
      archived: sql<number>`coalesce(sum(case when ${countries.status} = 'archived' then 1 else 0 end), 0)`,
      with_tax_rate: sql<number>`coalesce(sum(case when exists (select 1 from tax_rates tr where tr.country_id = "countries"."id" and tr.active = 1) then 1 else 0 end), 0)`,
    })
    .from(countries);
  return {
    total: Number(row.total),
    active: Number(row.active),
    archived: Number(row.archived),
    with_tax_rate: Number(row.with_tax_rate),
  };
}

async function findCountry(db: DB, id: number): Promise<CountryRow> {
  const [row] = await db.select().from(countries).where(eq(countries.id, id)).limit(1);
  if (!row) throw new NotFound(msg('countries.errors.not_found'));
  return row;
}

/** One country with its tax rates, newest period first. */
export async function getCountry(ctx: ActorCtx, id: number) {
  requirePermission(ctx.actor, 'read_country');
  const [[row], rates] = await ctx.db.batch([
    ctx.db.select().from(countries).where(eq(countries.id, id)).limit(1),
    ctx.db
      .select()
      .from(taxRates)
      .where(eq(taxRates.country_id, id))
      .orderBy(sql`${taxRates.start_date} desc`, sql`${taxRates.id} desc`),
  ]);
  if (!row) throw new NotFound(msg('countries.errors.not_found'));
  return { ...countryView(row), tax_rates: rates.map(taxRateView) };
}

/** The country's logs tab: its changes and its tax-rate changes, newest first. */
export async function countryActivity(ctx: ActorCtx, id: number, page = 1) {
  requirePermission(ctx.actor, 'read_country');
  await findCountry(ctx.db, id);
  return activityFeed(ctx.db, 'country', id, page);
}

function countryValues(input: CountryInput) {
  return {
    name: input.name,
    abbreviation: input.abbreviation,
    code: input.code,
    dial_code: input.dial_code ?? null,
    capital: input.capital ?? null,
    region_code: input.region_code,
    currency_code: input.currency_code ?? null,
    currency_name: input.currency_name ?? null,
    currency_symbol: input.currency_symbol ?? null,
    language: input.language?.toLowerCase() ?? null,
    age_min: input.age_min ?? null,
    age_max: input.age_max ?? null,
    travel_restriction_notes: input.travel_restriction_notes ?? null,
    stamp_duty_applicable: input.stamp_duty_applicable,
    requires_passport_number: input.requires_passport_number,
  };
}

async function assertUniqueCodes(db: DB, input: CountryInput, exceptId?: number) {
  const clash = await db
    .select({ abbreviation: countries.abbreviation, code: countries.code })
    .from(countries)
    .where(
      and(
        or(eq(countries.abbreviation, input.abbreviation), eq(countries.code, input.code)),
        exceptId ? ne(countries.id, exceptId) : undefined,
      ),
    )
    .limit(2);
  const errors = [];
  if (clash.some((c) => c.abbreviation === input.abbreviation))
    errors.push({ key: 'abbreviation', message: msg('countries.errors.abbreviation_taken') });
  if (clash.some((c) => c.code === input.code))
    errors.push({ key: 'code', message: msg('countries.errors.code_taken') });
  if (errors.length) throw new ValidationFailed(errors);
}

/** countries/add. */
export async function createCountry(ctx: ActorCtx, input: CountryInput) {
  requirePermission(ctx.actor, 'create_country');
  await assertUniqueCodes(ctx.db, input);
  const values = countryValues(input);
  const [row] = await ctx.db
    .insert(countries)
    .values({ ...values, status: 'active', created_at: ctx.now, updated_at: ctx.now })
    .returning();
  await runBatch(ctx.db, [
    logActivity(ctx, { entity_type: 'country', entity_id: row.id, action: 'created', after: values }),
  ]);
  return countryView(row);
}

/** countries/{id}/update: details, age limits, travel restriction notes, stamp duty, passport requirement. */
export async function updateCountry(ctx: ActorCtx, id: number, input: CountryInput) {
  requirePermission(ctx.actor, 'update_country');
  const before = await findCountry(ctx.db, id);
  await assertUniqueCodes(ctx.db, input, id);
  const values = countryValues(input);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(countries)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(countries.id, id))
      .returning(),
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: id,
      action: 'updated',
      before: storedValues(before),
      after: values,
    }),
  ]);
  return countryView(row);
}

function storedValues(row: CountryRow): ReturnType<typeof countryValues> {
  const values = countryValues(row as unknown as CountryInput);
  return Object.fromEntries(Object.keys(values).map((k) => [k, row[k as keyof CountryRow]])) as ReturnType<
    typeof countryValues
  >;
}

/** countries/{id}/status/update: active or archived (archived countries leave the dropdowns). */
export async function updateCountryStatus(ctx: ActorCtx, id: number, status: 'active' | 'archived') {
  requirePermission(ctx.actor, ARCHIVE_PERMISSION.country);
  const before = await findCountry(ctx.db, id);
  if (before.status === status) return countryView(before);
  const [[row]] = await ctx.db.batch([
    ctx.db.update(countries).set({ status, updated_at: ctx.now }).where(eq(countries.id, id)).returning(),
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: id,
      action: status === 'active' ? 'activated' : 'archived',
      before: { status: before.status },
      after: { status },
    }),
  ]);
  return countryView(row);
}

// ---------------------------------------------------------------- tax rates

function rateValues(input: UpdateTaxRateInput, country: CountryRow) {
  const isRate = input.tax_rate !== undefined;
  return {
    rate_bp: isRate ? Math.round(input.tax_rate! * 100) : null,
    amount_minor: isRate ? null : Math.round(input.tax_amount! * 100),
    currency: isRate ? null : (input.currency ?? country.currency_code ?? null),
    start_date: input.start_date,
    end_date: input.end_date ?? null,
  };
}

async function findTaxRate(db: DB, id: number): Promise<TaxRateRow> {
  const [row] = await db.select().from(taxRates).where(eq(taxRates.id, id)).limit(1);
  if (!row) throw new NotFound(msg('countries.errors.tax_rate_not_found'));
  return row;
}

/** countries/tax-rates/add: a new rate starts inactive; activating it is a separate step. */
export async function addTaxRate(ctx: ActorCtx, input: AddTaxRateInput): Promise<TaxRateView> {
  requirePermission(ctx.actor, 'update_country');
  const country = await findCountry(ctx.db, input.country_id);
  const values = rateValues(input, country);
  const [row] = await ctx.db
    .insert(taxRates)
    .values({ ...values, country_id: country.id, active: false, created_at: ctx.now, updated_at: ctx.now })
    .returning();
  await runBatch(ctx.db, [
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: country.id,
      action: 'tax_rate_added',
      after: { tax_rate_id: row.id, ...values },
    }),
  ]);
  return taxRateView(row);
}

/** countries/tax-rates/{id}/update: rate or amount and period; an active rate stays active. */
export async function updateTaxRate(
  ctx: ActorCtx,
  id: number,
  input: UpdateTaxRateInput,
): Promise<TaxRateView> {
  requirePermission(ctx.actor, 'update_country');
  const before = await findTaxRate(ctx.db, id);
  const country = await findCountry(ctx.db, before.country_id);
  const values = rateValues(input, country);
  const [[row]] = await ctx.db.batch([
    ctx.db
      .update(taxRates)
      .set({ ...values, updated_at: ctx.now })
      .where(eq(taxRates.id, id))
      .returning(),
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: country.id,
      action: 'tax_rate_updated',
      before: {
        tax_rate_id: id,
        rate_bp: before.rate_bp,
        amount_minor: before.amount_minor,
        currency: before.currency,
        start_date: before.start_date,
        end_date: before.end_date,
      },
      after: { tax_rate_id: id, ...values },
    }),
  ]);
  return taxRateView(row);
}

/**
 * tax-rates/{id}/activate: only one rate of a country is active at a time, so the others are
 * deactivated in the same batch. Activating the active rate is refused ('This tax rate is already active.').
 */
export async function activateTaxRate(ctx: ActorCtx, id: number): Promise<TaxRateView> {
  requirePermission(ctx.actor, 'update_country');
  const rate = await findTaxRate(ctx.db, id);
  if (rate.active) throw new Conflict(msg('countries.tax_rate_already_active'));
  const [, [row]] = await ctx.db.batch([
    ctx.db
      .update(taxRates)
      .set({ active: false, updated_at: ctx.now })
      .where(and(eq(taxRates.country_id, rate.country_id), eq(taxRates.active, true))),
    ctx.db.update(taxRates).set({ active: true, updated_at: ctx.now }).where(eq(taxRates.id, id)).returning(),
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: rate.country_id,
      action: 'tax_rate_activated',
      after: { tax_rate_id: id },
    }),
  ]);
  return taxRateView(row);
}

/** tax-rates/{id}/delete. */
export async function deleteTaxRate(ctx: ActorCtx, id: number): Promise<void> {
  requirePermission(ctx.actor, 'update_country');
  const rate = await findTaxRate(ctx.db, id);
  await runBatch(ctx.db, [
    ctx.db.delete(taxRates).where(eq(taxRates.id, id)),
    logActivity(ctx, {
      entity_type: 'country',
      entity_id: rate.country_id,
      action: 'tax_rate_deleted',
      before: taxRateView(rate),
    }),
  ]);
}

/**
 * The tax of a country on a date, for ordering: the active rate whose period covers the date
 * (start on or before it, end on or after it or open), or null when none applies.
 */
export async function taxRateFor(
  db: DB,
  countryId: number,
  date: string,
): Promise<{
  id: number;
  rate_bp: number | null;
  amount_minor: number | null;
  currency: string | null;
} | null> {
  const [row] = await db
    .select({
      id: taxRates.id,
      rate_bp: taxRates.rate_bp,
      amount_minor: taxRates.amount_minor,
      currency: taxRates.currency,
    })
    .from(taxRates)
    .where(
      and(
        eq(taxRates.country_id, countryId),
        eq(taxRates.active, true),
        lte(taxRates.start_date, date),
        or(isNull(taxRates.end_date), gte(taxRates.end_date, date)),
      ),
    )
    // Should periods overlap, the rate that started last applies.
    .orderBy(desc(taxRates.start_date), desc(taxRates.id))
    .limit(1);
  return row ?? null;
}
