/**
 * The policy documents and welcome email calls of the JSON API (spec 002 s.7 "Insureds and policies"),
 * with good and bad input, the spec's English messages, and "not found" for other tenants' policies.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs, policies } from '../../drizzle/schema';
import { createApp } from '../../workers/http';
import { handleMessage } from '../../workers/jobs/consumer';
import { readCentralDirectory, entryContents } from '../../workers/platform/zip';
import { apiToken, call, type ErrorEnvelope } from '../support/api';
import { pdfText } from '../support/pdf-text';
import { db, day, seedDocumentsWorld, STRANGER, type DocumentsWorld } from '../support/policy-documents';
import { DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv, uniqueIp } from '../support/world';

vi.mock('@remix-run/cloudflare', () => import('../support/remix-stub'));

const app = createApp();
// The documents job is run here by handing its message to the consumer, as the queue would.
const quietQueue = { send: async () => {}, sendBatch: async () => {} } as never;

let w: DocumentsWorld;
let school: string;
let stranger: string;

beforeAll(async () => {
  w = await seedDocumentsWorld();
  school = await apiToken(DEMO_ACCOUNTS.schoolAdmin);
  stranger = await apiToken(STRANGER.companyUser);
}, SETUP_TIMEOUT_MS);

const api = (path: string) => `/api/company/policies${path}`;

/** A call whose answer is a file: its bytes and headers. */
async function download(path: string, opts: { method?: string; json?: unknown; token: string }) {
  const res = await app.request(
    path,
    {
      method: opts.method ?? 'GET',
      headers: {
        authorization: `Bearer ${opts.token}`,
        'cf-connecting-ip': uniqueIp(),
        ...(opts.json !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: opts.json !== undefined ? JSON.stringify(opts.json) : undefined,
    },
    { ...testEnv(), JOBS: quietQueue },
  );
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('documents of one policy', () => {
  it('GET policies/{id}/documents/ lists the current card and certificate and the product documents', async () => {
    const answer = await call<{
      data: { current: { kind: string; version: number }[]; product_documents: unknown[] };
    }>(api(`/${w.lukasz.public_id}/documents/`), { token: school });
    expect(answer.status).toBe(200);
    expect(answer.body.data.current.map((c) => [c.kind, c.version])).toEqual([
      ['insurance_card', 1],
      ['certificate', 1],
    ]);
    expect(answer.body.data.product_documents).toHaveLength(1);
  });

  it('GET policies/{id}/insurance-card/download answers the card as a PDF blob', async () => {
    const answer = await download(api(`/${w.wang.public_id}/insurance-card/download`), { token: school });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/pdf');
    expect((await pdfText(answer.bytes))[0]).toContain('芳 王');
  });

  it('POST policies/{id}/documents/download takes document_id: a kind or a product document id', async () => {
    const certificate = await download(api(`/${w.sean.public_id}/documents/download`), {
      method: 'POST',
      json: { document_id: 'certificate' },
      token: school,
    });
    expect((await pdfText(certificate.bytes))[0]).toContain('Certificate of insurance');
    const wording = await download(api(`/${w.sean.public_id}/documents/download`), {
      method: 'POST',
      json: { document_id: w.productDocumentId },
      token: school,
    });
    expect(wording.headers.get('content-disposition')).toContain('Policy wording.pdf');
    const bad = await call<ErrorEnvelope>(api(`/${w.sean.public_id}/documents/download`), {
      method: 'POST',
      json: { document_id: 'passport' },
      token: school,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].key).toBe('document_id');
  });

  it('POST policies/policy-certificates-check says which have a current certificate', async () => {
    const answer = await call<{ data: { policies: { id: string; has_certificate: boolean }[] } }>(
      api('/policy-certificates-check'),
      { method: 'POST', json: { policies: [w.sean.public_id, w.zoe.public_id] }, token: school },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.policies.map((p) => [p.id, p.has_certificate])).toEqual([
      [w.sean.public_id, true],
      [w.zoe.public_id, false],
    ]);
  });
});

describe('documents of many policies', () => {
  it('POST policies/download answers the cards and certificates as a ZIP named by the title', async () => {
    const answer = await download(api('/download'), {
      method: 'POST',
      json: { policies: [w.lukasz.public_id, w.zoe.public_id], title: 'Group A' },
      token: school,
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toContain('Group A.zip');
    const entries = readCentralDirectory(answer.bytes, 10);
    expect(Array.isArray(entries) && entries.length).toBe(4);
  });

  it('POST policies/download/all refuses no document type and inactive insureds with the spec’s words', async () => {
    const none = await call<ErrorEnvelope>(api('/download/all'), {
      method: 'POST',
      json: { policies: [w.lukasz.public_id], document_types: [] },
      token: school,
      env: { JOBS: quietQueue },
    });
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual([
      { key: 'document_types', message: 'Please select at least 1 document type to download' },
    ]);
    await db()
      .update(policies)
      .set({ start_date: day(-30), end_date: day(-2) })
      .where(eq(policies.id, w.southPolicy.id));
    const inactive = await call<ErrorEnvelope>(api('/download/all'), {
      method: 'POST',
      json: { policies: [w.lukasz.public_id, w.southPolicy.public_id], document_types: ['insurance_card'] },
      token: school,
      env: { JOBS: quietQueue },
    });
    expect(inactive.status).toBe(422);
    expect(inactive.body.errors).toEqual([
      { key: 'policies', message: 'Cannot download inactive insureds documents' },
    ]);
  });

  it('POST policies/download/all starts the ZIP job; its status, then the ZIP with the PDFs', async () => {
    const started = await call<{ data: { job: { id: string; status: string } } }>(api('/download/all'), {
      method: 'POST',
      json: { policies: [w.wang.public_id], document_types: ['insurance_card', 'product:policy_wording'] },
      token: school,
      env: { JOBS: quietQueue },
    });
    expect(started.status).toBe(202);
    const jobId = started.body.data.job.id;
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, jobId));
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    const status = await call<{ data: { job: { status: string; percent: number } } }>(
      api(`/download/all/${jobId}`),
      {
        token: school,
      },
    );
    expect(status.body.data.job).toMatchObject({ status: 'done', percent: 100 });
    const zip = await download(api(`/download/all/${jobId}/file`), { token: school });
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const entries = readCentralDirectory(zip.bytes, 10);
    if (!Array.isArray(entries)) throw new Error('not a zip');
    expect(entries.map((e) => e.name)).toHaveLength(2);
    const card = entries.find((e) => e.name.includes('insurance-card'))!;
    expect((await pdfText(await entryContents(zip.bytes, card, 5_000_000)))[0]).toContain('芳 王');
    // Another user cannot follow or fetch it.
    expect((await call(api(`/download/all/${jobId}`), { token: stranger })).status).toBe(404);
    expect((await download(api(`/download/all/${jobId}/file`), { token: stranger })).status).toBe(404);
  });
});

describe('welcome emails', () => {
  it('POST policies/send-welcome-email sends to those with an email and counts the others', async () => {
    const answer = await call<{ data: { sent: number; without_email: number } }>(api('/send-welcome-email'), {
      method: 'POST',
      json: { policies: [w.lukasz.public_id, w.wang.public_id] },
      token: school,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ sent: 1, without_email: 1 });
  });

  it('says the spec’s words for an insured without an email', async () => {
    const answer = await call<ErrorEnvelope>(api(`/${w.wang.public_id}/send-welcome-email`), {
      method: 'POST',
      token: school,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors).toEqual([{ key: 'email', message: 'Insurer does not have an Email.' }]);
    const one = await call(api(`/${w.zoe.public_id}/send-welcome-email`), { method: 'POST', token: school });
    expect(one.status).toBe(200);
  });

  it('refuses an empty list', async () => {
    const answer = await call<ErrorEnvelope>(api('/send-welcome-email'), {
      method: 'POST',
      json: { policies: [] },
      token: school,
    });
    expect(answer.status).toBe(422);
  });
});

describe('another company’s user', () => {
  it('gets "not found" from every call naming a policy that is not theirs', async () => {
    const id = w.lukasz.public_id;
    const answers = [
      (await call(api(`/${id}/documents/`), { token: stranger })).status,
      (await download(api(`/${id}/insurance-card/download`), { token: stranger })).status,
      (
        await call(api(`/${id}/documents/download`), {
          method: 'POST',
          json: { document_id: 'insurance_card' },
          token: stranger,
        })
      ).status,
      (await call(api(`/${id}/send-welcome-email`), { method: 'POST', token: stranger })).status,
      (
        await call(api('/download/all'), {
          method: 'POST',
          json: { policies: [id], document_types: ['insurance_card'] },
          token: stranger,
          env: { JOBS: quietQueue },
        })
      ).status,
      (await download(api('/download'), { method: 'POST', json: { policies: [id] }, token: stranger }))
        .status,
      (await call(api('/send-welcome-email'), { method: 'POST', json: { policies: [id] }, token: stranger }))
        .status,
    ];
    expect(answers).toEqual([404, 404, 404, 404, 404, 404, 404]);
    const check = await call<{ data: { policies: unknown[] } }>(api('/policy-certificates-check'), {
      method: 'POST',
      json: { policies: [id] },
      token: stranger,
    });
    expect(check.body.data.policies).toEqual([]);
  });
});
