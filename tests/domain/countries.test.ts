import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, countries, taxRates } from '../../drizzle/schema';
import { BASE_COUNTRIES, REGION_CODES } from '../../drizzle/seed/countries';
import { countryId, seedCountries } from '../../drizzle/seed/builders';
import {
  activateTaxRate,
  activeCountries,
  addTaxRate,
  countriesSummary,
  countryActivity,
  createCountry,
  deleteTaxRate,
  getCountry,
  listCountries,
  taxRateFor,
  updateCountry,
  updateCountryStatus,
  updateTaxRate,
} from '../../workers/domain/countries/service';
import {
  addTaxRateSchema,
  countryListSchema,
  countrySchema,
  updateTaxRateSchema,
} from '../../workers/domain/countries/schema';
import { Conflict, Forbidden, NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, seedUk, SETUP_TIMEOUT_MS } from '../support/world';

let admin: ActorCtx;
let finance: ActorCtx;
let school: ActorCtx;

beforeAll(async () => {
  await seedUk();
  admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  finance = await actorCtx(DEMO_ACCOUNTS.finance);
  school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
}, SETUP_TIMEOUT_MS);

const list = (ctx: ActorCtx, q: Record<string, unknown> = {}) =>
  listCountries(ctx, countryListSchema.parse(q));
const errorsOf = (r: {
  success: boolean;
  error?: { issues: { path: (string | number)[]; message: string }[] };
}) => (r.error?.issues ?? []).map((i) => `${i.path.join('.')}: ${i.message}`);

const baseCountry = {
  name: 'Atlantis',
  abbreviation: 'QZ',
  code: 'QZZ',
  region_code: 'EU',
};

describe('the shipped country list', () => {
  it('has every ISO 3166-1 country and territory: at least 245 rows with unique alpha-2 and alpha-3 codes', () => {
    expect(BASE_COUNTRIES.length).toBeGreaterThanOrEqual(245);
    const a2 = BASE_COUNTRIES.map((c) => c.abbreviation);
    const a3 = BASE_COUNTRIES.map((c) => c.code);
    expect(new Set(a2).size).toBe(a2.length);
    expect(new Set(a3).size).toBe(a3.length);
    expect(a2.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
    expect(a3.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
  });

  it('gives every country a valid region code, and currencies as three letters', () => {
    expect(
      BASE_COUNTRIES.filter((c) => !(REGION_CODES as readonly string[]).includes(c.region_code)),
    ).toEqual([]);
    expect(BASE_COUNTRIES.filter((c) => c.currency_code && !/^[A-Z]{3}$/.test(c.currency_code))).toEqual([]);
    expect(BASE_COUNTRIES.filter((c) => c.dial_code && !/^\d{1,6}$/.test(c.dial_code))).toEqual([]);
  });

  it('includes the United Kingdom and Ireland with their currencies and dial codes', () => {
    const gb = BASE_COUNTRIES.find((c) => c.abbreviation === 'GB')!;
    const ie = BASE_COUNTRIES.find((c) => c.abbreviation === 'IE')!;
    expect(gb).toMatchObject({ code: 'GBR', dial_code: '44', currency_code: 'GBP', region_code: 'EU' });
    expect(ie).toMatchObject({ code: 'IRL', dial_code: '353', currency_code: 'EUR', region_code: 'EU' });
  });

  it('is seeded whole, and seeding again adds nothing', async () => {
    const before = await db().select({ id: countries.id }).from(countries);
    expect(before.length).toBe(BASE_COUNTRIES.length);
    await seedCountries(db());
    const after = await db().select({ id: countries.id }).from(countries);
    expect(after.length).toBe(before.length);
  });
});

describe('countries list', () => {
  it('needs read_country: a school user is refused', async () => {
    await expect(list(school)).rejects.toBeInstanceOf(Forbidden);
    await expect(countriesSummary(school)).rejects.toBeInstanceOf(Forbidden);
  });

  it('pages the list with meta and sorts by name by default', async () => {
    const page = await list(finance, { items: 10, page: 2 });
    expect(page.items).toHaveLength(10);
    expect(page.meta).toMatchObject({
      current_page: 2,
      per_page: 10,
      from: 11,
      to: 20,
      total: BASE_COUNTRIES.length,
    });
    const names = page.items.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : 1)));
  });

  it('filters by search term, region and status', async () => {
    const found = await list(finance, { search: 'irel' });
    expect(found.items.map((c) => c.abbreviation)).toEqual(['IE']);
    const oceania = await list(finance, { region_code: 'OC', items: 500 });
    expect(oceania.items.length).toBeGreaterThan(10);
    expect(oceania.items.every((c) => c.region_code === 'OC')).toBe(true);
    const archived = await list(finance, { status: 'archived' });
    expect(archived.items.every((c) => c.status === 'archived')).toBe(true);
  });

  it('sorts only by whitelisted fields, descending when asked', async () => {
    const desc = await list(finance, { order: 'code_desc', items: 3 });
    expect(desc.items.map((c) => c.code)).toEqual(['ZWE', 'ZMB', 'ZAF']);
    const bogus = await list(finance, { order: 'name; drop table countries_asc', items: 1 });
    expect(bogus.items[0].name).toBe('Afghanistan');
  });
});

