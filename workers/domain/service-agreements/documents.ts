/** The documents of a service agreement: files in R2, listed on the agreement, added, downloaded, removed. */
import { asc, eq, max, sql } from 'drizzle-orm';
import { serviceAgreementDocuments } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import {
  checkUpload,
  deleteFiles,
  fileKey,
  fileResponse,
  putFile,
  type CheckedFile,
} from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import { msg } from '../validation';
import { AGREEMENT_DOCUMENT_KINDS, AGREEMENT_DOCUMENT_MAX_MB, MAX_AGREEMENT_DOCUMENTS } from './schema';
import { type AgreementRow, findAgreement } from './records';
import { getServiceAgreement, type AgreementView } from './queries';

// ---------------------------------------------------------------- documents

/**
 * service-agreements/{id}/documents/add: several files (pdf, docx, xlsx, png, jpg; 10 MB each), checked
 * by content, stored in R2 under `service-agreements/<id>/`, listed after the ones already there.
 */
export async function addAgreementDocuments(
  ctx: ActorCtx,
  id: string,
  files: unknown[],
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const present = files.filter((f) => f instanceof Blob && !(f instanceof File && !f.name && f.size === 0));
  if (!present.length) throw ValidationFailed.field('documents', msg('validation.required'));
  const checked: CheckedFile[] = [];
  for (const [i, f] of present.entries()) {
    checked.push(
      await checkUpload(f, {
        field: present.length > 1 ? `documents.${i}` : 'documents',
        allowed: AGREEMENT_DOCUMENT_KINDS,
        maxMb: AGREEMENT_DOCUMENT_MAX_MB,
      }),
    );
  }
  const [{ count, last }] = await ctx.db
    .select({ count: sql<number>`count(*)`, last: max(serviceAgreementDocuments.position) })
    .from(serviceAgreementDocuments)
    .where(eq(serviceAgreementDocuments.service_agreement_id, sa.id));
  if (Number(count) + checked.length > MAX_AGREEMENT_DOCUMENTS)
    throw ValidationFailed.field(
      'documents',
      msg('service_agreements.errors.too_many_documents', { max: MAX_AGREEMENT_DOCUMENTS }),
    );
  const keys = checked.map((f) => fileKey(`service-agreements/${sa.public_id}`, f.name));
  await Promise.all(checked.map((f, i) => putFile(ctx.env.FILES, keys[i], f)));
  try {
    const start = (last ?? -1) + 1;
    await runBatch(ctx.db, [
      ...checked.map((f, i) =>
        ctx.db.insert(serviceAgreementDocuments).values({
          service_agreement_id: sa.id,
          position: start + i,
          file_key: keys[i],
          file_name: f.name,
          content_type: f.contentType,
          size: f.size,
          created_at: ctx.now,
          updated_at: ctx.now,
        }),
      ),
      logActivity(ctx, {
        entity_type: 'service_agreement',
        entity_id: sa.id,
        action: 'documents_added',
        after: { documents: checked.map((f) => f.name).join(', ') },
        company_id: sa.company_id,
        client_id: sa.client_id,
      }),
    ]);
  } catch (e) {
    await deleteFiles(ctx.env.FILES, keys);
    throw e;
  }
  return getServiceAgreement(ctx, sa.public_id);
}

async function documentAt(ctx: ActorCtx, sa: AgreementRow, index: number) {
  const docs = await ctx.db
    .select()
    .from(serviceAgreementDocuments)
    .where(eq(serviceAgreementDocuments.service_agreement_id, sa.id))
    .orderBy(asc(serviceAgreementDocuments.position), asc(serviceAgreementDocuments.id));
  const doc = docs[index];
  if (!doc) throw new NotFound(msg('service_agreements.errors.document_not_found'));
  return doc;
}

/** service-agreements/{id}/documents/download: the file at `index` (0-based), streamed from R2. */
export async function downloadAgreementDocument(ctx: ActorCtx, id: string, index: number): Promise<Response> {
  requirePermission(ctx.actor, 'read_service_agreement');
  const sa = await findAgreement(ctx, id);
  const doc = await documentAt(ctx, sa, index);
  const response = await fileResponse(ctx.env.FILES, doc.file_key, {
    name: doc.file_name,
    contentType: doc.content_type,
  });
  if (!response) throw new NotFound(msg('service_agreements.errors.document_not_found'));
  return response;
}

/** Removes the document at `index`; the file leaves R2 once the row is gone. */
export async function removeAgreementDocument(
  ctx: ActorCtx,
  id: string,
  index: number,
): Promise<AgreementView> {
  requirePermission(ctx.actor, 'update_service_agreement');
  const sa = await findAgreement(ctx, id);
  const doc = await documentAt(ctx, sa, index);
  await runBatch(ctx.db, [
    ctx.db.delete(serviceAgreementDocuments).where(eq(serviceAgreementDocuments.id, doc.id)),
    logActivity(ctx, {
      entity_type: 'service_agreement',
      entity_id: sa.id,
      action: 'document_removed',
      before: { document: doc.file_name },
      company_id: sa.company_id,
      client_id: sa.client_id,
    }),
  ]);
  await deleteFiles(ctx.env.FILES, [doc.file_key]);
  return getServiceAgreement(ctx, sa.public_id);
}
