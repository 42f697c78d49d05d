import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, products } from '../../drizzle/schema';
import { Forbidden } from '../../workers/domain/errors';
import {
  createProductSchema,
  productListQuerySchema,
  updateProductSchema,
} from '../../workers/domain/products/schema';
import {
  activateProduct,
  archiveProduct,
  bulkSetProductStatus,
  createProduct,
  getProduct,
  listProducts,
  listUnits,
  productActivities,
  productSummary,
  updateProduct,
} from '../../workers/domain/products/service';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import {
  day,
  errorsOf,
  nextCode,
  productInput,
  seedProductsWorld,
  senior,
  sides,
  type ProductsWorld,
} from '../support/products';

let world: ProductsWorld;
beforeAll(async () => {
  world = await seedProductsWorld();
}, SETUP_TIMEOUT_MS);

const create = async (raw: Record<string, unknown>) =>
  createProduct(await senior(), createProductSchema.parse(productInput(raw)));
const update = async (id: string, raw: Record<string, unknown>) =>
  updateProduct(await senior(), id, updateProductSchema.parse(raw));
const list = async (raw: Record<string, unknown>) =>
  listProducts(await senior(), productListQuerySchema.parse(raw));

describe('units', () => {
  it('lists the seeded units day, week, month and year with their days', async () => {
    const units = await listUnits(await senior());
    expect(units.map((u) => [u.name, u.days])).toEqual([
      ['day', 1],
      ['week', 7],
      ['month', 30],
      ['year', 365],
    ]);
  });
});

