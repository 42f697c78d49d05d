/**
 * Documents of many insureds at once (spec 001 s.2 bulk action "download documents", s.8 its messages;
 * 002 s.7 policies/download, policies/download/all):
 *
 * - The user chooses document types: the insurance card, the certificate, and the types of the product
 *   documents the selected insureds' products have. At least one ('Please select at least 1 document
 *   type to download'); a selection holding an inactive insured (cancelled or expired) is refused
 *   ('Cannot download inactive insureds documents').
 * - A job makes the missing PDFs (of each policy's current version) and writes one ZIP into R2, streamed
 *   (client-zip, stored entries, the length predicted so R2 takes the stream as it comes); the page polls
 *   the job and then offers the ZIP, streamed back from R2. One folder per insured
 *   (`P00000012 Nowak Łukasz/`); the product documents once per product (`Product documents/<code>/`).
 * - `policies/download` (at most MAX_DIRECT_DOWNLOAD insureds) answers the cards and certificates as a
 *   ZIP in the request itself.
 */
import { makeZip, predictLength } from 'client-zip';
import { and, asc, eq, sql } from 'drizzle-orm';
import { policies, productDocuments, products } from '../../../drizzle/schema';
import type { Env } from '../../env';
import { inJson, type DB } from '../../platform/db';
import { cleanFileName, contentDisposition, fileResponse } from '../../platform/storage';
import { writeZipToBucket, type StoredZipEntry } from '../../platform/zip-store';
import { requirePermission } from '../access/actor';
import { visiblePolicies } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed } from '../errors';
import {
  ContinueJob,
  deliveryBudget,
  getJobStatus,
  reportProgress,
  startJob,
  type Job,
  type JobStatus,
} from '../jobs/service';
import type { BulkSelection } from '../list-query';
import { selectedPolicyIds } from '../policies/filters';
import { policyListQuerySchema } from '../policies/list-query';
import { msg, todayIso } from '../validation';
import {
  DOCUMENT_PERMISSION,
  documentFileName,
  ensureCurrentDocument,
  INACTIVE_MESSAGE,
  isInactive,
  productDocumentsOf,
} from './documents';
import {
  MAX_ZIP_POLICIES,
  POLICY_DOCUMENT_KINDS,
  type DirectDownloadInput,
  type PolicyDocumentKind,
} from './schema';

export const DOCUMENTS_ZIP_JOB = 'policy_documents.zip';
export const NO_TYPE_MESSAGE = 'policy_documents.errors.no_type';

type Chosen = { kinds: PolicyDocumentKind[]; productTypes: string[] };

function splitTypes(types: readonly string[]): Chosen {
  const kinds = POLICY_DOCUMENT_KINDS.filter((k) => types.includes(k));
  const productTypes = [
    ...new Set(types.filter((t) => t.startsWith('product:')).map((t) => t.slice('product:'.length))),
  ];
  return { kinds, productTypes };
}

/** The policies (in scope) of a selection, with what the rules read. */
async function selectedPolicies(ctx: ActorCtx, ids: number[]) {
  if (!ids.length) return [];
  return ctx.db
    .select({
      id: policies.id,
      public_id: policies.public_id,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      status: policies.status,
      start_date: policies.start_date,
      end_date: policies.end_date,
      product_id: policies.product_id,
    })
    .from(policies)
    .where(and(inJson(policies.id, ids), visiblePolicies(ctx.actor)))
    .orderBy(asc(policies.id));
}

/** The ids of a bulk selection (ids or "all matching" with the list's filters), in the actor's scope. */
export async function policyIdsOf(
  ctx: ActorCtx,
  selection: BulkSelection,
  filters: Record<string, string>,
): Promise<number[]> {
  const query = policyListQuerySchema.safeParse(filters);
  return selectedPolicyIds(ctx, selection, query.success ? query.data : policyListQuerySchema.parse({}));
}

/**
 * What the choice page shows for a selection: how many insureds, how many of them are inactive, and the
 * document types on offer (card, certificate, and each type of their products' documents).
 */
export async function documentChoices(ctx: ActorCtx, ids: number[]) {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const rows = await selectedPolicies(ctx, ids);
  const today = todayIso(ctx.now);
  const productIds = [...new Set(rows.map((r) => r.product_id))];
  const docs = await productDocumentsOf(ctx, productIds);
  return {
    count: rows.length,
    inactive: rows.filter((r) => isInactive(r, today)).length,
    /** The first insureds chosen, to name them (and link to their pages). */
    sample: rows.slice(0, 10).map((r) => ({
      id: r.public_id,
      policy_number: r.policy_number,
      name: `${r.first_name} ${r.last_name}`,
      inactive: isInactive(r, today),
    })),
    types: [
      ...POLICY_DOCUMENT_KINDS.map((k) => ({
        value: k as string,
        kind: k as string,
        label: null as string | null,
      })),
      ...[...new Set(docs.map((d) => d.type))].map((type) => ({
        value: `product:${type}`,
        kind: 'product',
        label: type,
      })),
    ],
  };
}

