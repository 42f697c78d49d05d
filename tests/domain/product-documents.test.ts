import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { productDocuments } from '../../drizzle/schema';
import { NotFound } from '../../workers/domain/errors';
import { documentSchema } from '../../workers/domain/products/schema';
import {
  addDocument,
  deleteDocument,
  downloadDocument,
  listDocuments,
  updateDocument,
} from '../../workers/domain/products/documents';
import { productActivities } from '../../workers/domain/products/service';
import { actorCtx, db, SETUP_TIMEOUT_MS } from '../support/world';
import { docxBytes, exeBytes, fileOf, jpgBytes, pdfBytes, pngBytes, xlsxBytes } from '../support/files';
import {
  day,
  documentInput,
  DUNMORE,
  errorsOf,
  makeProduct,
  seedProductsWorld,
  senior,
  sides,
} from '../support/products';

beforeAll(async () => {
  await seedProductsWorld();
}, SETUP_TIMEOUT_MS);

const add = async (
  productId: string,
  raw: Record<string, unknown> = {},
  file: unknown = fileOf(pdfBytes(), 'wording.pdf'),
) => addDocument(await senior(), productId, documentSchema.parse(documentInput(raw)), file);

async function keyOf(id: number) {
  const [row] = await db().select().from(productDocuments).where(eq(productDocuments.id, id));
  return row?.file_key ?? null;
}

describe('uploading documents', () => {
  it('stores the file in R2 under the product, lists it with its details and logs the upload', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id, {
      type: 'ipid',
      language: 'fr',
      title: 'Fiche produit',
      description: 'Document d’information',
      visibility: 'public',
      valid_from: day(0),
      valid_to: day(365),
    });
    expect(document).toMatchObject({
      type: 'ipid',
      language: 'fr',
      title: 'Fiche produit',
      visibility: 'public',
      valid_from: day(0),
      valid_to: day(365),
      file_name: 'wording.pdf',
      content_type: 'application/pdf',
    });
    const key = await keyOf(document.id);
    expect(key).toMatch(new RegExp(`^products/${product.id}/[0-9a-z]{14}-wording\\.pdf$`));
    expect(await env.FILES.head(key!)).not.toBeNull();
    expect((await listDocuments(await senior(), product.id)).items.map((d) => d.id)).toEqual([document.id]);
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'document_added',
      after: { title: 'Fiche produit' },
    });
  });

  it('accepts pdf, png, jpg, docx and xlsx by their content', async () => {
    const product = await makeProduct(await senior());
    for (const [bytes, name] of [
      [jpgBytes(), 'a.jpg'],
      [docxBytes(), 'a.docx'],
      [xlsxBytes(), 'a.xlsx'],
    ] as const) {
      await add(product.id, { title: name }, fileOf(bytes, name));
    }
    expect((await listDocuments(await senior(), product.id)).items.map((d) => d.content_type).sort()).toEqual(
      [
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'image/jpeg',
      ],
    );
  });

  it('refuses a file larger than 10 MB with the spec message', async () => {
    const product = await makeProduct(await senior());
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(pdfBytes());
    expect(await errorsOf(() => add(product.id, {}, fileOf(big, 'big.pdf')))).toEqual([
      { key: 'file', text: 'File cannot be larger than 10MB' },
    ]);
  });

  it('refuses a file whose content is not an allowed kind, whatever its name', async () => {
    const product = await makeProduct(await senior());
    expect(await errorsOf(() => add(product.id, {}, fileOf(exeBytes(), 'wording.pdf')))).toEqual([
      { key: 'file', text: 'Uploaded file has incorrect format. Allowed: pdf, png, jpg, docx, xlsx.' },
    ]);
    expect(await errorsOf(() => add(product.id, {}, null))).toEqual([
      { key: 'file', text: 'This field is required' },
    ]);
    expect((await listDocuments(await senior(), product.id)).items).toEqual([]);
  });

  it('requires type, language, title and visibility, and orders the validity dates', async () => {
    const product = await makeProduct(await senior());
    expect(
      await errorsOf(() => add(product.id, { type: '', language: 'xx', title: ' ', visibility: undefined })),
    ).toEqual([
      { key: 'type', text: 'This field is required' },
      { key: 'language', text: 'This field is required' },
      { key: 'title', text: 'This field is required' },
      { key: 'visibility', text: 'This field is required' },
    ]);
    expect(await errorsOf(() => add(product.id, { valid_from: day(5), valid_to: day(4) }))).toEqual([
      { key: 'valid_to', text: 'To date should be same or after the from date' },
    ]);
    expect(await errorsOf(() => add(product.id, { valid_from: day(-1) }))).toEqual([
      { key: 'valid_from', text: 'Start date should not be in the past' },
    ]);
  });
});

