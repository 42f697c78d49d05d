/**
 * The insurance card and the certificate of a policy (spec 001 s.2 "Insured detail: Documents"; 002 s.7
 * policies/{id}/documents/, /insurance-card/download, /documents/download), kept in R2 per version.
 *
 * - A document is made for the policy's current `version`, the first time someone asks for it (or by the
 *   documents ZIP job), stored in R2 under a key that names the version, and recorded in
 *   `policy_documents` (policy, kind, version). Every change to a policy raises its version, so the next
 *   request makes new documents; the old ones stay listed as history but are never served again.
 * - Two requests making the same document at once write the same key and one row (the unique index).
 * - A cancelled policy has no documents to hand out (its cover is gone): asking answers the spec's
 *   'Cannot download inactive insureds documents'. An expired one still has them (a claim often comes
 *   after the trip).
 */
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  countries,
  insurers,
  policies,
  policyDocuments,
  productDocuments,
  products,
} from '../../../drizzle/schema';
import type { Env } from '../../env';
import { inJson, type DB } from '../../platform/db';
import { assetReader } from '../../platform/pdf';
import { fileResponse } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { findPolicy } from '../access/finders';
import { visiblePolicies } from '../access/scope';
import type { ActorCtx } from '../context';
import { Conflict, NotFound } from '../errors';
import { policyStatus } from '../policies/status';
import { msg, todayIso } from '../validation';
import { renderPolicyDocument, type PolicyDocumentData } from './render';
import { KIND_SEGMENTS, POLICY_DOCUMENT_KINDS, type PolicyDocumentKind } from './schema';

export const DOCUMENT_PERMISSION = 'download_policy_document';
export type PolicyDocumentRow = typeof policyDocuments.$inferSelect;
type PolicyRow = typeof policies.$inferSelect;

export const INACTIVE_MESSAGE = 'policy_documents.errors.inactive';

/** The R2 key of a policy's document of a version. */
export const documentKey = (policyPublicId: string, kind: PolicyDocumentKind, version: number) =>
  `policies/${policyPublicId}/${KIND_SEGMENTS[kind]}-v${version}.pdf`;

/** The file name a person gets: `P00000012 insurance-card v2.pdf`. */
export const documentFileName = (policyNumber: string, kind: PolicyDocumentKind, version: number) =>
  `${policyNumber} ${KIND_SEGMENTS[kind]} v${version}.pdf`;

/** Inactive for downloads in bulk: cancelled or expired (spec 001 s.8). */
export function isInactive(p: Pick<PolicyRow, 'status' | 'start_date' | 'end_date'>, today: string) {
  const status = policyStatus(p, today);
  return status === 'cancelled' || status === 'expired';
}

/** Everything a document of the policy shows, at its current version. */
async function documentData(
  db: DB,
  policyId: number,
  today: string,
): Promise<PolicyDocumentData & { public_id: string }> {
  const [row] = await db
    .select({
      policy: policies,
      product: products,
      insurer: insurers.name,
      company: companies.name,
      client: clients.name,
      lang: clients.preferred_lang,
      campus: campuses.name,
      destination: countries.name,
    })
    .from(policies)
    .innerJoin(products, eq(products.id, policies.product_id))
    .innerJoin(companies, eq(companies.id, policies.company_id))
    .innerJoin(clients, eq(clients.id, policies.client_id))
    .innerJoin(campuses, eq(campuses.id, policies.campus_id))
    .leftJoin(insurers, eq(insurers.id, products.insurer_id))
    .leftJoin(countries, eq(countries.id, policies.destination_country_id))
    .where(eq(policies.id, policyId))
    .limit(1);
  if (!row) throw new NotFound(msg('insureds.errors.not_found'));
  const p = row.policy;
  return {
    public_id: p.public_id,
    policy_number: p.policy_number,
    first_name: p.first_name,
    last_name: p.last_name,
    date_of_birth: p.date_of_birth,
    start_date: p.start_date,
    end_date: p.end_date,
    product: {
      name: row.product.name,
      code: row.product.code,
      master_certificate_number: row.product.master_certificate_number,
      claim_phone: row.product.claim_phone,
      claim_email: row.product.claim_email,
      medical_assistance_phone: row.product.medical_assistance_phone,
      medical_assistance_email: row.product.medical_assistance_email,
    },
    insurer: row.insurer,
    company: row.company,
    client: row.client,
    campus: row.campus,
    destination: row.destination,
    premium_minor: p.premium_minor,
    tax_minor: p.tax_minor,
    currency: p.currency,
    version: p.version,
    issued_on: today,
    lang: row.lang ?? 'en',
  };
}