describe('creating a product', () => {
  it('saves every field of the product, in the company in view, and logs the creation', async () => {
    const [unit] = await listUnits(await senior());
    const product = await create({
      code: 'stu_plus_1',
      name: 'Student Plus',
      description: 'Cover for students abroad',
      type: 'student',
      policy_type: 'group',
      scheme: 'Study abroad',
      cover_type: 'comprehensive',
      territorial_limit: 'business_trip',
      currency: 'EUR',
      unit_id: String(unit.id),
      insurer_id: world.albionInsurer.public_id,
      max_coverage_amount: '1,000,000.50',
      max_enrolment_period_days: '365',
      max_term_days: '730',
      min_purchase_days: '7',
      insured_age_min: '16',
      insured_age_max: '70',
      master_certificate_number: 'MC-1',
      claim_email: 'Claims@Example.test',
      claim_phone: '+44 20 7946 0000',
      claim_details: 'Call first',
      medical_assistance_email: 'med@example.test',
      medical_assistance_phone: '0044 20 7946 0001',
      coverage_limits: [
        { benefit: 'Medical', limit: '£5,000,000', excess: '£100' },
        { benefit: 'Baggage', limit: '£1,500' },
      ],
    });
    expect(product).toMatchObject({
      code: 'STU_PLUS_1',
      name: 'Student Plus',
      status: 'active',
      currency: 'EUR',
      max_coverage_amount: 1000000.5,
      max_coverage_amount_minor: 100000050,
      min_purchase_days: 7,
      insured_age_min: 16,
      insured_age_max: 70,
      claim_email: 'claims@example.test',
      claim_phone: '+442079460000',
      medical_assistance_phone: '00442079460001',
      unit: { name: 'day', days: 1 },
      company: { name: 'Albion Student Insurance Ltd' },
      insurer: { id: world.albionInsurer.public_id, name: 'Lloyds Syndicate 1234' },
      coverage_limits: [
        { benefit: 'Medical', limit: '£5,000,000', excess: '£100' },
        { benefit: 'Baggage', limit: '£1,500' },
      ],
    });
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 25 });
    expect(logs.items.map((l) => l.action)).toEqual(['created']);
    expect(logs.items[0].actor).toBe('Sarah Senior');
    const logged = sides(logs.items[0]).after;
    expect(logged).toMatchObject({
      code: 'STU_PLUS_1',
      name: 'Student Plus',
      insurer: 'Lloyds Syndicate 1234',
      unit: 'day',
      max_coverage_amount: 1000000.5,
    });
    expect(Object.keys(logged)).not.toContain('public_id');
    expect(Object.keys(logged)).not.toContain('company_id');
  });

  it('takes the company currency and a minimum purchase of 6 days when none is given', async () => {
    const product = await create({ currency: undefined, min_purchase_days: undefined });
    expect(product.currency).toBe('GBP');
    expect(product.min_purchase_days).toBe(6);
  });

  it('requires the effective start date', async () => {
    expect(await errorsOf(() => create({ effective_start_date: '' }))).toContainEqual({
      key: 'effective_start_date',
      text: 'This field is required',
    });
  });

  it('refuses an effective start date in the past', async () => {
    expect(await errorsOf(() => create({ effective_start_date: day(-1) }))).toEqual([
      { key: 'effective_start_date', text: 'Start date should not be in the past' },
    ]);
  });

  it('accepts today as the effective start date', async () => {
    expect((await create({ effective_start_date: day(0) })).effective_start_date).toBe(day(0));
  });

  it('refuses an end date before the start date', async () => {
    expect(
      await errorsOf(() => create({ effective_start_date: day(10), effective_end_date: day(9) })),
    ).toEqual([{ key: 'effective_end_date', text: 'End date should be after the start date' }]);
  });

  it('refuses an end date in the past', async () => {
    const product = await create({ effective_start_date: day(1), effective_end_date: day(100) });
    const later = { ...(await senior()), now: new Date(Date.now() + 10 * 86_400_000) };
    expect(
      await errorsOf(() =>
        updateProduct(later, product.id, updateProductSchema.parse({ effective_end_date: day(5) })),
      ),
    ).toEqual([{ key: 'effective_end_date', text: 'End date should not be in the past' }]);
  });

  it('refuses a minimum purchase below 6 days', async () => {
    expect(await errorsOf(() => create({ min_purchase_days: '5' }))).toEqual([
      { key: 'min_purchase_days', text: 'Minimum purchase must be at least 6 days' },
    ]);
  });

  it('refuses a maximum age that is not greater than the minimum age', async () => {
    for (const max of ['30', '29']) {
      expect(await errorsOf(() => create({ insured_age_min: '30', insured_age_max: max }))).toEqual([
        { key: 'insured_age_max', text: 'Maximum age must be greater than the minimum age' },
      ]);
    }
  });

  it('refuses a product code that is not 1 to 20 letters, digits or underscores', async () => {
    for (const code of ['A-1', 'ABCDEFGHIJKLMNOPQRSTU', 'with space']) {
      expect(await errorsOf(() => create({ code }))).toEqual([
        { key: 'code', text: 'Product code may only contain letters, digits or underscores (1 to 20).' },
      ]);
    }
    expect(await errorsOf(() => create({ code: '' }))).toEqual([
      { key: 'code', text: 'This field is required' },
    ]);
    expect((await create({ code: 'a_1' })).code).toBe('A_1');
  });

  it('refuses a code used by another product of the same company, in any letter case', async () => {
    const code = nextCode('DUP');
    await create({ code });
    expect(await errorsOf(() => create({ code: code.toLowerCase() }))).toEqual([
      { key: 'code', text: 'This product code is already used by another product of the company.' },
    ]);
  });

  it('allows the same code in another company', async () => {
    const code = nextCode('SHARED');
    await create({ code });
    const admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const other = await createProduct(
      { ...admin, actor: { ...admin.actor, selected_company_id: world.britanniaId } },
      createProductSchema.parse(productInput({ code })),
    );
    expect(other.company.name).toBe('Britannia Travel Cover Ltd');
  });

  it('refuses an insurer of another company', async () => {
    expect(await errorsOf(() => create({ insurer_id: world.britanniaInsurer.public_id }))).toEqual([
      { key: 'insurer_id', text: "Choose an insurer of the product's company" },
    ]);
  });

  it('refuses a user who may only read products', async () => {
    const executive = await actorCtx(DEMO_ACCOUNTS.executive);
    await expect(createProduct(executive, createProductSchema.parse(productInput()))).rejects.toBeInstanceOf(
      Forbidden,
    );
  });

  it('writes nothing when a rule fails', async () => {
    const code = nextCode('NONE');
    await errorsOf(() => create({ code, effective_start_date: day(-5) }));
    expect(await db().select().from(products).where(eq(products.code, code))).toEqual([]);
  });
});

