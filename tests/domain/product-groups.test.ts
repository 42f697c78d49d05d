import { beforeAll, describe, expect, it } from 'vitest';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import { listQuerySchema } from '../../workers/domain/lists';
import { productGroupSchema } from '../../workers/domain/products/schema';
import {
  createProductGroup,
  deleteProductGroup,
  getProductGroup,
  groupProductOptions,
  listProductGroups,
  productGroupActivities,
  updateProductGroup,
} from '../../workers/domain/products/groups';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import {
  errorsOf,
  makeProduct,
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
  createProductGroup(await senior(), productGroupSchema.parse({ name: 'Summer schools', ...raw }));

describe('product groups', () => {
  it('saves name, scheme, type, description and products of the company, and logs it', async () => {
    const a = await makeProduct(await senior(), { name: 'Alpha plan' });
    const b = await makeProduct(await senior(), { name: 'Beta plan' });
    const group = await create({
      name: 'Language schools',
      scheme: 'Study abroad',
      type: 'student',
      description: 'Plans for language schools',
      product_ids: [b.id, a.id, a.id],
    });
    expect(group).toMatchObject({
      name: 'Language schools',
      scheme: 'Study abroad',
      type: 'student',
      description: 'Plans for language schools',
      company: { name: 'Albion Student Insurance Ltd' },
      products: [
        { id: a.id, name: 'Alpha plan' },
        { id: b.id, name: 'Beta plan' },
      ],
    });
    const logs = await productGroupActivities(await senior(), group.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({ action: 'created', after: { name: 'Language schools' } });
  });

  it('requires a name and allows a description of up to 1000 characters', async () => {
    expect(await errorsOf(() => create({ name: '' }))).toEqual([
      { key: 'name', text: 'This field is required' },
    ]);
    expect(await errorsOf(() => create({ description: 'x'.repeat(1001) }))).toEqual([
      { key: 'description', text: 'Maximum allowed number of characters "1000" exceeded.' },
    ]);
    expect((await create({ description: 'x'.repeat(1000) })).description).toHaveLength(1000);
  });

  it('refuses products of another company, and writes nothing', async () => {
    const before = (
      await listProductGroups(await senior(), listQuerySchema.parse({ search: 'Refused group' }))
    ).meta.total;
    expect(
      await errorsOf(() => create({ name: 'Refused group', product_ids: [world.dunmoreProduct.id] })),
    ).toEqual([{ key: 'product_ids', text: "Choose products of the group's company" }]);
    expect(
      (await listProductGroups(await senior(), listQuerySchema.parse({ search: 'Refused group' }))).meta
        .total,
    ).toBe(before);
  });

  it('replaces the products of a group on update and logs the change', async () => {
    const a = await makeProduct(await senior());
    const b = await makeProduct(await senior());
    const group = await create({ name: 'Replace me', product_ids: [a.id] });
    const updated = await updateProductGroup(
      await senior(),
      group.id,
      productGroupSchema.parse({ name: 'Replaced', product_ids: [b.id] }),
    );
    expect(updated.product_ids).toEqual([b.id]);
    expect(updated.name).toBe('Replaced');
    const logs = await productGroupActivities(await senior(), group.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'updated',
      before: { name: 'Replace me', product_ids: [a.id] },
      after: { name: 'Replaced', product_ids: [b.id] },
    });
  });

  it('lists the groups of the company in view with their product counts, searchable and paged', async () => {
    const a = await makeProduct(await senior());
    await create({ name: 'Counted group', product_ids: [a.id] });
    const page = await listProductGroups(
      await senior(),
      listQuerySchema.parse({ search: 'Counted', items: 5 }),
    );
    expect(page.items).toEqual([expect.objectContaining({ name: 'Counted group', products_count: 1 })]);
    expect(page.meta).toMatchObject({ total: 1, per_page: 5 });
    const options = await groupProductOptions(await senior());
    expect(options.some((o) => o.id === a.id)).toBe(true);
    expect(options.some((o) => o.id === world.dunmoreProduct.id)).toBe(false);
  });

  it('deletes a group but not its products', async () => {
    const a = await makeProduct(await senior());
    const group = await create({ name: 'Delete me', product_ids: [a.id] });
    await deleteProductGroup(await senior(), group.id);
    await expect(getProductGroup(await senior(), group.id)).rejects.toBeInstanceOf(NotFound);
    expect((await groupProductOptions(await senior())).some((o) => o.id === a.id)).toBe(true);
  });

  it('is read-only for a user who may only read product groups', async () => {
    const group = await create({ name: 'Read only' });
    const manager = await actorCtx(DEMO_ACCOUNTS.accountManager);
    expect((await getProductGroup(manager, group.id)).name).toBe('Read only');
    await expect(
      updateProductGroup(manager, group.id, productGroupSchema.parse({ name: 'Nope' })),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(deleteProductGroup(manager, group.id)).rejects.toBeInstanceOf(Forbidden);
  });
});