/** Refusals shared by the ZIP and the direct download. */
function checkSelection(
  rows: { status: 'issued' | 'cancelled'; start_date: string; end_date: string }[],
  ids: number[],
  today: string,
) {
  if (!ids.length) throw ValidationFailed.field('policies', msg('policy_documents.bulk.nothing'));
  // Ids were named, none of them is the actor's: as for one id of another tenant, not found.
  if (!rows.length) throw new NotFound(msg('insureds.errors.not_found'));
  if (rows.length > MAX_ZIP_POLICIES)
    throw ValidationFailed.field(
      'policies',
      msg('policy_documents.errors.too_many', { max: MAX_ZIP_POLICIES }),
    );
  if (rows.some((r) => isInactive(r, today))) throw ValidationFailed.field('policies', msg(INACTIVE_MESSAGE));
}

/**
 * Starts the documents ZIP of the insureds `ids` (already in scope) for `types`, as a job; answers its
 * status (the page and the API poll it).
 */
export async function startDocumentsZip(
  ctx: ActorCtx,
  ids: number[],
  types: readonly string[],
): Promise<JobStatus> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const chosen = splitTypes(types);
  if (!chosen.kinds.length && !chosen.productTypes.length)
    throw ValidationFailed.field('document_types', msg(NO_TYPE_MESSAGE));
  const rows = await selectedPolicies(ctx, ids);
  checkSelection(rows, ids, todayIso(ctx.now));
  return startJob(ctx, {
    type: DOCUMENTS_ZIP_JOB,
    total: rows.length,
    payload: {
      policy_ids: rows.map((r) => r.id),
      kinds: chosen.kinds,
      product_types: chosen.productTypes,
      // The product documents a school user may not see stay out of their ZIP.
      internal_documents: ctx.actor.user_type === 'company',
    },
  });
}

/** POST policies/download/all with the public ids of the insureds. */
export async function startDocumentsZipByPublicIds(
  ctx: ActorCtx,
  input: { policies: string[]; document_types: string[] },
): Promise<JobStatus> {
  const ids = await policyIdsOf(ctx, { all_matching: false, ids: input.policies }, {});
  if (!ids.length) throw new NotFound(msg('insureds.errors.not_found'));
  return startDocumentsZip(ctx, ids, input.document_types);
}

type ZipEntry = StoredZipEntry;

