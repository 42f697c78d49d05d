/**
 * A product's documents (spec 001 s.3, 002 s.7): a file in R2 with its type, language, title,
 * description, visibility and validity dates. Upload, change (with or without a new file), download,
 * delete. The R2 object is written before the row that points to it and removed after the row is gone,
 * so a row never names a missing file.
 */
import { and, asc, eq } from 'drizzle-orm';
import { productDocuments, products } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import {
  checkUpload,
  deleteFile,
  fileKey,
  fileResponse,
  putFile,
  type CheckedFile,
} from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { visibleProductDocuments } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed, type FieldError } from '../errors';
import { wholePage } from '../lists';
import { logActivity } from '../audit/activity-log';
import { msg, todayIso } from '../validation';
import { findProduct, type ProductRow } from './queries';
import { DOCUMENT_FILE_KINDS, DOCUMENT_MAX_MB, type DocumentInput } from './schema';

type DocumentRow = typeof productDocuments.$inferSelect;

function presentDocument(d: DocumentRow, product: ProductRow) {
  return {
    id: d.id,
    product_id: product.public_id,
    type: d.type,
    language: d.language,
    title: d.title,
    description: d.description,
    visibility: d.visibility,
    valid_from: d.valid_from,
    valid_to: d.valid_to,
    file_name: d.file_name,
    content_type: d.content_type,
    size: d.size,
    created_at: d.created_at.toISOString(),
    updated_at: d.updated_at.toISOString(),
  };
}
export type DocumentView = ReturnType<typeof presentDocument>;

/** School and student users never see internal documents. */
function hiddenFrom(ctx: ActorCtx, d: DocumentRow) {
  return ctx.actor.user_type !== 'company' && d.visibility === 'internal';
}

/** GET products/{id}/documents. */
export async function listDocuments(ctx: ActorCtx, productId: string) {
  requirePermission(ctx.actor, 'read_product');
  const product = await findProduct(ctx, productId);
  const rows = await ctx.db
    .select()
    .from(productDocuments)
    .where(eq(productDocuments.product_id, product.id))
    .orderBy(asc(productDocuments.type), asc(productDocuments.title), asc(productDocuments.id));
  const items = rows.filter((d) => !hiddenFrom(ctx, d)).map((d) => presentDocument(d, product));
  return wholePage(items);
}

async function findDocument(ctx: ActorCtx, product: ProductRow, documentId: number): Promise<DocumentRow> {
  const [row] = await ctx.db
    .select()
    .from(productDocuments)
    .where(and(eq(productDocuments.id, documentId), eq(productDocuments.product_id, product.id)))
    .limit(1);
  if (!row || hiddenFrom(ctx, row)) throw new NotFound();
  return row;
}

function checkDates(ctx: ActorCtx, input: DocumentInput, before: DocumentRow | null) {
  const today = todayIso(ctx.now);
  const errors: FieldError[] = [];
  if (input.valid_from && input.valid_from !== before?.valid_from && input.valid_from < today)
    errors.push({ key: 'valid_from', message: msg('validation.start_not_past') });
  if (input.valid_to && input.valid_to !== before?.valid_to && input.valid_to < today)
    errors.push({ key: 'valid_to', message: msg('products.errors.end_not_past') });
  if (errors.length) throw new ValidationFailed(errors);
}

function metaValues(input: DocumentInput) {
  return {
    type: input.type,
    language: input.language,
    title: input.title,
    description: input.description ?? null,
    visibility: input.visibility,
    valid_from: input.valid_from ?? null,
    valid_to: input.valid_to ?? null,
  };
}

const checkDocumentFile = (file: unknown) =>
  checkUpload(file, { field: 'file', allowed: DOCUMENT_FILE_KINDS, maxMb: DOCUMENT_MAX_MB });

const fileValues = (key: string, file: CheckedFile) => ({
  file_key: key,
  file_name: file.name,
  content_type: file.contentType,
  size: file.size,
});