describe('changing, downloading and deleting documents', () => {
  it('downloads the file from R2 with its name', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id, {}, fileOf(pdfBytes('download me'), 'Policy wording 2026.pdf'));
    const response = await downloadDocument(await senior(), product.id, document.id);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toContain('filename="Policy wording 2026.pdf"');
    expect(new TextDecoder().decode(await response.arrayBuffer())).toContain('download me');
  });

  it('changes the details only, keeping the file, when no new file is sent', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id);
    const key = await keyOf(document.id);
    const updated = await updateDocument(
      await senior(),
      product.id,
      document.id,
      documentSchema.parse(documentInput({ title: 'Renamed', visibility: 'internal' })),
    );
    expect(updated).toMatchObject({ title: 'Renamed', visibility: 'internal', file_name: 'wording.pdf' });
    expect(await keyOf(document.id)).toBe(key);
  });

  it('replaces the file and removes the old object from R2', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id);
    const oldKey = await keyOf(document.id);
    const updated = await updateDocument(
      await senior(),
      product.id,
      document.id,
      documentSchema.parse(documentInput()),
      fileOf(pngBytes(), 'scan.png'),
    );
    expect(updated).toMatchObject({ file_name: 'scan.png', content_type: 'image/png' });
    const newKey = await keyOf(document.id);
    expect(newKey).not.toBe(oldKey);
    expect(await env.FILES.head(oldKey!)).toBeNull();
    expect(await env.FILES.head(newKey!)).not.toBeNull();
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'document_replaced',
      after: { file_name: 'scan.png' },
    });
  });

  it('keeps the old file when the replacement is refused', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id);
    const oldKey = await keyOf(document.id);
    await errorsOf(async () =>
      updateDocument(
        await senior(),
        product.id,
        document.id,
        documentSchema.parse(documentInput()),
        fileOf(exeBytes(), 'x.pdf'),
      ),
    );
    expect(await keyOf(document.id)).toBe(oldKey);
    expect(await env.FILES.head(oldKey!)).not.toBeNull();
  });

  it('deletes the row and the R2 object', async () => {
    const product = await makeProduct(await senior());
    const document = await add(product.id);
    const key = await keyOf(document.id);
    await deleteDocument(await senior(), product.id, document.id);
    expect(await keyOf(document.id)).toBeNull();
    expect(await env.FILES.head(key!)).toBeNull();
    const logs = await productActivities(await senior(), product.id, { page: 1, items: 10 });
    expect(sides(logs.items[0])).toMatchObject({
      action: 'document_deleted',
      before: { title: 'Policy wording' },
    });
  });

  it('hides internal documents from school users', async () => {
    const school = await actorCtx(DUNMORE.schoolUser);
    const owner = await actorCtx(DUNMORE.companyUser);
    const product = await makeProduct(owner);
    const internal = await addDocument(
      owner,
      product.id,
      documentSchema.parse(documentInput({ visibility: 'internal' })),
      fileOf(pdfBytes(), 'a.pdf'),
    );
    const shared = await addDocument(
      owner,
      product.id,
      documentSchema.parse(documentInput({ visibility: 'clients' })),
      fileOf(pdfBytes(), 'b.pdf'),
    );
    expect((await listDocuments(school, product.id)).items.map((d) => d.id)).toEqual([shared.id]);
    await expect(downloadDocument(school, product.id, internal.id)).rejects.toBeInstanceOf(NotFound);
  });
});