/**
 * The document of the policy's current version: the stored one, or made now (rendered, put in R2,
 * recorded). No permission check: callers found the policy through the actor's scope first (or are the
 * documents job, which did at its start).
 */
export async function ensureCurrentDocument(
  db: DB,
  env: Env,
  policyId: number,
  kind: PolicyDocumentKind,
  now: Date,
  onMade?: () => void,
): Promise<PolicyDocumentRow & { policy_number: string }> {
  const [policy] = await db
    .select({ version: policies.version, policy_number: policies.policy_number })
    .from(policies)
    .where(eq(policies.id, policyId));
  if (!policy) throw new NotFound(msg('insureds.errors.not_found'));
  const stored = await storedDocument(db, policyId, kind, policy.version);
  if (stored) return { ...stored, policy_number: policy.policy_number };
  const data = await documentData(db, policyId, todayIso(now));
  const bytes = await renderPolicyDocument(kind, data, assetReader(env.ASSETS), now);
  const key = documentKey(data.public_id, kind, data.version);
  await env.FILES.put(key, bytes, {
    httpMetadata: { contentType: 'application/pdf' },
    customMetadata: { name: documentFileName(data.policy_number, kind, data.version) },
  });
  await db
    .insert(policyDocuments)
    .values({
      policy_id: policyId,
      kind,
      version: data.version,
      file_key: key,
      size: bytes.length,
      created_at: now,
    })
    .onConflictDoNothing();
  onMade?.();
  const row = await storedDocument(db, policyId, kind, data.version);
  if (!row) throw new Error('The policy document was not recorded');
  return { ...row, policy_number: data.policy_number };
}

