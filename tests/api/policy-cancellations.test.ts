import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../workers/http';
import type { Env } from '../../workers/env';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';
import { STRANGER } from '../support/contracts';
import { seedCheckoutWorld, setClientTerms } from '../support/checkout';
import { issuePolicies, runCancellationJob, type PolicyRow } from '../support/cancellations';
import { csvOf } from '../support/sheets';
import { pdfBytes } from '../support/files';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();
/** Jobs are not sent to the real queue: each test runs the matching job itself, as a delivery would. */
const quiet: Partial<Env> = { JOBS: { send: async () => {}, sendBatch: async () => {} } as never };

let school: string;
let stranger: string;
let issued: PolicyRow[];

interface Cancellation {
  id: string;
  status: string;
  headers: string[];
  row_count: number;
  mapping: Record<string, string | null>;
  job: { id: string } | null;
}

async function upload(file: Blob | string, name = 'cancel.csv', token: string | null = school) {
  const form = new FormData();
  form.set('file', typeof file === 'string' ? new File([file], name) : file, name);
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp() };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await app.request(
    '/api/company/cancellation-imports',
    { method: 'POST', headers, body: form },
    { ...testEnv(), ...quiet },
  );
  return {
    status: res.status,
    body: (await res.json()) as { data: { cancellation: Cancellation } } & ErrorEnvelope,
  };
}

const api = <T = unknown>(path: string, opts: { method?: string; json?: unknown; token?: string } = {}) =>
  call<T>(`/api/company/${path}`, { token: school, env: quiet, ...opts });

beforeAll(async () => {
  const w = await seedCheckoutWorld();
  await setClientTerms(w.oakwood.id, 'invoiced_directly', 'bank_transfer');
  issued = await issuePolicies(w, 3);
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

describe('cancellation-imports', () => {
  it('upload, match, review, delete the errored rows, proceed, confirm once', async () => {
    const up = await upload(
      csvOf([
        ['Policy ID', 'Surname'],
        [issued[0]!.policy_number, issued[0]!.last_name],
        ['P99999999', 'X'],
      ]),
    );
    expect(up.status).toBe(201);
    const c = up.body.data.cancellation;
    expect(c).toMatchObject({
      status: 'uploaded',
      row_count: 2,
      mapping: { '0': 'policy_id', '1': 'last_name' },
    });

    const noPolicy = await api<ErrorEnvelope>(`cancellation-imports/${c.id}/mapping`, {
      method: 'POST',
      json: { columns: [null, 'last_name'] },
    });
    expect(noPolicy.status).toBe(422);
    expect(noPolicy.body.errors).toEqual([
      { key: 'columns', message: 'The Policy ID column is required and cannot be ignored.' },
    ]);

    const mapped = await api<{ data: { cancellation: Cancellation } }>(
      `cancellation-imports/${c.id}/mapping`,
      {
        method: 'POST',
        json: { columns: ['policy_id', 'last_name'] },
      },
    );
    expect(mapped.status).toBe(202);
    expect(mapped.body.data.cancellation.status).toBe('staging');
    await runCancellationJob(c.id);
    const progress = await api<{ data: { progress: { status: string; percent: number } } }>(
      `cancellation-imports/${c.id}/progress`,
    );
    expect(progress.body.data.progress).toMatchObject({ status: 'review', percent: 100 });

    const rows = await api<{
      data: { rows: { items: { row: number; errors: { message: string }[] }[] }; counts: unknown };
    }>(`cancellation-imports/${c.id}/rows?errors_only=1`);
    expect(rows.body.data.counts).toEqual({ total: 2, with_errors: 1 });
    expect(rows.body.data.rows.items).toEqual([
      expect.objectContaining({
        row: 3,
        errors: [{ field: 'policy_id', message: 'No policy with this Policy ID was found.' }],
      }),
    ]);

    const blocked = await api<ErrorEnvelope>(`cancellation-imports/${c.id}/proceed`, {
      method: 'POST',
      json: { reason: 'Did not travel' },
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body.errors).toEqual([{ key: 'rows', message: 'Delete the 1 row with errors first.' }]);

    const deleted = await api<{ data: { deleted: number } }>(`cancellation-imports/${c.id}/rows/delete`, {
      method: 'POST',
      json: { errored: true },
    });
    expect(deleted.body.data).toEqual({ deleted: 1 });

    const quoted = await api<{ data: { outcome: Record<string, unknown> } }>(
      `cancellation-imports/${c.id}/proceed`,
      {
        method: 'POST',
        json: { reason: 'Did not travel' },
      },
    );
    expect(quoted.status).toBe(200);
    expect(quoted.body.data.outcome).toMatchObject({ status: 'quoted', named: 1, dependants: 0 });

    const confirmed = await api<{ data: { outcome: { status: string; credit_notes: unknown[] } } }>(
      `cancellation-imports/${c.id}/confirm`,
      { method: 'POST' },
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.outcome.status).toBe('confirmed');
    expect(confirmed.body.data.outcome.credit_notes).toHaveLength(1);
    const again = await api<{ data: { outcome: { credit_notes: unknown[] } } }>(
      `cancellation-imports/${c.id}/confirm`,
      {
        method: 'POST',
      },
    );
    expect(again.body.data.outcome.credit_notes).toHaveLength(1);

    // Another company's administrator: not found on every call of this sheet.
    for (const [method, path, json] of [
      ['GET', '', undefined],
      ['GET', '/progress', undefined],
      ['GET', '/rows', undefined],
      ['GET', '/outcome', undefined],
      ['POST', '/mapping', { columns: ['policy_id', null] }],
      ['POST', '/rows/delete', { rows: [2] }],
      ['POST', '/proceed', { reason: 'Not yours' }],
      ['POST', '/confirm', undefined],
    ] as const) {
      const r = await api(`cancellation-imports/${c.id}${path}`, { method, json, token: stranger });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
  });

  it("gives the spec's file messages and needs a signed-in caller", async () => {
    const pdf = await upload(new File([pdfBytes() as Uint8Array<ArrayBuffer>], 'a.csv'));
    expect(pdf.status).toBe(422);
    expect(pdf.body.errors).toEqual([{ key: 'file', message: 'Uploaded file has incorrect format.' }]);
    const empty = await upload(csvOf([['Policy ID']]));
    expect(empty.body.errors).toEqual([
      { key: 'file', message: "Couldn't find any policies in the given file." },
    ]);
    expect((await upload(csvOf([['Policy ID'], ['P1']]), 'c.csv', null)).status).toBe(401);
  });
});

describe('policies/confirm-enrolment', () => {
  it('answers the enrolment of each policy id, and refuses an empty list', async () => {
    const r = await api<{ data: { results: { state: string }[]; enrolled: number } }>(
      'policies/confirm-enrolment',
      {
        method: 'POST',
        json: { items: [{ policy_id: issued[1]!.policy_number }, { policy_id: 'P99999999' }] },
      },
    );
    expect(r.status).toBe(200);
    expect(r.body.data.results.map((x) => x.state)).toEqual(['upcoming', 'not_found']);
    const none = await api<ErrorEnvelope>('policies/confirm-enrolment', {
      method: 'POST',
      json: { items: [] },
    });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([{ key: 'items', message: 'Enter at least one policy ID.' }]);
    const theirs = await api<{ data: { results: { state: string }[] } }>('policies/confirm-enrolment', {
      method: 'POST',
      json: { items: [{ policy_id: issued[1]!.policy_number }] },
      token: stranger,
    });
    expect(theirs.body.data.results.map((x) => x.state)).toEqual(['not_found']);
  });
});
