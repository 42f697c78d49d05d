import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { exeBytes, pdfBytes, pngBytes } from '../support/files';
import { day, nextCode, seedProductsWorld, type ProductsWorld } from '../support/products';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();

/** A multipart call, as a browser or an API client uploads a file. */
async function upload(
  path: string,
  token: string,
  fields: Record<string, string>,
  file?: { bytes: Uint8Array; name: string },
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file)
    form.append(
      'file',
      new File([file.bytes as unknown as BlobPart], file.name, { type: 'application/pdf' }),
    );
  const res = await app.request(
    path,
    {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() },
    },
    testEnv(),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a download: the test reads the text
  }
  return { status: res.status, headers: res.headers, body: body as never };
}

type Product = { id: string; code: string; name: string; status: string; effective_end_date: string | null };
type Answer<T> = { data: T; message?: string };

let world: ProductsWorld;
let senior: string;
let finance: string;
let stranger: string;

const product = (overrides: Record<string, unknown> = {}) => ({
  code: nextCode('API'),
  name: 'API Student Cover',
  effective_start_date: day(1),
  effective_end_date: day(365),
  currency: 'GBP',
  min_purchase_days: 6,
  ...overrides,
});

async function addProduct(overrides: Record<string, unknown> = {}): Promise<Product> {
  const answer = await call<Answer<{ product: Product }>>('/api/company/products/add', {
    method: 'POST',
    json: product(overrides),
    token: senior,
  });
  expect(answer.status).toBe(201);
  return answer.body.data.product;
}

beforeAll(async () => {
  world = await seedProductsWorld();
  senior = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  finance = await apiToken(DEMO_ACCOUNTS.finance);
  stranger = await apiToken('dunmore.admin@dunmore.test');
}, SETUP_TIMEOUT_MS);

describe('authentication and permissions', () => {
  it('answers 401 without a token', async () => {
    for (const path of [
      '/api/company/units',
      '/api/company/products',
      '/api/company/products/summary',
      '/api/company/product-groups',
    ]) {
      expect((await call(path)).status).toBe(401);
    }
    expect((await call('/api/company/products/add', { method: 'POST', json: product() })).status).toBe(401);
  });

  it('answers 403 to a user who may only read products', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      json: product(),
      token: finance,
    });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe('You do not have permission to do this.');
  });
});

describe('GET /company/units', () => {
  it('answers data.units', async () => {
    const answer = await call<Answer<{ units: { id: number; name: string; days: number }[] }>>(
      '/api/company/units',
      { token: finance },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.units.map((u) => u.name)).toEqual(['day', 'week', 'month', 'year']);
  });
});

