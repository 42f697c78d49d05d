/**
 * My Documents: who finds which files. Each kind follows its own area's rule (product documents by
 * contract, visibility and validity dates; cards and certificates by the policies' scope; invoices,
 * statements and agreements' documents by theirs), and a link leads to a download that serves it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  invoices,
  productDocuments,
  products,
  serviceAgreementDocuments,
  serviceAgreements,
} from '../../drizzle/schema';
import { downloadAgreementDocument } from '../../workers/domain/service-agreements/documents';
import { listMyDocuments } from '../../workers/domain/documents/service';
import { myDocumentsQuerySchema } from '../../workers/domain/documents/schema';
import { downloadDocument } from '../../workers/domain/products/documents';
import { Forbidden, NotFound } from '../../workers/domain/errors';
import { actorCtx, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { db, day, seedDocumentsWorld, type DocumentsWorld } from '../support/policy-documents';
import { pdfBytes } from '../support/files';

let w: DocumentsWorld;
const ids: Record<string, number> = {};

const query = (q: Record<string, unknown> = {}) => myDocumentsQuerySchema.parse({ items: 500, ...q });
const find = async (email: string, q: Record<string, unknown> = {}) =>
  (await listMyDocuments(await actorCtx(email), query(q))).items;

/** Adds a document to a product with the given visibility and dates (its file in R2). */
async function addProductDocument(
  productId: number,
  title: string,
  extra: Partial<typeof productDocuments.$inferInsert> = {},
) {
  const { env } = await import('cloudflare:test');
  const key = `products/test/${title}.pdf`;
  const bytes = pdfBytes();
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: 'application/pdf' } });
  const [row] = await db()
    .insert(productDocuments)
    .values({
      product_id: productId,
      type: 'other',
      language: 'en',
      title,
      visibility: 'clients',
      file_key: key,
      file_name: `${title}.pdf`,
      content_type: 'application/pdf',
      size: bytes.length,
      created_at: new Date(),
      updated_at: new Date(),
      ...extra,
    })
    .returning();
  return row.id;
}

beforeAll(async () => {
  w = await seedDocumentsWorld();
  ids.internal = await addProductDocument(w.product.id, 'Underwriting notes', { visibility: 'internal' });
  ids.lapsed = await addProductDocument(w.product.id, 'Last year wording', { valid_to: day(-1) });
  ids.spanish = await addProductDocument(w.product.id, 'Condiciones generales', { language: 'es' });
  // A product of the same company that no campus of the school holds a contract for.
  const [bounded] = await db().select().from(products).where(eq(products.code, 'TEST_BOUNDED'));
  ids.uncontracted = await addProductDocument(bounded.id, 'Bounded brochure');
  // An agreement of the school with two documents (the second is at index 1 of the agreement's files).
  const { env } = await import('cloudflare:test');
  const [agreement] = await db()
    .insert(serviceAgreements)
    .values({
      public_id: 'sa-my-documents',
      client_id: w.oakwood.id,
      company_id: w.albion.id,
      name: 'Oakwood terms 2026',
      start_date: day(-10),
      created_at: new Date(),
      updated_at: new Date(),
    })
    .returning();
  for (const [position, name] of ['Signed terms.pdf', 'Signed annex.pdf'].entries()) {
    const key = `service-agreements/sa-my-documents/${name}`;
    await env.FILES.put(key, pdfBytes(), { httpMetadata: { contentType: 'application/pdf' } });
    await db().insert(serviceAgreementDocuments).values({
      service_agreement_id: agreement.id,
      position,
      file_key: key,
      file_name: name,
      content_type: 'application/pdf',
      size: pdfBytes().length,
      created_at: new Date(),
      updated_at: new Date(),
    });
  }
}, SETUP_TIMEOUT_MS);

describe('product documents', () => {
  it("lists to a school's staff the documents of the products they hold a current contract for", async () => {
    const titles = (await find(DEMO_ACCOUNTS.schoolAdmin, { kind: 'product' })).map((d) => d.title);
    expect(titles).toEqual(expect.arrayContaining(['Policy wording', 'Condiciones generales']));
    expect(titles).not.toContain('Bounded brochure');
  });

  it('never lists an internal document or one outside its validity dates to a school', async () => {
    const titles = (await find(DEMO_ACCOUNTS.schoolAdmin, { kind: 'product' })).map((d) => d.title);
    expect(titles).not.toContain('Underwriting notes');
    expect(titles).not.toContain('Last year wording');
  });

  it("lists staff every current document of their company's products, internal ones included", async () => {
    const titles = (await find(DEMO_ACCOUNTS.seniorAdmin, { kind: 'product' })).map((d) => d.title);
    expect(titles).toEqual(
      expect.arrayContaining(['Policy wording', 'Underwriting notes', 'Bounded brochure']),
    );
    expect(titles).not.toContain('Last year wording');
  });

  it('filters by language', async () => {
    const rows = await find(DEMO_ACCOUNTS.schoolAdmin, { language: 'es' });
    expect(rows.map((d) => d.title)).toEqual(['Condiciones generales']);
    expect(rows[0].links).toEqual([
      { file: 'document', href: `/products/${w.product.public_id}/documents/${ids.spanish}/download` },
    ]);
  });

  it("downloads a listed document for the school's staff, and answers not found for anything else", async () => {
    const school = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const ok = await downloadDocument(school, w.product.public_id, w.productDocumentId);
    expect(ok.status).toBe(200);
    for (const id of [ids.internal, ids.lapsed]) {
      await expect(downloadDocument(school, w.product.public_id, id)).rejects.toBeInstanceOf(NotFound);
    }
    const [bounded] = await db().select().from(products).where(eq(products.code, 'TEST_BOUNDED'));
    await expect(downloadDocument(school, bounded.public_id, ids.uncontracted)).rejects.toBeInstanceOf(
      NotFound,
    );
    const stranger = await actorCtx(STRANGER.companyUser);
    await expect(downloadDocument(stranger, w.product.public_id, w.productDocumentId)).rejects.toBeInstanceOf(
      NotFound,
    );
  });
});