/** POST products/{id}/documents/add (multipart: the details and `file`). */
export async function addDocument(ctx: ActorCtx, productId: string, input: DocumentInput, file: unknown) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  checkDates(ctx, input, null);
  const checked = await checkDocumentFile(file);
  const key = fileKey(`products/${product.public_id}`, checked.name);
  await putFile(ctx.env.FILES, key, checked);
  const values = { ...metaValues(input), ...fileValues(key, checked) };
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .insert(productDocuments)
        .values({ ...values, product_id: product.id, created_at: ctx.now, updated_at: ctx.now })
        .returning(),
      logActivity(ctx, {
        entity_type: 'product',
        entity_id: product.id,
        action: 'document_added',
        after: { ...values, file_key: undefined },
        company_id: product.company_id,
      }),
    ]);
    return presentDocument(row, product);
  } catch (e) {
    await deleteFile(ctx.env.FILES, key);
    throw e;
  }
}

/**
 * POST products/{id}/documents/{documentId} (multipart): new details, and a new file when one is sent
 * (the old file is removed once the row points to the new one).
 */
export async function updateDocument(
  ctx: ActorCtx,
  productId: string,
  documentId: number,
  input: DocumentInput,
  file?: unknown,
) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  const before = await findDocument(ctx, product, documentId);
  checkDates(ctx, input, before);
  const replacing = file instanceof Blob && file.size > 0;
  const checked = replacing ? await checkDocumentFile(file) : null;
  const key = checked ? fileKey(`products/${product.public_id}`, checked.name) : null;
  if (checked && key) await putFile(ctx.env.FILES, key, checked);
  const values = { ...metaValues(input), ...(checked && key ? fileValues(key, checked) : {}) };
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(productDocuments)
        .set({ ...values, updated_at: ctx.now })
        .where(eq(productDocuments.id, before.id))
        .returning(),
      logActivity(ctx, {
        entity_type: 'product',
        entity_id: product.id,
        action: checked ? 'document_replaced' : 'document_updated',
        before: {
          ...before,
          id: undefined,
          product_id: undefined,
          file_key: undefined,
          created_at: undefined,
        },
        after: {
          ...before,
          ...values,
          id: undefined,
          product_id: undefined,
          file_key: undefined,
          created_at: undefined,
        },
        company_id: product.company_id,
      }),
    ]);
    if (key) await deleteFile(ctx.env.FILES, before.file_key);
    return presentDocument(row, product);
  } catch (e) {
    if (key) await deleteFile(ctx.env.FILES, key);
    throw e;
  }
}

/** DELETE products/{id}/documents/{documentId}: the row, its log, then the R2 object. */
export async function deleteDocument(ctx: ActorCtx, productId: string, documentId: number) {
  requirePermission(ctx.actor, 'update_product');
  const product = await findProduct(ctx, productId);
  const before = await findDocument(ctx, product, documentId);
  await runBatch(ctx.db, [
    ctx.db.delete(productDocuments).where(eq(productDocuments.id, before.id)),
    logActivity(ctx, {
      entity_type: 'product',
      entity_id: product.id,
      action: 'document_deleted',
      before: {
        type: before.type,
        title: before.title,
        language: before.language,
        file_name: before.file_name,
      },
      company_id: product.company_id,
    }),
  ]);
  await deleteFile(ctx.env.FILES, before.file_key);
}

/** Who may download a product's document: staff and holders of read_product, or a school's staff (read_document). */
export const PRODUCT_DOCUMENT_ACCESS = 'read_product|read_document';

/**
 * POST products/{id}/documents/{documentId}/download: the file streamed from R2 as an attachment, if the
 * actor may see it (access/scope.ts `visibleProductDocuments`: a school's staff the documents of the
 * products they hold a current contract for); anything else answers NotFound.
 */
export async function downloadDocument(
  ctx: ActorCtx,
  productId: string,
  documentId: number,
): Promise<Response> {
  requirePermission(ctx.actor, PRODUCT_DOCUMENT_ACCESS);
  const [doc] = await ctx.db
    .select({
      file_key: productDocuments.file_key,
      file_name: productDocuments.file_name,
      content_type: productDocuments.content_type,
    })
    .from(productDocuments)
    .innerJoin(products, eq(products.id, productDocuments.product_id))
    .where(
      and(
        eq(productDocuments.id, documentId),
        eq(products.public_id, productId),
        visibleProductDocuments(ctx.actor, todayIso(ctx.now)),
      ),
    )
    .limit(1);
  if (!doc) throw new NotFound();
  const response = await fileResponse(ctx.env.FILES, doc.file_key, {
    name: doc.file_name,
    contentType: doc.content_type,
  });
  if (!response) throw new NotFound();
  return response;
}
