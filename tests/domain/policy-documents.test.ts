/**
 * Policy documents: the insurance card and certificate as PDF (made in the Worker, names in any script),
 * kept in R2 per version and made again after a change; the documents ZIP job; welcome emails.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  activityLogs,
  clients,
  contacts,
  jobs,
  outbox,
  policies,
  policyDocuments,
} from '../../drizzle/schema';
import { Conflict, ValidationFailed } from '../../workers/domain/errors';
import {
  checkCertificates,
  downloadDocumentOfPolicy,
  downloadPolicyDocument,
  listPolicyDocuments,
} from '../../workers/domain/policy-documents/documents';
import {
  documentChoices,
  documentsJobStatus,
  downloadDocumentsZip,
  downloadPoliciesDirect,
  startDocumentsZip,
} from '../../workers/domain/policy-documents/bulk';
import { sendPolicyWelcomeEmails } from '../../workers/domain/policy-documents/welcome';
import { handleMessage } from '../../workers/jobs/consumer';
import type { Env, JobMessage } from '../../workers/env';
import { entryContents, readCentralDirectory } from '../../workers/platform/zip';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, testEnv } from '../support/world';
import { pdfText } from '../support/pdf-text';
import { bumpVersion, db, day, seedDocumentsWorld, type DocumentsWorld } from '../support/policy-documents';

let w: DocumentsWorld;

// Jobs are run here by handing their message to the consumer, as the queue would.
const quietQueue = { send: async () => {}, sendBatch: async () => {} };
const asSchool = () =>
  actorCtx(DEMO_ACCOUNTS.schoolAdmin, { env: { ...testEnv(), JOBS: quietQueue as never } as Env });

beforeAll(async () => {
  w = await seedDocumentsWorld();
}, SETUP_TIMEOUT_MS);

const bytesOf = async (r: Response) => new Uint8Array(await r.arrayBuffer());

async function failure(run: Promise<unknown>) {
  return run.then(
    () => null,
    (e) => e,
  );
}

describe('the insurance card and the certificate', () => {
  it('prints the names in every script, with the policy, product, cover, insurer and contacts', async () => {
    const ctx = await asSchool();
    for (const p of [w.lukasz, w.sean, w.zoe, w.wang]) {
      const card = await downloadPolicyDocument(ctx, p.public_id, 'insurance_card');
      expect(card.headers.get('content-type')).toBe('application/pdf');
      expect(card.headers.get('content-disposition')).toContain(`${p.policy_number} insurance-card v1.pdf`);
      const [text] = await pdfText(await bytesOf(card));
      expect(text).toContain(`${p.first_name} ${p.last_name}`);
      expect(text).toContain(p.policy_number);
      expect(text).toContain('Test Student Cover');
      expect(text).toContain('+44 20 7946 0999');
      expect(text).toContain('claims@albion.example');
      expect(text).toContain('Albion Underwriting Ltd');
      const [y, m, d] = p.start_date.split('-');
      expect(text).toContain(`${d}/${m}/${y}`);
    }
    const certificate = await downloadPolicyDocument(ctx, w.wang.public_id, 'certificate');
    const [text] = await pdfText(await bytesOf(certificate));
    expect(text).toContain('Certificate of insurance');
    expect(text).toContain('芳 王');
    expect(text).toContain('MC-2026-0042');
    expect(text).toContain('Oakwood International School');
    expect(text).toContain('Document version 1');
  });

  it('is made once per version and kept in R2; the same request answers the stored file', async () => {
    const ctx = await asSchool();
    await downloadPolicyDocument(ctx, w.sean.public_id, 'certificate');
    await downloadPolicyDocument(ctx, w.sean.public_id, 'certificate');
    const rows = await db()
      .select()
      .from(policyDocuments)
      .where(and(eq(policyDocuments.policy_id, w.sean.id), eq(policyDocuments.kind, 'certificate')));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      version: 1,
      file_key: `policies/${w.sean.public_id}/certificate-v1.pdf`,
    });
    const object = await testEnv().FILES.get(rows[0].file_key);
    expect(object?.size).toBe(rows[0].size);
  });

  it('is made again with the new version after the policy changes, and the old one is never served', async () => {
    const ctx = await asSchool();
    await downloadPolicyDocument(ctx, w.zoe.public_id, 'insurance_card');
    await bumpVersion(w.zoe.id);
    const card = await downloadPolicyDocument(ctx, w.zoe.public_id, 'insurance_card');
    expect(card.headers.get('content-disposition')).toContain('insurance-card v2.pdf');
    const [text] = await pdfText(await bytesOf(card));
    expect(text).toContain('Document version 2');
    const [, m, d] = day(45).split('-');
    expect(text).toContain(`${d}/${m}/`);
    const listed = await listPolicyDocuments(ctx, w.zoe.public_id);
    expect(listed.current.map((c) => [c.kind, c.version])).toEqual([
      ['insurance_card', 2],
      ['certificate', 2],
    ]);
    expect(listed.current[0].created_at).not.toBeNull();
    expect(listed.current[1].created_at).toBeNull();
    expect(listed.earlier_versions).toEqual([
      expect.objectContaining({ kind: 'insurance_card', version: 1 }),
    ]);
    expect(listed.product_documents).toEqual([
      expect.objectContaining({ id: w.productDocumentId, type: 'policy_wording' }),
    ]);
  });

  it('is written in the client’s language, Chinese labels included', async () => {
    const ctx = await asSchool();
    try {
      for (const [lang, title] of [
        ['de', 'Versicherungsbestätigung'],
        ['cn', '保险证明'],
      ] as const) {
        await db().update(clients).set({ preferred_lang: lang }).where(eq(clients.id, w.oakwood.id));
        await bumpVersion(w.southPolicy.id);
        const [text] = await pdfText(
          await bytesOf(await downloadPolicyDocument(ctx, w.southPolicy.public_id, 'certificate')),
        );
        expect(text).toContain(title);
        expect(text).toContain('Sasha South');
      }
    } finally {
      await db().update(clients).set({ preferred_lang: 'en' }).where(eq(clients.id, w.oakwood.id));
    }
  });

  it('downloads the product document listed for the policy, by its id', async () => {
    const ctx = await asSchool();
    const response = await downloadDocumentOfPolicy(ctx, w.lukasz.public_id, w.productDocumentId);
    expect(response.headers.get('content-disposition')).toContain('Policy wording.pdf');
    expect(await failure(downloadDocumentOfPolicy(ctx, w.lukasz.public_id, 999_999))).toMatchObject({
      status: 404,
    });
  });

  it('says which policies have a certificate of their current version', async () => {
    const ctx = await asSchool();
    const answer = await checkCertificates(ctx, [w.sean.public_id, w.lukasz.public_id, 'nosuchpolicy']);
    // In policy order (Łukasz was issued first); an unknown id is left out.
    expect(answer.map((a) => [a.id, a.has_certificate, a.available])).toEqual([
      [w.lukasz.public_id, false, true],
      [w.sean.public_id, true, true],
    ]);
  });

  it('refuses the documents of a cancelled policy', async () => {
    const ctx = await asSchool();
    await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, w.southPolicy.id));
    const e = await failure(downloadPolicyDocument(ctx, w.southPolicy.public_id, 'insurance_card'));
    expect(e).toBeInstanceOf(Conflict);
    expect((e as Error).message).toBe('policy_documents.errors.inactive');
    await db().update(policies).set({ status: 'issued' }).where(eq(policies.id, w.southPolicy.id));
  });
});

describe('downloading documents in bulk', () => {
  const ids = () => [w.lukasz.id, w.wang.id];

  it('offers the card, the certificate and the product documents’ types', async () => {
    const choices = await documentChoices(await asSchool(), ids());
    expect(choices.count).toBe(2);
    expect(choices.inactive).toBe(0);
    expect(choices.types.map((t) => t.value)).toEqual([
      'insurance_card',
      'certificate',
      'product:policy_wording',
    ]);
  });

  it('refuses no document type, and any inactive insured', async () => {
    const ctx = await asSchool();
    const none = await failure(startDocumentsZip(ctx, ids(), []));
    expect(none).toBeInstanceOf(ValidationFailed);
    expect((none as ValidationFailed).errors).toEqual([
      { key: 'document_types', message: 'policy_documents.errors.no_type' },
    ]);
    await db()
      .update(policies)
      .set({ end_date: day(-1), start_date: day(-10) })
      .where(eq(policies.id, w.sean.id));
    const inactive = await failure(startDocumentsZip(ctx, [...ids(), w.sean.id], ['insurance_card']));
    expect((inactive as ValidationFailed).errors).toEqual([
      { key: 'policies', message: 'policy_documents.errors.inactive' },
    ]);
    expect((await documentChoices(ctx, [w.sean.id])).inactive).toBe(1);
  });

  it('builds one ZIP in a job: a folder per insured with the PDFs, the product documents once', async () => {
    const ctx = await asSchool();
    const started = await startDocumentsZip(ctx, ids(), [
      'insurance_card',
      'certificate',
      'product:policy_wording',
    ]);
    expect(started).toMatchObject({ status: 'queued', total: 2 });
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, started.id));
    await handleMessage(testEnv(), { type: 'job.run', id: job.id });
    const status = await documentsJobStatus(ctx, started.id);
    expect(status).toMatchObject({ status: 'done', done: 2, percent: 100 });
    expect(status.result).toMatchObject({ insureds: 2, files: 5 });

    const zip = await bytesOf(await downloadDocumentsZip(ctx, started.id));
    const entries = readCentralDirectory(zip, 100);
    if (!Array.isArray(entries)) throw new Error('not a zip');
    const folder = (p: typeof w.lukasz) => `${p.policy_number} ${p.last_name} ${p.first_name}`;
    expect(entries.map((e) => e.name).sort()).toEqual(
      [
        `${folder(w.lukasz)}/${w.lukasz.policy_number} certificate v1.pdf`,
        `${folder(w.lukasz)}/${w.lukasz.policy_number} insurance-card v1.pdf`,
        `${folder(w.wang)}/${w.wang.policy_number} certificate v1.pdf`,
        `${folder(w.wang)}/${w.wang.policy_number} insurance-card v1.pdf`,
        'Product documents/TEST_STUDENT/Policy wording.pdf',
      ].sort(),
    );
    const card = entries.find((e) => e.name.endsWith(`${w.wang.policy_number} insurance-card v1.pdf`))!;
    const [text] = await pdfText(await entryContents(zip, card, 10_000_000));
    expect(text).toContain('芳 王');
  });

  it('makes a large selection’s documents over several deliveries, each picking up where the last stopped', async () => {
    const sent: JobMessage[] = [];
    const env = {
      ...testEnv(),
      JOBS: { send: async (m: JobMessage) => void sent.push(m), sendBatch: async () => {} },
    } as unknown as Env;
    const ctx = await asSchool();
    const chosen = [w.lukasz, w.wang, w.zoe];
    for (const p of chosen) await bumpVersion(p.id);
    const started = await startDocumentsZip(
      ctx,
      chosen.map((p) => p.id),
      ['insurance_card', 'certificate'],
    );
    const [job] = await db().select().from(jobs).where(eq(jobs.public_id, started.id));
    // Two documents per delivery: six documents to make take three deliveries.
    await db()
      .update(jobs)
      .set({ payload: { ...job.payload, per_run: 2 } })
      .where(eq(jobs.id, job.id));
    await handleMessage(env, { type: 'job.run', id: job.id });
    expect(sent).toEqual([{ type: 'job.run', id: job.id }]);
    expect(await documentsJobStatus(ctx, started.id)).toMatchObject({ status: 'queued', done: 1, total: 3 });
    await handleMessage(env, sent[0]);
    expect(sent).toHaveLength(2);
    await handleMessage(env, sent[1]);
    expect(sent).toHaveLength(2);
    const status = await documentsJobStatus(ctx, started.id);
    expect(status).toMatchObject({ status: 'done', done: 3, percent: 100 });
    expect(status.result).toMatchObject({ insureds: 3, files: 6 });
    const zip = await bytesOf(await downloadDocumentsZip(ctx, started.id));
    const entries = readCentralDirectory(zip, 100);
    expect(Array.isArray(entries) && entries.map((e) => e.name.split(' ').pop()).sort()).toEqual([
      'v2.pdf',
      'v2.pdf',
      'v2.pdf',
      'v2.pdf',
      'v3.pdf',
      'v3.pdf',
    ]);
  });

  it('does not show one user’s job to another', async () => {
    const ctx = await asSchool();
    const started = await startDocumentsZip(ctx, ids(), ['insurance_card']);
    const other = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    expect(await failure(documentsJobStatus(other, started.id))).toMatchObject({ status: 404 });
    expect(await failure(downloadDocumentsZip(other, started.id))).toMatchObject({ status: 404 });
  });

  it('answers a few insureds’ cards and certificates as a ZIP in the request', async () => {
    const ctx = await asSchool();
    const response = await downloadPoliciesDirect(ctx, {
      policies: [w.lukasz.public_id],
      title: 'Łukasz docs',
    });
    expect(response.headers.get('content-disposition')).toContain("filename*=UTF-8''%C5%81ukasz%20docs.zip");
    const zip = await bytesOf(response);
    expect(Number(response.headers.get('content-length'))).toBe(zip.length);
    const entries = readCentralDirectory(zip, 10);
    expect(Array.isArray(entries) && entries.map((e) => e.name.split('/')[1]).sort()).toEqual([
      expect.stringMatching(new RegExp(`^${w.lukasz.policy_number} certificate v\\d+\\.pdf$`)),
      expect.stringMatching(new RegExp(`^${w.lukasz.policy_number} insurance-card v\\d+\\.pdf$`)),
    ]);
  });
});

describe('welcome emails', () => {
  it('sends to each chosen insured with an email, reports those without, and stamps the policies', async () => {
    const ctx = await asSchool();
    const before = await db().select().from(outbox);
    const outcome = await sendPolicyWelcomeEmails(ctx, [w.lukasz.id, w.wang.id]);
    expect(outcome).toEqual({ sent: 1, without_email: 1, cancelled: 0 });
    const after = await db().select().from(outbox);
    const added = after.slice(before.length);
    expect(added.map((m) => m.recipient)).toEqual(['lukasz@example.test']);
    expect(added[0].body_text).toContain('Łukasz Nowak');
    expect(added[0].body_text).toContain(w.lukasz.policy_number);
    const [stamped] = await db().select().from(policies).where(eq(policies.id, w.lukasz.id));
    expect(stamped.welcome_email_sent_at).not.toBeNull();
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'policy'), eq(activityLogs.entity_id, w.lukasz.id)));
    expect(logs.map((l) => l.action)).toContain('welcome_email_sent');
  });

  it('says the insurer does not have an email when none of them has one', async () => {
    const e = await failure(sendPolicyWelcomeEmails(await asSchool(), [w.wang.id]));
    expect((e as ValidationFailed).errors).toEqual([{ key: 'email', message: 'checkout.errors.no_email' }]);
  });

  it('needs the client’s initial contact', async () => {
    const ctx = await asSchool();
    const initial = await db()
      .select()
      .from(contacts)
      .where(
        and(
          eq(contacts.owner_type, 'client'),
          eq(contacts.owner_id, w.oakwood.id),
          eq(contacts.type, 'initial'),
        ),
      );
    await db().update(contacts).set({ type: 'custom' }).where(eq(contacts.id, initial[0].id));
    try {
      const e = await failure(sendPolicyWelcomeEmails(ctx, [w.lukasz.id]));
      expect((e as ValidationFailed).errors).toEqual([
        {
          key: 'policies',
          message: 'policy_documents.errors.no_initial_contact|{"client":"Oakwood International School"}',
        },
      ]);
    } finally {
      await db().update(contacts).set({ type: 'initial' }).where(eq(contacts.id, initial[0].id));
    }
  });
});