describe('country changes', () => {
  it('adds a country and refuses a second one with the same abbreviation or code', async () => {
    const created = await createCountry(admin, countrySchema.parse(baseCountry));
    expect(created).toMatchObject({ name: 'Atlantis', abbreviation: 'QZ', status: 'active' });
    const again = createCountry(admin, countrySchema.parse({ ...baseCountry, name: 'Atlantis Two' }));
    await expect(again).rejects.toBeInstanceOf(ValidationFailed);
    await again.catch((e: ValidationFailed) =>
      expect(e.errors.map((x) => x.message)).toEqual([
        'countries.errors.abbreviation_taken',
        'countries.errors.code_taken',
      ]),
    );
  });

  it('refuses to add a country without create_country', async () => {
    await expect(
      createCountry(finance, countrySchema.parse({ ...baseCountry, abbreviation: 'QY', code: 'QYY' })),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('requires travel restriction notes of at least 5 characters when given', () => {
    const short = countrySchema.safeParse({ ...baseCountry, travel_restriction_notes: 'Visa' });
    expect(errorsOf(short)).toEqual(['travel_restriction_notes: validation.min|{"length":5}']);
    expect(countrySchema.safeParse({ ...baseCountry, travel_restriction_notes: '' }).success).toBe(true);
    expect(
      countrySchema.safeParse({ ...baseCountry, travel_restriction_notes: 'Visa required' }).success,
    ).toBe(true);
  });

  it('refuses a maximum age below the minimum age', () => {
    const r = countrySchema.safeParse({ ...baseCountry, age_min: '30', age_max: '18' });
    expect(errorsOf(r)).toEqual(['age_max: countries.errors.age_order']);
  });

  it('saves age limits, notes, stamp duty and passport requirement, with a log row of what changed', async () => {
    const id = await countryId(db(), 'ES');
    const before = await getCountry(admin, id);
    const input = countrySchema.parse({
      ...before,
      age_min: '16',
      age_max: '70',
      travel_restriction_notes: 'Schengen rules apply.',
      stamp_duty_applicable: 'on',
      requires_passport_number: 'on',
    });
    const saved = await updateCountry(admin, id, input);
    expect(saved).toMatchObject({
      age_min: 16,
      age_max: 70,
      travel_restriction_notes: 'Schengen rules apply.',
      stamp_duty_applicable: true,
      requires_passport_number: true,
      name: 'Spain',
    });
    const [log] = await db()
      .select()
      .from(activityLogs)
      .where(
        and(
          eq(activityLogs.entity_type, 'country'),
          eq(activityLogs.entity_id, id),
          eq(activityLogs.action, 'updated'),
        ),
      );
    expect(log.before).toMatchObject({ age_min: null, stamp_duty_applicable: false });
    expect(log.after).toMatchObject({ age_min: 16, stamp_duty_applicable: true });
    expect(log.after).not.toHaveProperty('name');
  });

  it('answers not found for a country id that does not exist', async () => {
    await expect(getCountry(admin, 999_999)).rejects.toBeInstanceOf(NotFound);
    await expect(updateCountryStatus(admin, 999_999, 'archived')).rejects.toBeInstanceOf(NotFound);
  });

  it('archives a country: it leaves the dropdown list, and activating brings it back', async () => {
    const id = await countryId(db(), 'AQ');
    await updateCountryStatus(admin, id, 'archived');
    expect((await activeCountries(db())).some((c) => c.abbreviation === 'AQ')).toBe(false);
    expect((await countriesSummary(admin)).archived).toBeGreaterThanOrEqual(1);
    await updateCountryStatus(admin, id, 'active');
    expect((await activeCountries(db())).some((c) => c.abbreviation === 'AQ')).toBe(true);
  });
});

describe('tax rate rules', () => {
  const rate = (v: Record<string, unknown>) =>
    updateTaxRateSchema.safeParse({ start_date: '2026-01-01', ...v });

  it('accepts a tax rate only as a number greater than 0 and below 100', () => {
    for (const bad of ['0', '100', '-5', '150', 'abc'])
      expect(errorsOf(rate({ tax_rate: bad })), bad).toEqual(['tax_rate: validation.tax_rate']);
    expect(rate({ tax_rate: '0.01' }).success).toBe(true);
    expect(rate({ tax_rate: '99.99' }).success).toBe(true);
  });

  it('accepts a tax amount only greater than 0', () => {
    for (const bad of ['0', '-1', 'ten'])
      expect(errorsOf(rate({ tax_amount: bad })), bad).toEqual(['tax_amount: validation.tax_amount']);
    expect(rate({ tax_amount: '2.50' }).success).toBe(true);
  });

  it('needs either a rate or an amount, not both', () => {
    expect(errorsOf(rate({}))).toEqual(['tax_rate: countries.errors.rate_or_amount']);
    expect(errorsOf(rate({ tax_rate: '10', tax_amount: '5' }))).toEqual([
      'tax_amount: countries.errors.rate_and_amount',
    ]);
  });

  it('requires a start date and an end date not before it', () => {
    expect(errorsOf(updateTaxRateSchema.safeParse({ tax_rate: '10' }))).toEqual([
      'start_date: validation.required',
    ]);
    expect(errorsOf(rate({ tax_rate: '10', end_date: '2025-12-31' }))).toEqual([
      'end_date: validation.end_after_start',
    ]);
    expect(rate({ tax_rate: '10', end_date: '2026-01-01' }).success).toBe(true);
  });
});

describe('tax rates', () => {
  let fr: number;
  let de: number;
  beforeAll(async () => {
    fr = await countryId(db(), 'FR');
    de = await countryId(db(), 'DE');
  });
  const add = (ctx: ActorCtx, v: Record<string, unknown>) => addTaxRate(ctx, addTaxRateSchema.parse(v));

  it('stores a rate in hundredths of a percent, and a new rate starts inactive', async () => {
    const r = await add(admin, { country_id: fr, tax_rate: '12.5', start_date: '2026-01-01' });
    expect(r).toMatchObject({ tax_rate: 12.5, tax_amount: null, active: false, status: 'inactive' });
    const [row] = await db().select().from(taxRates).where(eq(taxRates.id, r.id));
    expect(row.rate_bp).toBe(1250);
  });

  it('stores a flat amount in minor units in the country currency unless another is given', async () => {
    const r = await add(admin, { country_id: fr, tax_amount: '3.75', start_date: '2026-01-01' });
    expect(r).toMatchObject({ tax_amount: 3.75, currency: 'EUR', tax_rate: null });
    const [row] = await db().select().from(taxRates).where(eq(taxRates.id, r.id));
    expect(row.amount_minor).toBe(375);
  });

  it('refuses tax-rate changes without update_country', async () => {
    await expect(
      add(finance, { country_id: fr, tax_rate: '5', start_date: '2026-01-01' }),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('answers not found for a tax rate of an unknown country', async () => {
    await expect(
      add(admin, { country_id: 999_999, tax_rate: '5', start_date: '2026-01-01' }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('keeps only one active rate per country: activating one deactivates the other, in that country only', async () => {
    const deRate = await add(admin, { country_id: de, tax_rate: '19', start_date: '2026-01-01' });
    await activateTaxRate(admin, deRate.id);
    const first = await add(admin, { country_id: fr, tax_rate: '20', start_date: '2025-01-01' });
    const second = await add(admin, { country_id: fr, tax_rate: '21', start_date: '2026-01-01' });
    await activateTaxRate(admin, first.id);
    await activateTaxRate(admin, second.id);
    const active = await db()
      .select({ id: taxRates.id })
      .from(taxRates)
      .where(and(eq(taxRates.country_id, fr), eq(taxRates.active, true)));
    expect(active.map((r) => r.id)).toEqual([second.id]);
    const [deRow] = await db().select().from(taxRates).where(eq(taxRates.id, deRate.id));
    expect(deRow.active).toBe(true);
  });

  it("refuses to activate the active rate: 'This tax rate is already active.'", async () => {
    const r = await add(admin, { country_id: de, tax_rate: '7', start_date: '2026-01-01' });
    await activateTaxRate(admin, r.id);
    const again = activateTaxRate(admin, r.id);
    await expect(again).rejects.toBeInstanceOf(Conflict);
    await again.catch((e: Conflict) => expect(e.message).toBe('countries.tax_rate_already_active'));
  });

  it('updates a rate: an active rate stays active and the change is logged on the country', async () => {
    const r = await add(admin, { country_id: de, tax_rate: '8', start_date: '2026-01-01' });
    await activateTaxRate(admin, r.id);
    const updated = await updateTaxRate(
      admin,
      r.id,
      updateTaxRateSchema.parse({ tax_rate: '9.25', start_date: '2026-02-01', end_date: '2026-12-31' }),
    );
    expect(updated).toMatchObject({
      tax_rate: 9.25,
      start_date: '2026-02-01',
      end_date: '2026-12-31',
      active: true,
    });
    const logs = await db()
      .select({ action: activityLogs.action })
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'country'), eq(activityLogs.entity_id, de)));
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining(['tax_rate_added', 'tax_rate_activated', 'tax_rate_updated']),
    );
  });

  it("shows the tax-rate changes in the country's logs tab, newest first", async () => {
    const feed = await countryActivity(admin, de);
    expect(feed.items.slice(0, 3).map((r) => r.action)).toEqual([
      'tax_rate_updated',
      'tax_rate_activated',
      'tax_rate_added',
    ]);
    expect(feed.items[0].actor).toBe('Sarah Senior');
    await expect(countryActivity(school, de)).rejects.toBeInstanceOf(Forbidden);
  });

  it('deletes a rate and logs it; a deleted rate is then not found', async () => {
    const r = await add(admin, { country_id: fr, tax_rate: '4', start_date: '2026-01-01' });
    await deleteTaxRate(admin, r.id);
    expect(await db().select().from(taxRates).where(eq(taxRates.id, r.id))).toEqual([]);
    await expect(deleteTaxRate(admin, r.id)).rejects.toBeInstanceOf(NotFound);
    await expect(activateTaxRate(admin, r.id)).rejects.toBeInstanceOf(NotFound);
  });

  it('shows the active rate in the list and the summary', async () => {
    const page = await list(finance, { search: 'germany' });
    expect(page.items[0].tax_rate).toBe(9.25);
    expect((await list(finance, { search: 'france' })).items[0].tax_rate).toBe(21);
    expect((await list(finance, { search: 'japan' })).items[0].tax_rate).toBeNull();
    expect((await countriesSummary(finance)).with_tax_rate).toBeGreaterThanOrEqual(2);
  });
});

describe('taxRateFor (ordering)', () => {
  let it_: number;
  beforeAll(async () => {
    it_ = await countryId(db(), 'IT');
  });

  it('answers the active rate whose period covers the date, and null outside it or without an active rate', async () => {
    expect(await taxRateFor(db(), it_, '2026-06-01')).toBeNull();
    const old = await addTaxRate(
      admin,
      addTaxRateSchema.parse({ country_id: it_, tax_rate: '10', start_date: '2020-01-01' }),
    );
    const current = await addTaxRate(
      admin,
      addTaxRateSchema.parse({
        country_id: it_,
        tax_rate: '22',
        start_date: '2026-01-01',
        end_date: '2026-12-31',
      }),
    );
    expect(await taxRateFor(db(), it_, '2026-06-01')).toBeNull();
    await activateTaxRate(admin, current.id);
    expect(await taxRateFor(db(), it_, '2026-01-01')).toMatchObject({ id: current.id, rate_bp: 2200 });
    expect(await taxRateFor(db(), it_, '2026-12-31')).toMatchObject({ id: current.id });
    expect(await taxRateFor(db(), it_, '2025-12-31')).toBeNull();
    expect(await taxRateFor(db(), it_, '2027-01-01')).toBeNull();
    await activateTaxRate(admin, old.id);
    expect(await taxRateFor(db(), it_, '2030-05-05')).toMatchObject({ id: old.id, rate_bp: 1000 });
  });
});
