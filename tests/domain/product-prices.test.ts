import { beforeAll, describe, expect, it } from 'vitest';
import { Forbidden } from '../../workers/domain/errors';
import { priceSchema } from '../../workers/domain/products/schema';
import {
  addPrice,
  deletePrice,
  listPrices,
  overlappingBand,
  pricePeriod,
  updatePrice,
} from '../../workers/domain/products/prices';
import { productActivities } from '../../workers/domain/products/service';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { countryId } from '../../drizzle/seed/builders';
import {
  day,
  errorsOf,
  makeProduct,
  priceInput,
  seedProductsWorld,
  senior,
  sides,
} from '../support/products';
import { db } from '../support/world';

beforeAll(async () => {
  await seedProductsWorld();
}, SETUP_TIMEOUT_MS);

const add = async (productId: string, raw: Record<string, unknown> = {}) =>
  addPrice(await senior(), productId, priceSchema.parse(priceInput(raw)));

describe('price periods', () => {
  const today = '2030-06-15';
  it('calls a price without dates the default price', () => {
    expect(pricePeriod({ from_date: null, to_date: null }, today)).toBe('default');
  });
  it('calls a price whose to date has passed expired', () => {
    expect(pricePeriod({ from_date: '2030-01-01', to_date: '2030-06-14' }, today)).toBe('expired');
    expect(pricePeriod({ from_date: null, to_date: '2030-06-14' }, today)).toBe('expired');
  });
  it('calls a price whose from date is ahead future', () => {
    expect(pricePeriod({ from_date: '2030-06-16', to_date: null }, today)).toBe('future');
  });
  it('calls any other price current, the boundary days included', () => {
    expect(pricePeriod({ from_date: '2030-06-15', to_date: '2030-06-15' }, today)).toBe('current');
    expect(pricePeriod({ from_date: '2030-01-01', to_date: null }, today)).toBe('current');
  });
});

