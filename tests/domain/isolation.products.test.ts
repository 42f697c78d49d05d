/**
 * Tenant isolation of products, prices, documents and product groups: for every service function of
 * the area that takes an id, a company user and a school user of ANOTHER company get "not found" (never
 * "forbidden", never the data). The school user's role holds every product permission, so only the
 * tenant scope keeps them out; an administrator of the seed's second company too. The owner's calls with the same ids succeed, so the ids are real.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { NotFound, ValidationFailed } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import {
  activateProduct,
  archiveProduct,
  createProduct,
  getProduct,
  listProducts,
  productActivities,
  updateProduct,
} from '../../workers/domain/products/service';
import { addPrice, deletePrice, listPrices, updatePrice } from '../../workers/domain/products/prices';
import {
  addDocument,
  deleteDocument,
  downloadDocument,
  listDocuments,
  updateDocument,
} from '../../workers/domain/products/documents';
import {
  createProductGroup,
  deleteProductGroup,
  getProductGroup,
  productGroupActivities,
  updateProductGroup,
} from '../../workers/domain/products/groups';
import {
  createProductSchema,
  documentSchema,
  priceSchema,
  productGroupSchema,
  productListQuerySchema,
  updateProductSchema,
} from '../../workers/domain/products/schema';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { fileOf, pdfBytes } from '../support/files';
import {
  documentInput,
  DUNMORE,
  makeDocument,
  makeGroup,
  makePrice,
  makeProduct,
  priceInput,
  productInput,
  seedProductsWorld,
  type ProductsWorld,
} from '../support/products';

interface Ids {
  product: string;
  price: number;
  document: number;
  group: string;
  insurer: string;
  company: string;
}

let world: ProductsWorld;
let ids: Ids;
const strangers: Record<string, ActorCtx> = {};

beforeAll(async () => {
  world = await seedProductsWorld();
  const owner = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  const product = await makeProduct(owner, { insurer_id: world.albionInsurer.public_id });
  const price = await makePrice(owner, product.id);
  const document = await makeDocument(owner, product.id);
  const group = await makeGroup(owner, { product_ids: [product.id] });
  ids = {
    product: product.id,
    price: price.id,
    document: document.id,
    group: group.id,
    insurer: world.albionInsurer.public_id,
    company: owner.actor.companies.find((c) => c.id === world.albionId)!.public_id,
  };
  strangers['a company user of another company'] = await actorCtx(DUNMORE.companyUser);
  strangers['a school user of another company'] = await actorCtx(DUNMORE.schoolUser);
  const [britannia] = await db()
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  await buildUser(db(), {
    email: 'admin@britannia.test',
    first_name: 'Bea',
    last_name: 'Britannia',
    roles: ['administrator'],
    companyIds: [britannia.id],
  });
  strangers['an administrator of the second company'] = await actorCtx('admin@britannia.test');
}, SETUP_TIMEOUT_MS);

const price = () => priceSchema.parse(priceInput({ min_days: 100, max_days: 120 }));
const doc = () => documentSchema.parse(documentInput());
const pdf = () => fileOf(pdfBytes(), 'x.pdf');

/** Every id-taking call of the area. `safe` calls change nothing, so the owner can run them as a control. */
const CALLS: { name: string; safe: boolean; run: (ctx: ActorCtx, ids: Ids) => Promise<unknown> }[] = [
  { name: 'getProduct', safe: true, run: (c, i) => getProduct(c, i.product) },
  {
    name: 'updateProduct',
    safe: true,
    run: (c, i) => updateProduct(c, i.product, updateProductSchema.parse({})),
  },
  { name: 'activateProduct', safe: true, run: (c, i) => activateProduct(c, i.product) },
  { name: 'archiveProduct', safe: false, run: (c, i) => archiveProduct(c, i.product) },
  {
    name: 'productActivities',
    safe: true,
    run: (c, i) => productActivities(c, i.product, { page: 1, items: 5 }),
  },
  { name: 'listPrices', safe: true, run: (c, i) => listPrices(c, i.product) },
  { name: 'addPrice', safe: false, run: (c, i) => addPrice(c, i.product, price()) },
  {
    name: 'updatePrice',
    safe: true,
    run: (c, i) => updatePrice(c, i.product, i.price, priceSchema.parse(priceInput())),
  },
  { name: 'deletePrice', safe: false, run: (c, i) => deletePrice(c, i.product, i.price) },
  { name: 'listDocuments', safe: true, run: (c, i) => listDocuments(c, i.product) },
  { name: 'addDocument', safe: false, run: (c, i) => addDocument(c, i.product, doc(), pdf()) },
  { name: 'updateDocument', safe: true, run: (c, i) => updateDocument(c, i.product, i.document, doc()) },
  { name: 'downloadDocument', safe: true, run: (c, i) => downloadDocument(c, i.product, i.document) },
  { name: 'deleteDocument', safe: false, run: (c, i) => deleteDocument(c, i.product, i.document) },
  { name: 'getProductGroup', safe: true, run: (c, i) => getProductGroup(c, i.group) },
  {
    name: 'updateProductGroup',
    safe: true,
    run: (c, i) =>
      updateProductGroup(
        c,
        i.group,
        productGroupSchema.parse({ name: 'Summer schools', product_ids: [i.product] }),
      ),
  },
  {
    name: 'productGroupActivities',
    safe: true,
    run: (c, i) => productGroupActivities(c, i.group, { page: 1, items: 5 }),
  },
  { name: 'deleteProductGroup', safe: false, run: (c, i) => deleteProductGroup(c, i.group) },
];