describe('cards and certificates', () => {
  it('lists one row per insured with both downloads, found by name or policy number', async () => {
    const [row] = await find(DEMO_ACCOUNTS.schoolAdmin, { search: w.lukasz.policy_number });
    expect(row).toMatchObject({ kind: 'insured', title: 'Łukasz Nowak', detail: w.lukasz.policy_number });
    expect(row.links.map((l) => l.href)).toEqual([
      `/insureds/${w.lukasz.public_id}/insurance-card.pdf`,
      `/insureds/${w.lukasz.public_id}/certificate.pdf`,
    ]);
    expect((await find(DEMO_ACCOUNTS.schoolAdmin, { search: 'Nowak' })).map((r) => r.id)).toContain(row.id);
  });

  it("shows a campus employee only their campus's insureds", async () => {
    const north = await find(DEMO_ACCOUNTS.campusEmployee, { kind: 'insured', search: 'Nowak' });
    expect(north.map((r) => r.title)).toEqual(['Łukasz Nowak']);
    expect(await find(DEMO_ACCOUNTS.campusEmployee, { search: w.southPolicy.policy_number })).toEqual([]);
    const school = await find(DEMO_ACCOUNTS.schoolAdmin, { search: w.southPolicy.policy_number });
    expect(school.map((r) => r.title)).toEqual(['Sasha South']);
  });

  it('leaves out cancelled policies', async () => {
    const { policies } = await import('../../drizzle/schema');
    await db().update(policies).set({ status: 'cancelled' }).where(eq(policies.id, w.zoe.id));
    expect(await find(DEMO_ACCOUNTS.schoolAdmin, { search: w.zoe.policy_number })).toEqual([]);
    await db().update(policies).set({ status: 'issued' }).where(eq(policies.id, w.zoe.id));
  });
});

describe('invoices and statements', () => {
  it("lists the school's invoices with their PDF, and its statement of account", async () => {
    const [invoice] = await db().select().from(invoices).where(eq(invoices.client_id, w.oakwood.id)).limit(1);
    const [row] = await find(DEMO_ACCOUNTS.schoolAdmin, { kind: 'invoice', search: invoice.number });
    expect(row).toMatchObject({ kind: 'invoice', title: invoice.number });
    expect(row.links).toEqual([{ file: 'pdf', href: `/invoices/${invoice.public_id}/pdf` }]);
    const statements = await find(DEMO_ACCOUNTS.schoolAdmin, { kind: 'statement' });
    expect(statements).toHaveLength(1);
    expect(statements[0].links.map((l) => l.href)).toEqual([
      '/billing/statement/download?format=pdf',
      '/billing/statement/download?format=xlsx',
    ]);
  });

  it("gives staff each client's statement, and a campus employee who may not read invoices neither", async () => {
    const staff = await find(DEMO_ACCOUNTS.finance, { kind: 'statement', search: 'Oakwood' });
    expect(staff.map((r) => r.links[0].href)).toContain(
      `/clients/${w.oakwood.public_id}/statement/download?format=pdf`,
    );
    expect(await find(DEMO_ACCOUNTS.campusEmployee, { kind: 'statement' })).toEqual([]);
    expect(await find(DEMO_ACCOUNTS.campusEmployee, { kind: 'invoice' })).toEqual([]);
  });
});

describe('service agreements and the tenant wall', () => {
  it("lists an agreement's documents to those who may read agreements, with the file's place in it", async () => {
    const [row] = await find(DEMO_ACCOUNTS.seniorAdmin, { kind: 'agreement', search: 'Signed annex' });
    expect(row).toMatchObject({ title: 'Signed annex.pdf', detail: 'Oakwood terms 2026' });
    expect(row.links[0].href).toBe(
      `/clients/${w.oakwood.public_id}/service-agreement/sa-my-documents/documents/1`,
    );
    const file = await downloadAgreementDocument(
      await actorCtx(DEMO_ACCOUNTS.seniorAdmin),
      'sa-my-documents',
      1,
    );
    expect(file.headers.get('content-disposition')).toContain('Signed annex.pdf');
    expect(await find(DEMO_ACCOUNTS.schoolAdmin, { kind: 'agreement' })).toEqual([]);
  });

  it("shows the staff of another company none of the school's documents", async () => {
    const rows = await find(STRANGER.companyUser);
    expect(rows.length).toBeGreaterThan(0);
    const mine = [w.lukasz.policy_number, 'Policy wording', 'Oakwood International School'];
    expect(rows.filter((r) => mine.includes(r.title) || mine.includes(r.detail ?? ''))).toEqual([]);
  });

  it('is refused to a user without the document permission', async () => {
    await expect(listMyDocuments(await actorCtx(DEMO_ACCOUNTS.external), query())).rejects.toBeInstanceOf(
      Forbidden,
    );
  });

  it('pages through the list newest first', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
    const first = await listMyDocuments(ctx, myDocumentsQuerySchema.parse({ items: 3 }));
    const second = await listMyDocuments(ctx, myDocumentsQuerySchema.parse({ items: 3, page: 2 }));
    expect(first.items).toHaveLength(3);
    expect(first.meta.total).toBeGreaterThan(6);
    expect(second.items.map((r) => r.id)).not.toEqual(expect.arrayContaining([first.items[0].id]));
    const dates = [...first.items, ...second.items].map((r) => r.date);
    expect([...dates].sort().reverse()).toEqual(dates);
  });
});
