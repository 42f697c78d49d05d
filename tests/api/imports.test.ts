import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildContract } from '../../drizzle/seed/contracts';
import { createApp } from '../../workers/http';
import type { Env } from '../../workers/env';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { STRANGER, day, db, seedContractsWorld, type ContractsWorld } from '../support/contracts';
import { csvOf } from '../support/sheets';
import { pdfBytes } from '../support/files';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();
/** Jobs are not sent to the real queue here: the Worker's own consumer would run them in the background. */
const quiet: Partial<Env> = { JOBS: { send: async () => {}, sendBatch: async () => {} } as never };

let w: ContractsWorld;
let contract: string;
let school: string;
let stranger: string;

interface ImportAnswer {
  id: string;
  status: string;
  headers: string[];
  sample: string[][];
  row_count: number;
  mapping: Record<string, string | null>;
  date_order: string;
  job: { id: string; status: string } | null;
}

const HEADERS = ['First Name', 'Surname', 'DOB', 'Nationality', 'Start', 'End'];
const sheet = (n: number) =>
  csvOf([
    HEADERS,
    ...Array.from({ length: n }, () => ['Ana', 'Silva', '04/03/2008', 'France', '01/09/2027', '20/09/2027']),
  ]);

/** A multipart upload to preview/batch. */
async function upload(
  body: { file?: Blob | string; contract_id?: string; name?: string },
  opts: { token?: string | null; campus?: string } = {},
) {
  const form = new FormData();
  if (body.file !== undefined)
    form.set(
      'file',
      typeof body.file === 'string' ? new File([body.file], body.name ?? 'a.csv') : body.file,
      body.name ?? 'a.csv',
    );
  if (body.contract_id !== undefined) form.set('contract_id', body.contract_id);
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp() };
  const token = opts.token === undefined ? school : opts.token;
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await app.request(
    `/api/company/campuses/${opts.campus ?? w.north.public_id}/policies/preview/batch`,
    { method: 'POST', headers, body: form },
    { ...testEnv(), ...quiet },
  );
  return {
    status: res.status,
    body: (await res.json()) as { data: { import: ImportAnswer } } & ErrorEnvelope,
  };
}

beforeAll(async () => {
  w = await seedContractsWorld();
  contract = (
    await buildContract(db(), { campusId: w.north.id, productId: w.product.id, startDate: day(-30) })
  ).public_id;
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

describe('campuses/{id}/policies/preview/batch', () => {
  it('answers the headers, a sample, the row count and the suggested mapping of a sheet', async () => {
    const r = await upload({ file: sheet(7), contract_id: contract });
    expect(r.status).toBe(201);
    expect(r.body.data.import).toMatchObject({
      status: 'uploaded',
      headers: HEADERS,
      row_count: 7,
      date_order: 'dmy',
      mapping: {
        '0': 'first_name',
        '1': 'last_name',
        '2': 'date_of_birth',
        '3': 'residence_country_id',
        '4': 'start_date',
        '5': 'end_date',
      },
    });
    expect(r.body.data.import.sample).toHaveLength(5);
  });

  it('needs a signed-in caller', async () => {
    expect((await upload({ file: sheet(1), contract_id: contract }, { token: null })).status).toBe(401);
  });

  it('gives the spec file messages', async () => {
    const cases: [{ file?: Blob | string; name?: string }, string][] = [
      [{}, 'This field is required'],
      [{ file: '' }, 'File cannot be empty.'],
      [
        { file: new File([pdfBytes() as Uint8Array<ArrayBuffer>], 'a.csv'), name: 'a.csv' },
        'Uploaded file has incorrect format.',
      ],
      [{ file: csvOf([HEADERS]) }, "Couldn't find any applicants in the given file."],
      [{ file: 'A,B\n"unclosed,x\n' }, 'Uploaded file cannot be parsed.'],
      [
        { file: new File([new Uint8Array(10 * 1024 * 1024 + 10).fill(65)], 'big.csv'), name: 'big.csv' },
        'File cannot be larger than 10MB',
      ],
    ];
    for (const [body, message] of cases) {
      const r = await upload({ ...body, contract_id: contract });
      expect(r.status, message).toBe(422);
      expect(r.body.errors).toEqual([{ key: 'file', message }]);
    }
  });

  it('refuses a missing or unavailable product, and a campus of another company', async () => {
    const missing = await upload({ file: sheet(1) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0]!.key).toBe('contract_id');
    const other = await upload({ file: sheet(1), contract_id: 'nope' });
    expect(other.status).toBe(422);
    expect(other.body.errors[0]).toMatchObject({ key: 'contract_id' });
    const hidden = await upload({ file: sheet(1), contract_id: contract }, { token: stranger });
    expect(hidden.status).toBe(404);
  });
});

describe('imports', () => {
  it('reads an import and its progress; another company cannot', async () => {
    const { body } = await upload({ file: sheet(3), contract_id: contract });
    const id = body.data.import.id;
    const read = await call<{ data: { import: ImportAnswer } }>(`/api/company/imports/${id}`, {
      token: school,
    });
    expect(read.status).toBe(200);
    expect(read.body.data.import.id).toBe(id);
    const progress = await call<{ data: { progress: { status: string; total: number } } }>(
      `/api/company/imports/${id}/progress`,
      { token: school },
    );
    expect(progress.body.data.progress).toMatchObject({ status: 'uploaded', total: 3 });
    expect((await call(`/api/company/imports/${id}`, { token: stranger })).status).toBe(404);
    expect((await call(`/api/company/imports/${id}`, { token: null })).status).toBe(401);
  });

  it('refuses a bad mapping with a message per problem and starts the staging job with a good one', async () => {
    const { body } = await upload({ file: sheet(3), contract_id: contract });
    const id = body.data.import.id;
    const post = (json: unknown) =>
      call<{ data: { import: ImportAnswer } } & ErrorEnvelope>(`/api/company/imports/${id}/mapping`, {
        method: 'POST',
        token: school,
        json,
        env: quiet,
      });
    const unknown = await post({ columns: ['shoe_size'], date_order: 'dmy' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0]!.key).toBe('columns.0');
    const badOrder = await post({ columns: [], date_order: 'sideways' });
    expect(badOrder.status).toBe(422);
    const missing = await post({ columns: ['first_name', 'first_name'], date_order: 'dmy' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toContainEqual({
      key: 'columns[1]',
      message: 'This detail is already matched to another column.',
    });
    expect(missing.body.errors).toContainEqual({
      key: 'columns',
      message: 'Match a column to Date of birth.',
    });
    const ok = await post({ columns: Object.values(body.data.import.mapping), date_order: 'mdy' });
    expect(ok.status).toBe(202);
    expect(ok.body.data.import).toMatchObject({
      status: 'staging',
      date_order: 'mdy',
      job: { status: 'queued' },
    });
    const again = await post({ columns: Object.values(body.data.import.mapping), date_order: 'dmy' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(
      'The applicants of this file are being prepared. Please wait until they are ready.',
    );
  });
});