/** Calls that take another tenant's id inside their input: refused as a field error, nothing written. */
const INPUT_CALLS: { name: string; key: string; run: (ctx: ActorCtx, ids: Ids) => Promise<unknown> }[] = [
  {
    name: 'createProduct with the company of another tenant',
    key: 'company_id',
    run: (c, i) => createProduct(c, createProductSchema.parse(productInput({ company_id: i.company }))),
  },
  {
    name: 'createProduct with the insurer of another tenant',
    key: 'insurer_id',
    run: (c, i) => createProduct(c, createProductSchema.parse(productInput({ insurer_id: i.insurer }))),
  },
  {
    name: 'createProductGroup with products of another tenant',
    key: 'product_ids',
    run: (c, i) =>
      createProductGroup(c, productGroupSchema.parse({ name: 'Stolen', product_ids: [i.product] })),
  },
];

const STRANGERS = [
  'a company user of another company',
  'a school user of another company',
  'an administrator of the second company',
];

describe.each(STRANGERS)('%s', (who) => {
  it.each(CALLS.map((c) => [c.name, c] as const))('gets "not found" from %s', async (_name, call) => {
    await expect(call.run(strangers[who], ids)).rejects.toBeInstanceOf(NotFound);
  });

  it.each(INPUT_CALLS.map((c) => [c.name, c] as const))('is refused %s', async (_name, call) => {
    const error = await call.run(strangers[who], ids).catch((e) => e);
    expect(error).toBeInstanceOf(ValidationFailed);
    expect((error as ValidationFailed).errors.map((e) => e.key)).toContain(call.key);
  });

  it('finds nothing of another tenant by filtering the list on its insurer', async () => {
    const page = await listProducts(strangers[who], productListQuerySchema.parse({ insurer: ids.insurer }));
    expect(page.items).toEqual([]);
  });
});

describe('the owner, as a control', () => {
  it.each(CALLS.filter((c) => c.safe).map((c) => [c.name, c] as const))(
    'succeeds with %s',
    async (_name, call) => {
      const answer = await call.run(await actorCtx(DEMO_ACCOUNTS.seniorAdmin), ids);
      expect(answer).toBeTruthy();
    },
  );

  it('gets "not found" for a price or document id of another product', async () => {
    const owner = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const other = await makeProduct(owner);
    await expect(
      updatePrice(owner, other.id, ids.price, priceSchema.parse(priceInput())),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(downloadDocument(owner, other.id, ids.document)).rejects.toBeInstanceOf(NotFound);
    await expect(deletePrice(owner, other.id, ids.price)).rejects.toBeInstanceOf(NotFound);
    await expect(deleteDocument(owner, other.id, ids.document)).rejects.toBeInstanceOf(NotFound);
  });
});
