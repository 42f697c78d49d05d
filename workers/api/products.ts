import { Hono } from 'hono';
import { z } from 'zod';
import { NotFound } from '../domain/errors';
import { listQuerySchema } from '../domain/lists';
import {
  activateProduct,
  archiveProduct,
  createProduct,
  getProduct,
  listProducts,
  listUnits,
  productActivities,
  productSummary,
  updateProduct,
} from '../domain/products/service';
import { addPrice, deletePrice, listPrices, updatePrice } from '../domain/products/prices';
import {
  addDocument,
  deleteDocument,
  downloadDocument,
  listDocuments,
  updateDocument,
} from '../domain/products/documents';
import {
  createProductGroup,
  deleteProductGroup,
  getProductGroup,
  listProductGroups,
  productGroupActivities,
  updateProductGroup,
} from '../domain/products/groups';
import {
  PRICE_PERIODS,
  createProductSchema,
  documentSchema,
  priceSchema,
  productGroupListQuerySchema,
  productGroupSchema,
  productListQuerySchema,
  updateProductSchema,
} from '../domain/products/schema';
import { formatMessage } from '../platform/i18n';
import { actorCtxOf, langOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';
import { readMultipart } from './body';

/** A numeric id from the path; anything else names nothing. */
function numericId(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new NotFound();
  return n;
}

const said = (lang: string, key: string) => formatMessage(`products.messages.${key}`, lang);
const pageQuery = listQuerySchema.pick({ page: true, items: true });

/**
 * Products, their prices and documents, units (spec 002 s.7 "Products"), and product groups. The
 * catalogue has no product-group calls; ours follow the same pattern under /company/product-groups.
 */
export const productsApi = new Hono<ApiEnv>()
  .use('/company/units', requireAuth)
  .use('/company/products', requireAuth)
  .use('/company/products/*', requireAuth)
  .use('/company/product-groups', requireAuth)
  .use('/company/product-groups/*', requireAuth)
  .get('/company/units', async (c) => c.json({ data: { units: await listUnits(actorCtxOf(c)) } }))
  .get('/company/products', valid('query', productListQuerySchema), async (c) =>
    c.json({ data: { products: await listProducts(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .get('/company/products/summary', async (c) =>
    c.json({ data: { summary: await productSummary(actorCtxOf(c)) } }),
  )
  .post('/company/products/add', valid('json', createProductSchema), async (c) => {
    const product = await createProduct(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { product }, message: said(langOf(c), 'created') }, 201);
  })
  .get('/company/products/:id', async (c) =>
    c.json({ data: { product: await getProduct(actorCtxOf(c), c.req.param('id')) } }),
  )
  .post('/company/products/:id/update', valid('json', updateProductSchema), async (c) => {
    const product = await updateProduct(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { product }, message: said(langOf(c), 'updated') });
  })
  .patch('/company/products/:id/activate', async (c) => {
    const product = await activateProduct(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { product }, message: said(langOf(c), 'activated') });
  })
  .patch('/company/products/:id/archive', async (c) => {
    const product = await archiveProduct(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: { product }, message: said(langOf(c), 'archived') });
  })
  .get('/company/products/:id/activities', valid('query', pageQuery), async (c) =>
    c.json({
      data: { logs: await productActivities(actorCtxOf(c), c.req.param('id'), c.req.valid('query')) },
    }),
  )
  // ---------------------------------------------------------------- prices
  .get(
    '/company/products/:id/prices',
    valid('query', z.object({ period: z.enum(PRICE_PERIODS).optional() })),
    async (c) =>
      c.json({
        data: { prices: await listPrices(actorCtxOf(c), c.req.param('id'), c.req.valid('query').period) },
      }),
  )
  .post('/company/products/:id/prices/add', valid('json', priceSchema), async (c) => {
    const price = await addPrice(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { price }, message: said(langOf(c), 'price_added') }, 201);
  })
  .post('/company/products/:id/prices/:priceId/update', valid('json', priceSchema), async (c) => {
    const price = await updatePrice(
      actorCtxOf(c),
      c.req.param('id'),
      numericId(c.req.param('priceId')),
      c.req.valid('json'),
    );
    return c.json({ data: { price }, message: said(langOf(c), 'price_updated') });
  })
  .delete('/company/products/:id/prices/:priceId/update', async (c) => {
    await deletePrice(actorCtxOf(c), c.req.param('id'), numericId(c.req.param('priceId')));
    return c.json({ data: null, message: said(langOf(c), 'price_deleted') });
  })
  // ---------------------------------------------------------------- documents
  .get('/company/products/:id/documents', async (c) =>
    c.json({ data: { documents: await listDocuments(actorCtxOf(c), c.req.param('id')) } }),
  )
  .post('/company/products/:id/documents/add', valid('form', documentSchema), async (c) => {
    const file = (await readMultipart(c)).get('file');
    const document = await addDocument(actorCtxOf(c), c.req.param('id'), c.req.valid('form'), file);
    return c.json({ data: { document }, message: said(langOf(c), 'document_added') }, 201);
  })
  .post('/company/products/:id/documents/:documentId/download', async (c) =>
    downloadDocument(actorCtxOf(c), c.req.param('id'), numericId(c.req.param('documentId'))),
  )
  .post('/company/products/:id/documents/:documentId', valid('form', documentSchema), async (c) => {
    const file = (await readMultipart(c)).get('file');
    const document = await updateDocument(
      actorCtxOf(c),
      c.req.param('id'),
      numericId(c.req.param('documentId')),
      c.req.valid('form'),
      file,
    );
    return c.json({ data: { document }, message: said(langOf(c), 'document_updated') });
  })
  .delete('/company/products/:id/documents/:documentId', async (c) => {
    await deleteDocument(actorCtxOf(c), c.req.param('id'), numericId(c.req.param('documentId')));
    return c.json({ data: null, message: said(langOf(c), 'document_deleted') });
  })
  // ---------------------------------------------------------------- product groups
  .get('/company/product-groups', valid('query', productGroupListQuerySchema), async (c) =>
    c.json({ data: { product_groups: await listProductGroups(actorCtxOf(c), c.req.valid('query')) } }),
  )
  .post('/company/product-groups/add', valid('json', productGroupSchema), async (c) => {
    const group = await createProductGroup(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: { product_group: group }, message: said(langOf(c), 'group_created') }, 201);
  })
  .get('/company/product-groups/:id', async (c) =>
    c.json({ data: { product_group: await getProductGroup(actorCtxOf(c), c.req.param('id')) } }),
  )
  .post('/company/product-groups/:id/update', valid('json', productGroupSchema), async (c) => {
    const group = await updateProductGroup(actorCtxOf(c), c.req.param('id'), c.req.valid('json'));
    return c.json({ data: { product_group: group }, message: said(langOf(c), 'group_updated') });
  })
  .delete('/company/product-groups/:id', async (c) => {
    await deleteProductGroup(actorCtxOf(c), c.req.param('id'));
    return c.json({ data: null, message: said(langOf(c), 'group_deleted') });
  })
  .get('/company/product-groups/:id/activities', valid('query', pageQuery), async (c) =>
    c.json({
      data: { logs: await productGroupActivities(actorCtxOf(c), c.req.param('id'), c.req.valid('query')) },
    }),
  );