async function storedDocument(db: DB, policyId: number, kind: PolicyDocumentKind, version: number) {
  const [row] = await db
    .select()
    .from(policyDocuments)
    .where(
      and(
        eq(policyDocuments.policy_id, policyId),
        eq(policyDocuments.kind, kind),
        eq(policyDocuments.version, version),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** A policy the actor may download documents of; a cancelled one is refused. */
async function documentPolicy(ctx: ActorCtx, policyId: string | number): Promise<PolicyRow> {
  const policy = await findPolicy(ctx, policyId, DOCUMENT_PERMISSION);
  if (policyStatus(policy, todayIso(ctx.now)) === 'cancelled') throw new Conflict(msg(INACTIVE_MESSAGE));
  return policy;
}

/**
 * `/insureds/{id}/insurance-card.pdf`, `/insureds/{id}/certificate.pdf`, GET
 * policies/{id}/insurance-card/download: the document of the current version, streamed from R2.
 */
export async function downloadPolicyDocument(
  ctx: ActorCtx,
  policyId: string | number,
  kind: PolicyDocumentKind,
  disposition: 'attachment' | 'inline' = 'attachment',
): Promise<Response> {
  const policy = await documentPolicy(ctx, policyId);
  const doc = await ensureCurrentDocument(ctx.db, ctx.env, policy.id, kind, ctx.now);
  const response = await fileResponse(ctx.env.FILES, doc.file_key, {
    name: documentFileName(policy.policy_number, kind, doc.version),
    contentType: 'application/pdf',
    disposition,
  });
  if (!response) throw new NotFound();
  return response;
}

/** The product documents a policy's insured may have: its product's, visible to the actor, valid today. */
export async function productDocumentsOf(ctx: ActorCtx, productIds: number[]) {
  if (!productIds.length) return [];
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select()
    .from(productDocuments)
    .where(
      and(
        inJson(productDocuments.product_id, productIds),
        sql`(${productDocuments.valid_from} IS NULL OR ${productDocuments.valid_from} <= ${today})`,
        sql`(${productDocuments.valid_to} IS NULL OR ${productDocuments.valid_to} >= ${today})`,
        ctx.actor.user_type === 'company' ? undefined : sql`${productDocuments.visibility} <> 'internal'`,
      ),
    )
    .orderBy(asc(productDocuments.type), asc(productDocuments.title), asc(productDocuments.id));
  return rows;
}

/**
 * GET policies/{id}/documents/ and the Documents tab: the card and certificate of the current version
 * (made already or not yet: `created_at` null), the product's documents, and earlier versions (history
 * only: never served).
 */
export async function listPolicyDocuments(ctx: ActorCtx, policyId: string | number) {
  const policy = await findPolicy(ctx, policyId, DOCUMENT_PERMISSION);
  const today = todayIso(ctx.now);
  const available = policyStatus(policy, today) !== 'cancelled';
  const stored = await ctx.db
    .select()
    .from(policyDocuments)
    .where(eq(policyDocuments.policy_id, policy.id))
    .orderBy(desc(policyDocuments.version), asc(policyDocuments.kind));
  const current = POLICY_DOCUMENT_KINDS.map((kind) => {
    const row = stored.find((d) => d.kind === kind && d.version === policy.version);
    return {
      kind,
      version: policy.version,
      available,
      file_name: documentFileName(policy.policy_number, kind, policy.version),
      created_at: row ? row.created_at.toISOString() : null,
      size: row?.size ?? null,
    };
  });
  const earlier = stored
    .filter((d) => d.version < policy.version)
    .map((d) => ({
      id: d.id,
      kind: d.kind,
      version: d.version,
      created_at: d.created_at.toISOString(),
      size: d.size,
    }));
  const product = (await productDocumentsOf(ctx, [policy.product_id])).map((d) => ({
    id: d.id,
    type: d.type,
    title: d.title,
    language: d.language,
    file_name: d.file_name,
    size: d.size,
  }));
  return {
    policy: {
      id: policy.public_id,
      policy_number: policy.policy_number,
      version: policy.version,
      status: policyStatus(policy, today),
    },
    current,
    product_documents: product,
    earlier_versions: earlier,
  };
}

/**
 * POST policies/{id}/documents/download with document_id: `insurance_card` or `certificate` (the current
 * version), or the id of one of the product's documents listed for this policy.
 */
export async function downloadDocumentOfPolicy(
  ctx: ActorCtx,
  policyId: string | number,
  documentId: PolicyDocumentKind | number,
): Promise<Response> {
  if (typeof documentId === 'string') return downloadPolicyDocument(ctx, policyId, documentId);
  const policy = await documentPolicy(ctx, policyId);
  const doc = (await productDocumentsOf(ctx, [policy.product_id])).find((d) => d.id === documentId);
  if (!doc) throw new NotFound();
  const response = await fileResponse(ctx.env.FILES, doc.file_key, {
    name: doc.file_name,
    contentType: doc.content_type,
  });
  if (!response) throw new NotFound();
  return response;
}

/**
 * POST policies/policy-certificates-check: for each policy named (in the actor's scope), whether a
 * certificate of its current version exists already, and whether one can be had (not cancelled).
 * Unknown or out-of-scope ids are left out.
 */
export async function checkCertificates(ctx: ActorCtx, publicIds: string[]) {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const today = todayIso(ctx.now);
  const rows = await ctx.db
    .select({
      id: policies.public_id,
      policy_number: policies.policy_number,
      version: policies.version,
      status: policies.status,
      start_date: policies.start_date,
      end_date: policies.end_date,
      certificate: policyDocuments.id,
    })
    .from(policies)
    .leftJoin(
      policyDocuments,
      and(
        eq(policyDocuments.policy_id, policies.id),
        eq(policyDocuments.kind, 'certificate'),
        eq(policyDocuments.version, policies.version),
      ),
    )
    .where(and(inJson(policies.public_id, [...new Set(publicIds)]), visiblePolicies(ctx.actor)))
    .orderBy(asc(policies.id));
  return rows.map((r) => ({
    id: r.id,
    policy_number: r.policy_number,
    version: r.version,
    has_certificate: r.certificate !== null,
    available: policyStatus(r, today) !== 'cancelled',
  }));
}