describe('products', () => {
  it('POST products/add creates a product and answers data.product', async () => {
    const answer = await call<Answer<{ product: Product & { insurer: { name: string } } }>>(
      '/api/company/products/add',
      {
        method: 'POST',
        json: product({
          code: 'api_new',
          insurer_id: world.albionInsurer.public_id,
          coverage_limits: [{ benefit: 'Medical', limit: '1m' }],
        }),
        token: senior,
      },
    );
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe('Product saved successfully');
    expect(answer.body.data.product).toMatchObject({
      code: 'API_NEW',
      status: 'active',
      insurer: { name: 'Lloyds Syndicate 1234' },
    });
  });

  it('POST products/add answers 422 with the spec texts for bad input', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      json: product({
        code: 'bad-code',
        effective_start_date: day(3),
        effective_end_date: day(2),
        min_purchase_days: 5,
        insured_age_min: 20,
        insured_age_max: 20,
      }),
      token: senior,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { key: 'code', message: 'Product code may only contain letters, digits or underscores (1 to 20).' },
      { key: 'min_purchase_days', message: 'Minimum purchase must be at least 6 days' },
      { key: 'effective_end_date', message: 'End date should be after the start date' },
      { key: 'insured_age_max', message: 'Maximum age must be greater than the minimum age' },
    ]);
    const past = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      json: product({ effective_start_date: day(-1) }),
      token: senior,
    });
    expect(past.status).toBe(422);
    expect(past.body).toEqual({
      message: 'Start date should not be in the past',
      errors: [{ key: 'effective_start_date', message: 'Start date should not be in the past' }],
    });
  });

  it('POST products/add answers 422, never 500, for wrong types and a body that is not JSON', async () => {
    const wrong = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      json: { code: 12, name: ['x'], effective_start_date: 20260101, coverage_limits: 'none' },
      token: senior,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.length).toBeGreaterThan(0);
    const broken = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      raw: '{ not json',
      contentType: 'application/json',
      token: senior,
    });
    expect([400, 422]).toContain(broken.status);
  });

  it('POST products/add refuses a code already used in the company', async () => {
    const existing = await addProduct();
    const answer = await call<ErrorEnvelope>('/api/company/products/add', {
      method: 'POST',
      json: product({ code: existing.code }),
      token: senior,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { key: 'code', message: 'This product code is already used by another product of the company.' },
    ]);
  });

  it('GET products answers data.products.items and meta, filtered and sorted', async () => {
    const tag = nextCode('APILIST');
    await addProduct({ code: `${tag}_1`, name: `${tag} one` });
    await addProduct({ code: `${tag}_2`, name: `${tag} two` });
    const answer = await call<Answer<{ products: { items: Product[]; meta: Record<string, number> } }>>(
      `/api/company/products?search=${tag}&order=name_desc&items=1`,
      { token: finance },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.products.items.map((p) => p.name)).toEqual([`${tag} two`]);
    expect(answer.body.data.products.meta).toMatchObject({
      total: 2,
      per_page: 1,
      from: 1,
      to: 1,
      last_page: 2,
    });
    const bad = await call<ErrorEnvelope>('/api/company/products?status=deleted', { token: finance });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].key).toBe('status');
  });

  it('GET products/summary answers the active, archived and expiring counts', async () => {
    const answer = await call<Answer<{ summary: Record<string, number> }>>('/api/company/products/summary', {
      token: finance,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.summary).toEqual({
      total: expect.any(Number),
      active: expect.any(Number),
      archived: expect.any(Number),
      expiring: expect.any(Number),
      expiring_within_days: 30,
    });
  });

  it('GET products/{id} answers data.product, and 404 for an unknown or foreign id', async () => {
    const created = await addProduct();
    const answer = await call<Answer<{ product: Product }>>(`/api/company/products/${created.id}`, {
      token: finance,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.product.code).toBe(created.code);
    expect((await call<ErrorEnvelope>('/api/company/products/nope', { token: finance })).status).toBe(404);
    const foreign = await call<ErrorEnvelope>(`/api/company/products/${created.id}`, { token: stranger });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Not found');
  });

  it('POST products/{id}/update changes the fields given and answers 422 for bad ones', async () => {
    const created = await addProduct();
    const answer = await call<Answer<{ product: Product }>>(`/api/company/products/${created.id}/update`, {
      method: 'POST',
      json: { name: 'Renamed by API', effective_end_date: null },
      token: senior,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.product).toMatchObject({
      name: 'Renamed by API',
      effective_end_date: null,
      code: created.code,
    });
    const bad = await call<ErrorEnvelope>(`/api/company/products/${created.id}/update`, {
      method: 'POST',
      json: { effective_end_date: '2020-02-30' },
      token: senior,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ key: 'effective_end_date', message: 'Date is not valid' }]);
  });

  it('PATCH products/{id}/archive and /activate change the status; GET activities answers data.logs', async () => {
    const created = await addProduct();
    const archived = await call<Answer<{ product: Product }>>(`/api/company/products/${created.id}/archive`, {
      method: 'PATCH',
      token: senior,
    });
    expect(archived.status).toBe(200);
    expect(archived.body.data.product.status).toBe('archived');
    const active = await call<Answer<{ product: Product }>>(`/api/company/products/${created.id}/activate`, {
      method: 'PATCH',
      token: senior,
    });
    expect(active.body.data.product.status).toBe('active');
    expect(
      (await call(`/api/company/products/${created.id}/archive`, { method: 'PATCH', token: finance })).status,
    ).toBe(403);
    const logs = await call<Answer<{ logs: { items: { action: string }[]; meta: { total: number } } }>>(
      `/api/company/products/${created.id}/activities?items=2`,
      { token: finance },
    );
    expect(logs.status).toBe(200);
    expect(logs.body.data.logs.items.map((l) => l.action)).toEqual(['activated', 'archived']);
    expect(logs.body.data.logs.meta.total).toBe(3);
  });
});