describe('updating a product', () => {
  it('changes only the fields given, clears a field given as empty, and logs what changed', async () => {
    const product = await create({ description: 'Old', scheme: 'Scheme A' });
    const updated = await update(product.id, { name: 'Renamed', description: '' });
    expect(updated).toMatchObject({
      name: 'Renamed',
      description: null,
      scheme: 'Scheme A',
      code: product.code,
    });
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 25 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'updated',
      before: { name: 'Student Travel Plus', description: 'Old' },
      after: { name: 'Renamed', description: null },
    });
  });

  it('allows editing a product whose start date has passed, as long as the date is not changed', async () => {
    const product = await create({ effective_start_date: day(2) });
    const later = { ...(await senior()), now: new Date(Date.now() + 5 * 86_400_000) };
    const updated = await updateProduct(
      later,
      product.id,
      updateProductSchema.parse({ name: 'Still editable' }),
    );
    expect(updated.name).toBe('Still editable');
    expect(
      await errorsOf(() =>
        updateProduct(later, product.id, updateProductSchema.parse({ effective_start_date: day(3) })),
      ),
    ).toEqual([{ key: 'effective_start_date', text: 'Start date should not be in the past' }]);
  });

  it('checks a new maximum age against the stored minimum age', async () => {
    const product = await create({ insured_age_min: '18', insured_age_max: '60' });
    expect(await errorsOf(() => update(product.id, { insured_age_max: '18' }))).toEqual([
      { key: 'insured_age_max', text: 'Maximum age must be greater than the minimum age' },
    ]);
  });

  it('checks a new end date against the stored start date', async () => {
    const product = await create({ effective_start_date: day(20), effective_end_date: day(100) });
    expect(await errorsOf(() => update(product.id, { effective_end_date: day(10) }))).toEqual([
      { key: 'effective_end_date', text: 'End date should be after the start date' },
    ]);
  });

  it('saves the beneficiary cover limits as a list of benefit, limit and excess', async () => {
    const product = await create({});
    const updated = await update(product.id, {
      coverage_limits: [
        { benefit: 'Emergency medical', limit: '10,000,000', excess: '' },
        { benefit: 'Personal liability', limit: '2,000,000', excess: '250' },
      ],
    });
    expect(updated.coverage_limits).toEqual([
      { benefit: 'Emergency medical', limit: '10,000,000' },
      { benefit: 'Personal liability', limit: '2,000,000', excess: '250' },
    ]);
    expect(
      await errorsOf(() => update(product.id, { coverage_limits: [{ benefit: '', limit: '1' }] })),
    ).toEqual([{ key: 'coverage_limits.0.benefit', text: 'This field is required' }]);
    expect((await update(product.id, { coverage_limits: [] })).coverage_limits).toEqual([]);
  });
});

describe('activating and archiving', () => {
  it('archives an active product and activates it again, logging each change', async () => {
    const product = await create({});
    expect((await archiveProduct(await senior(), product.id)).status).toBe('archived');
    expect((await activateProduct(await senior(), product.id)).status).toBe('active');
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 25 });
    expect(logs.items.map((l) => l.action)).toEqual(['activated', 'archived', 'created']);
  });

  it('changes and logs nothing when the product already has the status', async () => {
    const product = await create({});
    await activateProduct(await senior(), product.id);
    const rows = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'product'), eq(activityLogs.entity_id, product.id_numeric)));
    expect(rows.map((r) => r.action)).toEqual(['created']);
  });

  it('is refused to a user who may only read products', async () => {
    const product = await create({});
    await expect(archiveProduct(await actorCtx(DEMO_ACCOUNTS.finance), product.id)).rejects.toBeInstanceOf(
      Forbidden,
    );
  });
});

