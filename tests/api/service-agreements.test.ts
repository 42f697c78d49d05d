import { beforeAll, describe, expect, it, vi } from 'vitest';
import { insurers } from '../../drizzle/schema';
import { publicId } from '../../workers/platform/crypto';
import { createApp } from '../../workers/http';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { pdfBytes, exeBytes } from '../support/files';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

type Agreement = {
  id: string;
  status: string;
  name: string;
  valid: boolean;
  rows: { id: number; contract: { id: string; status: string } | null }[];
  files: { index: number; name: string }[];
  default_product: { code: string } | null;
};
type AgreementAnswer = { data: { service_agreement: Agreement }; message: string };

let w: ContractsWorld;
let token: string;
let strangerToken: string;
let insurerId: string;

beforeAll(async () => {
  w = await seedContractsWorld();
  insurerId = publicId();
  await db()
    .insert(insurers)
    .values({ public_id: insurerId, company_id: w.albion.id, name: 'API Underwriters' });
  token = await apiToken(DEMO_ACCOUNTS.seniorAdmin);
  strangerToken = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const row = (over: Record<string, unknown> = {}) => ({
  product_id: w.product.public_id,
  campus_id: w.north.public_id,
  net_price: 45,
  min_days: 6,
  sale_price: 60,
  start_date: day(1),
  end_date: day(90),
  ...over,
});
const body = (over: Record<string, unknown> = {}) => ({
  client_id: w.oakwood.public_id,
  name: 'API agreement',
  insurer_id: insurerId,
  start_date: day(0),
  rows: [row()],
  ...over,
});

async function create(over: Record<string, unknown> = {}) {
  const answer = await call<AgreementAnswer>('/api/company/service-agreements/add', {
    method: 'POST',
    json: body(over),
    token,
  });
  expect(answer.status).toBe(201);
  return answer.body.data.service_agreement;
}

async function multipart(path: string, form: FormData) {
  const res = await createApp().request(
    path,
    {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${token}`, 'cf-connecting-ip': uniqueIp() },
    },
    testEnv(),
  );
  return { status: res.status, body: (await res.json()) as AgreementAnswer & ErrorEnvelope };
}

describe('service agreements API', () => {
  it('answers 401 without a token', async () => {
    expect((await call('/api/company/service-agreements?client_id=x')).status).toBe(401);
  });

  it('adds a pending agreement, or an approved one whose rows become contracts', async () => {
    const pending = await call<AgreementAnswer>('/api/company/service-agreements/add', {
      method: 'POST',
      json: body(),
      token,
    });
    expect(pending.status).toBe(201);
    expect(pending.body.message).toBe('Service agreement saved successfully');
    expect(pending.body.data.service_agreement).toMatchObject({ status: 'pending', valid: true });
    const approved = await call<AgreementAnswer>('/api/company/service-agreements/add', {
      method: 'POST',
      json: body({ approve: true }),
      token,
    });
    expect(approved.body.message).toBe('Contract has been created/updated');
    expect(approved.body.data.service_agreement.rows[0].contract?.status).toBe('active');
  });

  it("refuses bad rows with the spec's texts, keyed by row and field", async () => {
    const answer = await call<ErrorEnvelope>('/api/company/service-agreements/add', {
      method: 'POST',
      json: body({
        rows: [row({ product_id: '', net_price: 'abc', min_days: 4.5, sale_price: null, start_date: '' })],
      }),
      token,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual(
      expect.arrayContaining([
        { key: 'rows.0.product_id', message: 'This field is required' },
        { key: 'rows.0.net_price', message: 'Value must be numeric' },
        { key: 'rows.0.min_days', message: 'Value must be digit' },
        { key: 'rows.0.sale_price', message: 'This field is required' },
        { key: 'rows.0.start_date', message: 'This field is required' },
      ]),
    );
  });

  it('reads, lists by client, updates and lists its contracts', async () => {
    const sa = await create({ name: 'Readable', approve: true });
    const read = await call<AgreementAnswer>(`/api/company/service-agreements/${sa.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body.data.service_agreement.name).toBe('Readable');
    const listed = await call<{ data: { service_agreements: { items: { id: string }[] } } }>(
      `/api/company/service-agreements?client_id=${w.oakwood.public_id}&search=Readable`,
      { token },
    );
    expect(listed.body.data.service_agreements.items.map((i) => i.id)).toEqual([sa.id]);
    const updated = await call<AgreementAnswer>(`/api/company/service-agreements/${sa.id}/update`, {
      method: 'POST',
      json: {
        ...body({ name: 'Renamed' }),
        client_id: undefined,
        rows: [row({ id: sa.rows[0].id, sale_price: 99 })],
      },
      token,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.service_agreement.name).toBe('Renamed');
    const contracts = await call<{
      data: { contracts: { items: { sale_price: number }[]; meta: { per_page: number } } };
    }>(`/api/company/service-agreements/${sa.id}/contracts`, { token });
    expect(contracts.body.data.contracts.meta.per_page).toBe(25);
    expect(contracts.body.data.contracts.items.map((c) => c.sale_price)).toEqual([99]);
    const bad = await call<ErrorEnvelope>(`/api/company/service-agreements/${sa.id}/update`, {
      method: 'POST',
      json: { ...body(), end_date: day(-5) },
      token,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toContainEqual({
      key: 'end_date',
      message: 'End date should be after the start date',
    });
  });

  it('adds a contract row and sets the default product', async () => {
    const sa = await create({ approve: true });
    const added = await call<AgreementAnswer>(`/api/company/service-agreements/${sa.id}/contracts/add`, {
      method: 'POST',
      json: row({ campus_id: w.south.public_id }),
      token,
    });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe('Contract has been created/updated');
    expect(added.body.data.service_agreement.rows).toHaveLength(2);
    const badRow = await call<ErrorEnvelope>(`/api/company/service-agreements/${sa.id}/contracts/add`, {
      method: 'POST',
      json: row({ sale_price: 10 }),
      token,
    });
    expect(badRow.body.errors).toEqual([
      { key: 'sale_price', message: 'Sale price cannot be lower than the net price' },
    ]);
    const withDefault = await call<AgreementAnswer>(
      `/api/company/service-agreements/${sa.id}/default-product`,
      {
        method: 'POST',
        json: { product_id: w.product.public_id },
        token,
      },
    );
    expect(withDefault.body.data.service_agreement.default_product?.code).toBe('TEST_STUDENT');
    const unknown = await call<ErrorEnvelope>(`/api/company/service-agreements/${sa.id}/default-product`, {
      method: 'POST',
      json: { product_id: 'nope' },
      token,
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toBe('Product not found');
  });

  it('deactivates and activates through the status call', async () => {
    const sa = await create({ approve: true });
    const path = `/api/company/service-agreements/${sa.id}/status/update`;
    const off = await call<AgreementAnswer>(path, { method: 'PATCH', json: { status: 'inactive' }, token });
    expect(off.body.data.service_agreement.rows[0].contract?.status).toBe('archived');
    const on = await call<AgreementAnswer>(path, { method: 'PATCH', json: { status: 'active' }, token });
    expect(on.body.data.service_agreement.rows[0].contract?.status).toBe('active');
    expect((await call(path, { method: 'PATCH', json: { status: 'pending' }, token })).status).toBe(422);
  });

  it('uploads several documents, downloads one by index, and refuses a wrong file', async () => {
    const sa = await create();
    const form = new FormData();
    form.append('documents', new File([pdfBytes('one') as BlobPart], 'one.pdf', { type: 'application/pdf' }));
    form.append('documents', new File([pdfBytes('two') as BlobPart], 'two.pdf', { type: 'application/pdf' }));
    const uploaded = await multipart(`/api/company/service-agreements/${sa.id}/documents/add`, form);
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.data.service_agreement.files.map((f) => f.name)).toEqual(['one.pdf', 'two.pdf']);
    const download = await call<string>(`/api/company/service-agreements/${sa.id}/documents/download`, {
      method: 'POST',
      json: { index: 1 },
      token,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('two.pdf');
    expect(
      (
        await call(`/api/company/service-agreements/${sa.id}/documents/download`, {
          method: 'POST',
          json: { index: 9 },
          token,
        })
      ).status,
    ).toBe(404);
    const wrong = new FormData();
    wrong.append('documents', new File([exeBytes() as BlobPart], 'virus.pdf'));
    const refused = await multipart(`/api/company/service-agreements/${sa.id}/documents/add`, wrong);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].key).toBe('documents');
    const empty = await multipart(`/api/company/service-agreements/${sa.id}/documents/add`, new FormData());
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([{ key: 'documents', message: 'This field is required' }]);
  });

  it('answers 404 to a user of another company for every call on an agreement', async () => {
    const sa = await create();
    const paths: [string, string, unknown?][] = [
      ['GET', `/api/company/service-agreements/${sa.id}`],
      ['GET', `/api/company/service-agreements/${sa.id}/contracts`],
      ['POST', `/api/company/service-agreements/${sa.id}/update`, body()],
      [
        'POST',
        `/api/company/service-agreements/${sa.id}/default-product`,
        { product_id: w.product.public_id },
      ],
      ['POST', `/api/company/service-agreements/${sa.id}/contracts/add`, row()],
      ['POST', `/api/company/service-agreements/${sa.id}/documents/download`, { index: 0 }],
      ['PATCH', `/api/company/service-agreements/${sa.id}/status/update`, { status: 'active' }],
    ];
    for (const [method, path, json] of paths) {
      const answer = await call(path, { method, json, token: strangerToken });
      expect([path, answer.status]).toEqual([path, 404]);
    }
  });
});