/** A folder name for an insured: the policy number and the name, without characters zips dislike. */
const safeName = (name: string) => cleanFileName(name).replace(/[\\/:*?"<>|]+/g, '_');

const folderOf = (p: { policy_number: string; first_name: string; last_name: string }) =>
  safeName(`${p.policy_number} ${p.last_name} ${p.first_name}`);

/** The entries of the cards/certificates of `rows` (made where missing), reporting progress. */
async function documentEntries(
  db: DB,
  env: Env,
  rows: { id: number; policy_number: string; first_name: string; last_name: string }[],
  kinds: PolicyDocumentKind[],
  now: Date,
  progress?: (done: number) => Promise<void>,
  budget?: ReturnType<typeof deliveryBudget>,
): Promise<ZipEntry[]> {
  const entries: ZipEntry[] = [];
  let done = 0;
  for (const p of rows) {
    for (const kind of kinds) {
      const doc = await ensureCurrentDocument(db, env, p.id, kind, now, () => budget?.made());
      entries.push({
        name: `${folderOf(p)}/${documentFileName(p.policy_number, kind, doc.version)}`,
        key: doc.file_key,
        size: doc.size,
        lastModified: doc.created_at,
      });
    }
    done += 1;
    // Enough made in this delivery: the job goes on in the next one, which finds these stored.
    if ((await budget?.spent()) && done < rows.length) {
      await progress?.(done);
      throw new ContinueJob();
    }
    if (progress && (done % 10 === 0 || done === rows.length)) await progress(done);
  }
  return entries;
}

/** The job runner: makes the missing documents, then the ZIP. Its result names the ZIP. */
export async function runDocumentsZip(db: DB, env: Env, job: Job): Promise<Record<string, unknown>> {
  const payload = job.payload as {
    policy_ids: number[];
    kinds: PolicyDocumentKind[];
    product_types: string[];
    internal_documents: boolean;
    /** At most this many documents made per delivery (tests set it low); else the time budget. */
    per_run?: number;
  };
  const now = new Date();
  const rows = await db
    .select({
      id: policies.id,
      policy_number: policies.policy_number,
      first_name: policies.first_name,
      last_name: policies.last_name,
      product_id: policies.product_id,
      product_code: products.code,
    })
    .from(policies)
    .innerJoin(products, eq(products.id, policies.product_id))
    .where(inJson(policies.id, payload.policy_ids))
    .orderBy(asc(policies.policy_number));
  const entries = await documentEntries(
    db,
    env,
    rows,
    payload.kinds,
    now,
    (done) => reportProgress(db, job.id, { done, total: rows.length }),
    deliveryBudget(payload.per_run),
  );
  if (payload.product_types.length) {
    const productIds = [...new Set(rows.map((r) => r.product_id))];
    const today = todayIso(now);
    const docs = await db
      .select()
      .from(productDocuments)
      .where(
        and(
          inJson(productDocuments.product_id, productIds),
          inJson(productDocuments.type, payload.product_types),
          sql`(${productDocuments.valid_from} IS NULL OR ${productDocuments.valid_from} <= ${today})`,
          sql`(${productDocuments.valid_to} IS NULL OR ${productDocuments.valid_to} >= ${today})`,
          payload.internal_documents ? undefined : sql`${productDocuments.visibility} <> 'internal'`,
        ),
      )
      .orderBy(asc(productDocuments.product_id), asc(productDocuments.id));
    const codeOf = new Map(rows.map((r) => [r.product_id, r.product_code]));
    const used = new Set<string>();
    for (const d of docs) {
      let name = `Product documents/${safeName(codeOf.get(d.product_id) ?? 'product')}/${safeName(d.file_name)}`;
      if (used.has(name)) name = name.replace(/(\.[^./]+)?$/, ` (${d.id})$1`);
      used.add(name);
      entries.push({ name, key: d.file_key, size: d.size, lastModified: d.updated_at });
    }
  }
  const fileName = `insured-documents-${todayIso(now)}.zip`;
  const key = `jobs/${job.public_id}/${fileName}`;
  const size = await writeZipToBucket(env.FILES, key, fileName, entries);
  return { file_key: key, file_name: fileName, size, insureds: rows.length, files: entries.length };
}

/** The finished ZIP of a documents job the actor started, streamed from R2. */
export async function downloadDocumentsZip(ctx: ActorCtx, jobId: string): Promise<Response> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const status = await getJobStatus(ctx, jobId);
  if (status.type !== DOCUMENTS_ZIP_JOB || status.status !== 'done' || !status.result) throw new NotFound();
  const result = status.result as { file_key: string; file_name: string };
  const response = await fileResponse(ctx.env.FILES, result.file_key, {
    name: result.file_name,
    contentType: 'application/zip',
  });
  if (!response) throw new NotFound();
  return response;
}

/** The status of a documents job the actor started (another job type answers not found). */
export async function documentsJobStatus(ctx: ActorCtx, jobId: string): Promise<JobStatus> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const status = await getJobStatus(ctx, jobId);
  if (status.type !== DOCUMENTS_ZIP_JOB) throw new NotFound();
  return status;
}

/**
 * POST policies/download: the cards and certificates of a few insureds (at most MAX_DIRECT_DOWNLOAD),
 * made where missing and answered as one ZIP named by `title`, in the request.
 */
export async function downloadPoliciesDirect(ctx: ActorCtx, input: DirectDownloadInput): Promise<Response> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const ids = await policyIdsOf(ctx, { all_matching: false, ids: input.policies }, {});
  if (!ids.length) throw new NotFound(msg('insureds.errors.not_found'));
  const rows = await selectedPolicies(ctx, ids);
  checkSelection(rows, ids, todayIso(ctx.now));
  const entries = await documentEntries(ctx.db, ctx.env, rows, [...POLICY_DOCUMENT_KINDS], ctx.now);
  const fileName = `${safeName(input.title || 'insurance-documents')}.zip`;
  const length = predictLength(
    entries.map((e) => ({ name: e.name, size: e.size, lastModified: e.lastModified })),
  );
  const env = ctx.env;
  async function* files() {
    for (const e of entries) {
      const object = await env.FILES.get(e.key);
      if (!object) throw new Error(`A document is missing from storage: ${e.key}`);
      yield { name: e.name, size: e.size, lastModified: e.lastModified, input: object.body };
    }
  }
  return new Response(makeZip(files()), {
    headers: {
      'content-type': 'application/zip',
      'content-length': String(length),
      'content-disposition': contentDisposition(fileName),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    },
  });
}