describe('bulk activate and archive', () => {
  it('archives the selected products, leaving alone those already archived and those of other tenants', async () => {
    const a = await create({});
    const b = await create({});
    const c = await create({});
    await archiveProduct(await senior(), c.id);
    const result = await bulkSetProductStatus(
      await senior(),
      { all_matching: false, ids: [a.id, b.id, c.id, world.dunmoreProduct.id] },
      productListQuerySchema.parse({}),
      'archived',
    );
    expect(result.changed).toBe(2);
    expect((await getProduct(await senior(), a.id)).status).toBe('archived');
    expect((await getProduct(await senior(), b.id)).status).toBe('archived');
    const dunmore = await getProduct(await actorCtx('dunmore.admin@dunmore.test'), world.dunmoreProduct.id);
    expect(dunmore.status).toBe('active');
    const logs = await productActivities(await senior(), a.id, { page: 1, items: 5 });
    expect(logs.items[0].action).toBe('archived');
  });

  it('activates every product matching the filters when "all matching" is chosen', async () => {
    const tag = nextCode('BULK');
    const a = await create({ code: `${tag}_1` });
    const b = await create({ code: `${tag}_2` });
    const other = await create({});
    for (const id of [a.id, b.id, other.id]) await archiveProduct(await senior(), id);
    const result = await bulkSetProductStatus(
      await senior(),
      { all_matching: true },
      productListQuerySchema.parse({ search: tag }),
      'active',
    );
    expect(result.changed).toBe(2);
    expect((await getProduct(await senior(), a.id)).status).toBe('active');
    expect((await getProduct(await senior(), other.id)).status).toBe('archived');
  });

  it('is refused to a user who may not archive products', async () => {
    await expect(
      bulkSetProductStatus(
        await actorCtx(DEMO_ACCOUNTS.finance),
        { all_matching: true },
        productListQuerySchema.parse({}),
        'archived',
      ),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('the product list', () => {
  let tag: string;
  let ids: Record<string, string>;
  beforeAll(async () => {
    tag = nextCode('LST');
    const a = await create({
      code: `${tag}_A`,
      name: `${tag} Alpha`,
      territorial_limit: 'domestic',
      insurer_id: world.albionInsurer.public_id,
      effective_start_date: day(5),
      effective_end_date: day(20),
    });
    const b = await create({
      code: `${tag}_B`,
      name: `${tag} Bravo`,
      territorial_limit: 'international',
      effective_start_date: day(40),
      effective_end_date: day(300),
    });
    const c = await create({
      code: `${tag}_C`,
      name: `${tag} Charlie`,
      territorial_limit: 'domestic',
      effective_start_date: day(1),
      effective_end_date: null,
    });
    await archiveProduct(await senior(), c.id);
    ids = { a: a.id, b: b.id, c: c.id };
  });

  it('searches by code and name, filters by status, insurer and territorial limit', async () => {
    expect((await list({ search: tag })).meta.total).toBe(3);
    expect((await list({ search: `${tag}_B` })).items.map((p) => p.id)).toEqual([ids.b]);
    expect((await list({ search: tag, status: 'archived' })).items.map((p) => p.id)).toEqual([ids.c]);
    expect(
      (await list({ search: tag, insurer: world.albionInsurer.public_id })).items.map((p) => p.id),
    ).toEqual([ids.a]);
    expect(
      (await list({ search: tag, territorial_limit: 'domestic' })).items.map((p) => p.id).sort(),
    ).toEqual([ids.a, ids.c].sort());
  });

  it('filters by effective dates and by "expiring within 30 days"', async () => {
    expect((await list({ search: tag, effective_from: day(30) })).items.map((p) => p.id)).toEqual([ids.b]);
    expect((await list({ search: tag, effective_to: day(25) })).items.map((p) => p.id)).toEqual([ids.a]);
    expect((await list({ search: tag, expiring: '1' })).items.map((p) => p.id)).toEqual([ids.a]);
  });

  it('sorts on the server by a whitelisted column and pages with meta', async () => {
    const desc = await list({ search: tag, order: 'name_desc', items: 2 });
    expect(desc.items.map((p) => p.id)).toEqual([ids.c, ids.b]);
    expect(desc.meta).toMatchObject({ total: 3, per_page: 2, current_page: 1, last_page: 2, from: 1, to: 2 });
    const second = await list({ search: tag, order: 'name_desc', items: 2, page: 2 });
    expect(second.items.map((p) => p.id)).toEqual([ids.a]);
    const ignored = await list({ search: tag, order: 'drop table_asc' });
    expect(ignored.items.map((p) => p.id)).toEqual([ids.a, ids.b, ids.c]);
    const byInsurer = await list({ search: tag, order: 'insurer_asc' });
    expect(byInsurer.items[2].id).toBe(ids.a);
  });

  it('shows only the products of the company in view', async () => {
    const admin = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const britannia = { ...admin, actor: { ...admin.actor, selected_company_id: world.britanniaId } };
    const seen = await listProducts(britannia, productListQuerySchema.parse({ search: tag }));
    expect(seen.meta.total).toBe(0);
  });

  it('counts active, archived and expiring products in the summary', async () => {
    const before = await productSummary(await senior());
    const soon = await create({ effective_start_date: day(0), effective_end_date: day(30) });
    await create({ effective_start_date: day(0), effective_end_date: day(31) });
    const archived = await create({ effective_start_date: day(0), effective_end_date: day(10) });
    await archiveProduct(await senior(), archived.id);
    const after = await productSummary(await senior());
    expect(after.active - before.active).toBe(2);
    expect(after.archived - before.archived).toBe(1);
    expect(after.expiring - before.expiring).toBe(1);
    expect(soon.status).toBe('active');
  });
});

describe('reading a product', () => {
  it('answers the company and insurer of the product for the company details tab', async () => {
    const product = await create({ insurer_id: world.albionInsurer.public_id });
    const read = await getProduct(await actorCtx(DEMO_ACCOUNTS.finance), product.id);
    expect(read.company).toMatchObject({
      name: 'Albion Student Insurance Ltd',
      currency: 'GBP',
      country_name: 'United Kingdom',
    });
    expect(read.insurer).toMatchObject({ name: 'Lloyds Syndicate 1234', email: 'claims@example.test' });
  });
});