describe('adding prices', () => {
  it('stores money as integer minor units in the product currency, and lists the price with its period', async () => {
    const product = await makeProduct(await senior(), { currency: 'EUR' });
    const price = await add(product.id, { net: '10.10', sale: '12.5', custom: '11', flat: 'on' });
    expect(price).toMatchObject({
      net: 10.1,
      sale: 12.5,
      custom: 11,
      net_minor: 1010,
      sale_minor: 1250,
      custom_minor: 1100,
      currency: 'EUR',
      flat: true,
      period: 'default',
    });
    const future = await add(product.id, { from_date: day(10), to_date: day(40) });
    const listed = await listPrices(await senior(), product.id);
    expect(listed.items.map((p) => [p.id, p.period])).toEqual([
      [price.id, 'default'],
      [future.id, 'future'],
    ]);
    expect((await listPrices(await senior(), product.id, 'future')).items.map((p) => p.id)).toEqual([
      future.id,
    ]);
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'price_added',
      after: { min_days: 6, max_days: 30 },
    });
  });

  it('requires minimum and maximum days as whole numbers, the maximum not below the minimum', async () => {
    const product = await makeProduct(await senior());
    expect(await errorsOf(() => add(product.id, { min_days: '', max_days: '7.5' }))).toEqual([
      { key: 'min_days', text: 'This field is required' },
      { key: 'max_days', text: 'Value must be digit' },
    ]);
    expect(await errorsOf(() => add(product.id, { min_days: 10, max_days: 9 }))).toEqual([
      { key: 'max_days', text: 'Maximum days must be the same or more than the minimum days' },
    ]);
  });

  it("refuses minimum days below the product's minimum purchase", async () => {
    const product = await makeProduct(await senior(), { min_purchase_days: '8' });
    expect(await errorsOf(() => add(product.id, { min_days: 7 }))).toEqual([
      { key: 'min_days', text: "Minimum days must be at least 8, the product's minimum purchase" },
    ]);
    expect((await add(product.id, { min_days: 8 })).min_days).toBe(8);
  });

  it('requires net and sale as numbers, and refuses a sale below the net price', async () => {
    const product = await makeProduct(await senior());
    expect(await errorsOf(() => add(product.id, { net: 'ten', sale: '' }))).toEqual([
      { key: 'net', text: 'Value must be numeric' },
      { key: 'sale', text: 'This field is required' },
    ]);
    expect(await errorsOf(() => add(product.id, { net: '12', sale: '11.99' }))).toEqual([
      { key: 'sale', text: 'Sale price must be the same or more than the net price' },
    ]);
  });

  it('refuses dates in the past and a to date before the from date', async () => {
    const product = await makeProduct(await senior());
    expect(await errorsOf(() => add(product.id, { from_date: day(-1), to_date: day(5) }))).toEqual([
      { key: 'from_date', text: 'Start date should not be in the past' },
    ]);
    expect(await errorsOf(() => add(product.id, { to_date: day(-1) }))).toEqual([
      { key: 'to_date', text: 'End date should not be in the past' },
    ]);
    expect(await errorsOf(() => add(product.id, { from_date: day(9), to_date: day(8) }))).toEqual([
      { key: 'to_date', text: 'To date should be same or after the from date' },
    ]);
    expect((await add(product.id, { from_date: day(9), to_date: day(9) })).period).toBe('future');
  });

  it('refuses a region code and destination countries together, and an unknown region', async () => {
    const product = await makeProduct(await senior());
    const fr = await countryId(db(), 'FR');
    expect(
      await errorsOf(() => add(product.id, { region_code: 'EU', destination_country_ids: [fr] })),
    ).toEqual([
      { key: 'destination_country_ids', text: 'Choose a region or destination countries, not both' },
    ]);
    expect(await errorsOf(() => add(product.id, { region_code: 'XX' }))).toEqual([
      { key: 'region_code', text: 'Choose one of the regions' },
    ]);
    expect(await errorsOf(() => add(product.id, { destination_country_ids: [999999] }))).toEqual([
      { key: 'destination_country_ids', text: 'Choose countries from the list' },
    ]);
    const price = await add(product.id, { destination_country_ids: [String(fr)] });
    expect(price.destination_countries).toEqual([{ id: fr, name: 'France', abbreviation: 'FR' }]);
  });

  it('refuses a band overlapping another of the same period and destination', async () => {
    const product = await makeProduct(await senior());
    await add(product.id, { min_days: 6, max_days: 30 });
    expect(await errorsOf(() => add(product.id, { min_days: 30, max_days: 60 }))).toEqual([
      {
        key: 'min_days',
        text: 'This band overlaps the 6 to 30 days band of another price for the same period and destination',
      },
    ]);
    await add(product.id, { min_days: 31, max_days: 60 });
  });

  it('allows the same days for another destination, another period, or a dated price beside the default', async () => {
    const product = await makeProduct(await senior());
    const fr = await countryId(db(), 'FR');
    const es = await countryId(db(), 'ES');
    await add(product.id, { min_days: 6, max_days: 30 });
    await add(product.id, { min_days: 6, max_days: 30, region_code: 'EU' });
    await add(product.id, { min_days: 6, max_days: 30, region_code: 'AS' });
    await add(product.id, { min_days: 6, max_days: 30, destination_country_ids: [fr] });
    expect(
      await errorsOf(() => add(product.id, { min_days: 6, max_days: 30, destination_country_ids: [es, fr] })),
    ).toHaveLength(1);
    await add(product.id, { min_days: 6, max_days: 30, from_date: day(1), to_date: day(30) });
    await add(product.id, { min_days: 6, max_days: 30, from_date: day(31), to_date: day(60) });
    expect(
      await errorsOf(() => add(product.id, { min_days: 6, max_days: 30, from_date: day(60) })),
    ).toHaveLength(1);
    expect((await listPrices(await senior(), product.id)).items).toHaveLength(6);
  });

  it('treats open-ended dated bands as overlapping every later period', () => {
    const band = { min_days: 1, max_days: 10, region_code: null, destination_country_ids: null };
    expect(
      overlappingBand({ ...band, from_date: '2031-01-01', to_date: null }, [
        { ...band, from_date: null, to_date: '2031-01-01' },
      ]),
    ).toBeDefined();
    expect(
      overlappingBand({ ...band, from_date: '2031-01-02', to_date: null }, [
        { ...band, from_date: null, to_date: '2031-01-01' },
      ]),
    ).toBeUndefined();
  });

  it('is refused to a user who may only read products', async () => {
    const product = await makeProduct(await senior());
    await expect(
      addPrice(await actorCtx(DEMO_ACCOUNTS.finance), product.id, priceSchema.parse(priceInput())),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});

describe('changing and deleting prices', () => {
  it('updates a price without clashing with itself, and logs the change', async () => {
    const product = await makeProduct(await senior());
    const price = await add(product.id, { min_days: 6, max_days: 30 });
    const updated = await updatePrice(
      await senior(),
      product.id,
      price.id,
      priceSchema.parse(priceInput({ max_days: 45, sale: '15' })),
    );
    expect(updated).toMatchObject({ id: price.id, max_days: 45, sale: 15 });
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'price_updated',
      before: { max_days: 30, sale: 12.5 },
      after: { max_days: 45, sale: 15 },
    });
  });

  it('keeps a past from date that is not changed when a price is updated', async () => {
    const product = await makeProduct(await senior());
    const price = await add(product.id, { from_date: day(1), to_date: day(90) });
    const later = { ...(await senior()), now: new Date(Date.now() + 5 * 86_400_000) };
    const updated = await updatePrice(
      later,
      product.id,
      price.id,
      priceSchema.parse(priceInput({ from_date: day(1), to_date: day(90), sale: '20' })),
    );
    expect(updated.sale).toBe(20);
  });

  it('checks the overlap rule against the other prices on update', async () => {
    const product = await makeProduct(await senior());
    await add(product.id, { min_days: 6, max_days: 30 });
    const second = await add(product.id, { min_days: 31, max_days: 60 });
    expect(
      await errorsOf(async () =>
        updatePrice(
          await senior(),
          product.id,
          second.id,
          priceSchema.parse(priceInput({ min_days: 20, max_days: 60 })),
        ),
      ),
    ).toHaveLength(1);
  });

  it('deletes a price and logs it', async () => {
    const product = await makeProduct(await senior());
    const price = await add(product.id);
    await deletePrice(await senior(), product.id, price.id);
    expect((await listPrices(await senior(), product.id)).items).toEqual([]);
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'price_deleted',
      before: { min_days: 6, max_days: 30 },
    });
  });
});