describe('prices', () => {
  type Price = { id: number; net: number; sale: number; period: string; min_days: number; max_days: number };

  it('lists, adds, updates and deletes prices', async () => {
    const created = await addProduct();
    const base = `/api/company/products/${created.id}/prices`;
    const added = await call<Answer<{ price: Price }>>(`${base}/add`, {
      method: 'POST',
      json: { min_days: 6, max_days: 30, net: 10, sale: '12.50', from_date: day(2), to_date: day(60) },
      token: senior,
    });
    expect(added.status).toBe(201);
    expect(added.body.data.price).toMatchObject({ net: 10, sale: 12.5, period: 'future' });
    const id = added.body.data.price.id;

    const listed = await call<Answer<{ prices: { items: Price[] } }>>(base, { token: finance });
    expect(listed.body.data.prices.items.map((p) => p.id)).toEqual([id]);
    expect(
      (await call<Answer<{ prices: { items: Price[] } }>>(`${base}?period=expired`, { token: finance })).body
        .data.prices.items,
    ).toEqual([]);

    const updated = await call<Answer<{ price: Price }>>(`${base}/${id}/update`, {
      method: 'POST',
      json: { min_days: 6, max_days: 45, net: 10, sale: 14 },
      token: senior,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.price).toMatchObject({ max_days: 45, sale: 14, period: 'default' });

    const deleted = await call<Answer<null>>(`${base}/${id}/update`, { method: 'DELETE', token: senior });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Price deleted');
    expect((await call(`${base}/${id}/update`, { method: 'DELETE', token: senior })).status).toBe(404);
  });

  it('answers 422 with the spec texts for bad prices', async () => {
    const created = await addProduct();
    const base = `/api/company/products/${created.id}/prices`;
    const notNumeric = await call<ErrorEnvelope>(`${base}/add`, {
      method: 'POST',
      json: { min_days: 6, max_days: 10, net: 'abc', sale: 1 },
      token: senior,
    });
    expect(notNumeric.status).toBe(422);
    expect(notNumeric.body.errors).toEqual([{ key: 'net', message: 'Value must be numeric' }]);
    const bad = await call<ErrorEnvelope>(`${base}/add`, {
      method: 'POST',
      json: { min_days: 10, max_days: 5, net: 2, sale: 1, from_date: day(5), to_date: day(4) },
      token: senior,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([
      { key: 'max_days', message: 'Maximum days must be the same or more than the minimum days' },
      { key: 'sale', message: 'Sale price must be the same or more than the net price' },
      { key: 'to_date', message: 'To date should be same or after the from date' },
    ]);
    const small = await call<ErrorEnvelope>(`${base}/add`, {
      method: 'POST',
      json: { min_days: 3, max_days: 5, net: 1, sale: 2 },
      token: senior,
    });
    expect(small.body.errors).toEqual([
      { key: 'min_days', message: "Minimum days must be at least 6, the product's minimum purchase" },
    ]);
    expect(
      (
        await call(`${base}/abc/update`, {
          method: 'POST',
          json: { min_days: 6, max_days: 7, net: 1, sale: 1 },
          token: senior,
        })
      ).status,
    ).toBe(404);
  });
});

describe('documents', () => {
  type Doc = { id: number; title: string; file_name: string; content_type: string };
  const fields = { type: 'policy_wording', language: 'en', title: 'Policy wording', visibility: 'clients' };

  it('uploads (multipart), lists, updates with a new file, downloads and deletes a document', async () => {
    const created = await addProduct();
    const base = `/api/company/products/${created.id}/documents`;
    const added = await upload(`${base}/add`, senior, fields, {
      bytes: pdfBytes('api doc'),
      name: 'wording.pdf',
    });
    expect(added.status).toBe(201);
    const doc = (added.body as Answer<{ document: Doc }>).data.document;
    expect(doc).toMatchObject({
      title: 'Policy wording',
      file_name: 'wording.pdf',
      content_type: 'application/pdf',
    });

    const listed = await call<Answer<{ documents: { items: Doc[] } }>>(base, { token: finance });
    expect(listed.body.data.documents.items.map((d) => d.id)).toEqual([doc.id]);

    const download = await call<string>(`${base}/${doc.id}/download`, { method: 'POST', token: finance });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('filename="wording.pdf"');
    expect(download.body).toContain('api doc');

    const replaced = await upload(
      `${base}/${doc.id}`,
      senior,
      { ...fields, title: 'Scan' },
      { bytes: pngBytes(), name: 'scan.png' },
    );
    expect(replaced.status).toBe(200);
    expect((replaced.body as Answer<{ document: Doc }>).data.document).toMatchObject({
      title: 'Scan',
      content_type: 'image/png',
    });

    const deleted = await call(`${base}/${doc.id}`, { method: 'DELETE', token: senior });
    expect(deleted.status).toBe(200);
    expect((await call(`${base}/${doc.id}/download`, { method: 'POST', token: finance })).status).toBe(404);
  });

  it('answers 422 for a wrong file, a missing file and missing details', async () => {
    const created = await addProduct();
    const base = `/api/company/products/${created.id}/documents`;
    const wrong = await upload(`${base}/add`, senior, fields, { bytes: exeBytes(), name: 'virus.pdf' });
    expect(wrong.status).toBe(422);
    expect((wrong.body as ErrorEnvelope).errors).toEqual([
      { key: 'file', message: 'Uploaded file has incorrect format. Allowed: pdf, png, jpg, docx, xlsx.' },
    ]);
    const big = new Uint8Array(10 * 1024 * 1024 + 10);
    big.set(pdfBytes());
    const tooBig = await upload(`${base}/add`, senior, fields, { bytes: big, name: 'big.pdf' });
    expect((tooBig.body as ErrorEnvelope).errors).toEqual([
      { key: 'file', message: 'File cannot be larger than 10MB' },
    ]);
    const missing = await upload(`${base}/add`, senior, fields);
    expect((missing.body as ErrorEnvelope).errors).toEqual([
      { key: 'file', message: 'This field is required' },
    ]);
    const noTitle = await upload(
      `${base}/add`,
      senior,
      { ...fields, title: '' },
      { bytes: pdfBytes(), name: 'a.pdf' },
    );
    expect(noTitle.status).toBe(422);
    expect((noTitle.body as ErrorEnvelope).errors).toEqual([
      { key: 'title', message: 'This field is required' },
    ]);
  });
});

describe('product groups', () => {
  type Group = { id: string; name: string; products: { id: string }[] };
  it('adds, lists, reads, updates and deletes a group', async () => {
    const a = await addProduct();
    const added = await call<Answer<{ product_group: Group }>>('/api/company/product-groups/add', {
      method: 'POST',
      json: { name: 'API group', scheme: 'S', type: 'T', description: 'D', product_ids: [a.id] },
      token: senior,
    });
    expect(added.status).toBe(201);
    const group = added.body.data.product_group;
    expect(group.products.map((p) => p.id)).toEqual([a.id]);

    const list = await call<Answer<{ product_groups: { items: Group[]; meta: { total: number } } }>>(
      '/api/company/product-groups?search=API%20group',
      { token: senior },
    );
    expect(list.body.data.product_groups.items.map((g) => g.id)).toEqual([group.id]);
    expect(
      (
        await call<Answer<{ product_group: Group }>>(`/api/company/product-groups/${group.id}`, {
          token: senior,
        })
      ).body.data.product_group.name,
    ).toBe('API group');

    const updated = await call<Answer<{ product_group: Group }>>(
      `/api/company/product-groups/${group.id}/update`,
      {
        method: 'POST',
        json: { name: 'API group 2', product_ids: [] },
        token: senior,
      },
    );
    expect(updated.body.data.product_group).toMatchObject({ name: 'API group 2', products: [] });
    const logs = await call<Answer<{ logs: { items: { action: string }[] } }>>(
      `/api/company/product-groups/${group.id}/activities`,
      { token: senior },
    );
    expect(logs.body.data.logs.items.map((l) => l.action)).toEqual(['updated', 'created']);
    expect(
      (await call(`/api/company/product-groups/${group.id}`, { method: 'DELETE', token: senior })).status,
    ).toBe(200);
    expect((await call(`/api/company/product-groups/${group.id}`, { token: senior })).status).toBe(404);
  });

  it('answers 422 for a long description and products of another company', async () => {
    const answer = await call<ErrorEnvelope>('/api/company/product-groups/add', {
      method: 'POST',
      json: { name: 'Bad group', description: 'x'.repeat(1001), product_ids: [world.dunmoreProduct.id] },
      token: senior,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([
      { key: 'description', message: 'Maximum allowed number of characters "1000" exceeded.' },
    ]);
    const foreign = await call<ErrorEnvelope>('/api/company/product-groups/add', {
      method: 'POST',
      json: { name: 'Bad group', product_ids: [world.dunmoreProduct.id] },
      token: senior,
    });
    expect(foreign.body.errors).toEqual([
      { key: 'product_ids', message: "Choose products of the group's company" },
    ]);
  });
});
