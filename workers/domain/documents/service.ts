/**
 * My Documents (spec 000 s.2 `/documents`, "My Documents"): every file a user may download, in one list,
 * searched and filtered by kind. It lists and links; each file is served by its own area's download,
 * which checks the same rule again:
 *
 * - product documents: `visibleProductDocuments` (a school's staff: the products their campuses hold a
 *   current contract for, not internal), valid today → /products/{id}/documents/{documentId}/download;
 * - insureds' cards and certificates: policies in `visiblePolicies`, not cancelled, for holders of
 *   download_policy_document → /insureds/{id}/insurance-card.pdf and /certificate.pdf;
 * - invoices and credit notes: `visibleInvoices` → /invoices/{id}/pdf;
 * - statements of account: a company user's clients (`visibleClients`) → /clients/{id}/statement/download;
 *   a school user's own (per campus when limited to some) → /billing/statement/download;
 * - service agreements' documents: `agreementScope`, for holders of read_service_agreement →
 *   /clients/{id}/service-agreement/{agreementId}/documents/{index}.
 *
 * One statement: a UNION ALL of the parts the actor may see, filtered, newest first, one page at a time.
 * An insured is one row (its card and its certificate), so a school of thousands pages through them.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  campuses,
  clients,
  invoices,
  policies,
  productDocuments,
  products,
  serviceAgreementDocuments,
  serviceAgreements,
} from '../../../drizzle/schema';
import { can, canAny, requirePermission, type Actor } from '../access/actor';
import {
  agreementScope,
  seesAllCampuses,
  visibleCampus,
  visibleClients,
  visibleInvoices,
  visiblePolicies,
  visibleProductDocuments,
} from '../access/scope';
import { STATEMENT_ACCESS } from '../billing/statement';
import type { ActorCtx } from '../context';
import { INVOICE_ACCESS } from '../invoices/queries';
import { likePattern, pageOf, paginate, type Page } from '../lists';
import { DOCUMENT_PERMISSION as POLICY_DOCUMENT_PERMISSION } from '../policy-documents/documents';
import { todayIso } from '../validation';
import type { MyDocumentsQuery } from './schema';
import { MY_DOCUMENTS_PERMISSION, type MyDocumentKind } from './values';

/** A link of a row: what it downloads and the portal path (without the language prefix) that serves it. */
export interface MyDocumentLink {
  file: 'document' | 'insurance_card' | 'certificate' | 'pdf' | 'xlsx';
  href: string;
}

export interface MyDocument {
  /** Unique in the list: the kind and the row's own id. */
  id: string;
  kind: MyDocumentKind;
  /** A product document's title, an insured's name, an invoice number, a client or campus, a file name. */
  title: string;
  /** A product document's product, an insured's policy number, an invoice's client, an agreement. */
  detail: string | null;
  /** A product document's type, an invoice's type (invoice, supplementary, credit_note). */
  type: string | null;
  /** A product document's language. */
  language: string | null;
  file_name: string | null;
  /** When it was issued, uploaded or last changed (a statement: its client's latest invoice). */
  date: string;
  links: MyDocumentLink[];
}

interface Row {
  id: string;
  kind: MyDocumentKind;
  title: string;
  detail: string | null;
  type: string | null;
  language: string | null;
  file_name: string | null;
  at: number | null;
  a: string | null;
  b: string | null;
  c: number | null;
}

/** The parts of the list the actor may see, each a SELECT of the same named columns (any may come first). */
function parts(actor: Actor, today: string, kind: MyDocumentKind | undefined): SQL[] {
  const want = (k: MyDocumentKind) => !kind || kind === k;
  const out: SQL[] = [];
  if (want('product'))
    out.push(sql`SELECT 'product-' || ${productDocuments.id} AS id, 'product' AS kind,
        ${productDocuments.title} AS title, ${products.name} AS detail, ${productDocuments.type} AS type,
        ${productDocuments.language} AS language, ${productDocuments.file_name} AS file_name,
        ${productDocuments.updated_at} AS at, ${products.public_id} AS a, NULL AS b, ${productDocuments.id} AS c
      FROM ${productDocuments} JOIN ${products} ON ${products.id} = ${productDocuments.product_id}
      WHERE ${visibleProductDocuments(actor, today)}
        AND (${productDocuments.valid_from} IS NULL OR ${productDocuments.valid_from} <= ${today})
        AND (${productDocuments.valid_to} IS NULL OR ${productDocuments.valid_to} >= ${today})`);
  if (want('insured') && can(actor, POLICY_DOCUMENT_PERMISSION))
    out.push(sql`SELECT 'insured-' || ${policies.id} AS id, 'insured' AS kind,
        ${policies.first_name} || ' ' || ${policies.last_name} AS title, ${policies.policy_number} AS detail,
        ${products.name} AS type, NULL AS language, NULL AS file_name, ${policies.issued_at} AS at,
        ${policies.public_id} AS a, NULL AS b, NULL AS c
      FROM ${policies} JOIN ${products} ON ${products.id} = ${policies.product_id}
      WHERE ${visiblePolicies(actor)} AND ${policies.status} <> 'cancelled'`);
  if (want('invoice') && canAny(actor, INVOICE_ACCESS))
    out.push(sql`SELECT 'invoice-' || ${invoices.id} AS id, 'invoice' AS kind, ${invoices.number} AS title,
        ${clients.name} AS detail, ${invoices.type} AS type, NULL AS language, NULL AS file_name,
        ${invoices.created_at} AS at, ${invoices.public_id} AS a, NULL AS b, NULL AS c
      FROM ${invoices} JOIN ${clients} ON ${clients.id} = ${invoices.client_id}
      WHERE ${visibleInvoices(actor)}`);
  if (want('statement') && canAny(actor, STATEMENT_ACCESS)) out.push(...statementParts(actor));
  if (want('agreement') && can(actor, 'read_service_agreement'))
    out.push(sql`SELECT 'agreement-' || ${serviceAgreementDocuments.id} AS id, 'agreement' AS kind,
        ${serviceAgreementDocuments.file_name} AS title, ${serviceAgreements.name} AS detail, NULL AS type,
        NULL AS language, ${serviceAgreementDocuments.file_name} AS file_name,
        ${serviceAgreementDocuments.created_at} AS at, ${clients.public_id} AS a,
        ${serviceAgreements.public_id} AS b,
        row_number() OVER (PARTITION BY ${serviceAgreementDocuments.service_agreement_id}
          ORDER BY ${serviceAgreementDocuments.position}, ${serviceAgreementDocuments.id}) - 1 AS c
      FROM ${serviceAgreementDocuments}
      JOIN ${serviceAgreements} ON ${serviceAgreements.id} = ${serviceAgreementDocuments.service_agreement_id}
      JOIN ${clients} ON ${clients.id} = ${serviceAgreements.client_id}
      WHERE ${agreementScope(actor)}`);
  return out;
}

/** A statement changes with its client's invoices: it is dated by the latest one (else the client's creation). */
const latestInvoiceOf = (clientId: SQL | typeof clients.id, campusId?: typeof campuses.id) =>
  sql`coalesce((SELECT max(${invoices.created_at}) FROM ${invoices} WHERE ${invoices.client_id} = ${clientId}
    ${campusId ? sql`AND ${invoices.campus_id} = ${campusId}` : sql``}), ${clients.created_at})`;

/**
 * Statements of account, made on request: a company user has one per client in view; a school user their
 * school's, or each of their campuses' when they see only some.
 */
function statementParts(actor: Actor): SQL[] {
  if (actor.user_type === 'company')
    return [
      sql`SELECT 'statement-' || ${clients.id} AS id, 'statement' AS kind, ${clients.name} AS title,
          NULL AS detail, 'client' AS type, NULL AS language, NULL AS file_name,
          ${latestInvoiceOf(clients.id)} AS at, ${clients.public_id} AS a, NULL AS b, NULL AS c
        FROM ${clients} WHERE ${visibleClients(actor)}`,
    ];
  if (actor.user_type !== 'school') return [];
  if (seesAllCampuses(actor))
    return [
      sql`SELECT 'statement-' || ${clients.id} AS id, 'statement' AS kind, ${clients.name} AS title,
          NULL AS detail, 'own' AS type, NULL AS language, NULL AS file_name,
          ${latestInvoiceOf(clients.id)} AS at, NULL AS a, NULL AS b, NULL AS c
        FROM ${clients} WHERE ${visibleClients(actor)}`,
    ];
  return [
    sql`SELECT 'statement-campus-' || ${campuses.id} AS id, 'statement' AS kind, ${campuses.name} AS title,
        ${clients.name} AS detail, 'campus' AS type, NULL AS language, NULL AS file_name,
        ${latestInvoiceOf(clients.id, campuses.id)} AS at, ${campuses.public_id} AS a, NULL AS b, NULL AS c
      FROM ${campuses} JOIN ${clients} ON ${clients.id} = ${campuses.client_id}
      WHERE ${visibleCampus(actor)}`,
  ];
}

function filters(q: MyDocumentsQuery): SQL {
  const c: SQL[] = [sql`1 = 1`];
  if (q.language) c.push(sql`d.language = ${q.language}`);
  if (q.search) {
    const pattern = likePattern(q.search);
    c.push(sql`(d.title LIKE ${pattern} ESCAPE '\\' OR d.detail LIKE ${pattern} ESCAPE '\\'
      OR d.file_name LIKE ${pattern} ESCAPE '\\')`);
  }
  return sql.join(c, sql` AND `);
}

function linksOf(r: Row): MyDocumentLink[] {
  switch (r.kind) {
    case 'product':
      return [{ file: 'document', href: `/products/${r.a}/documents/${r.c}/download` }];
    case 'insured':
      return [
        { file: 'insurance_card', href: `/insureds/${r.a}/insurance-card.pdf` },
        { file: 'certificate', href: `/insureds/${r.a}/certificate.pdf` },
      ];
    case 'invoice':
      return [{ file: 'pdf', href: `/invoices/${r.a}/pdf` }];
    case 'statement': {
      const base = r.type === 'client' ? `/clients/${r.a}/statement/download` : '/billing/statement/download';
      const campus = r.type === 'campus' ? `&campus=${r.a}` : '';
      return (['pdf', 'xlsx'] as const).map((f) => ({ file: f, href: `${base}?format=${f}${campus}` }));
    }
    case 'agreement':
      return [{ file: 'document', href: `/clients/${r.a}/service-agreement/${r.b}/documents/${r.c}` }];
  }
}

function present(r: Row): MyDocument {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    detail: r.detail,
    type: r.type,
    language: r.language,
    file_name: r.file_name,
    date: new Date(Number(r.at ?? 0)).toISOString(),
    links: linksOf(r),
  };
}

/**
 * My Documents: what the actor may download, newest first, a page at a time, narrowed by kind, language
 * (product documents) and words. Needs the document permission (read_document); each kind then follows
 * its own area's rule.
 */
export async function listMyDocuments(ctx: ActorCtx, q: MyDocumentsQuery): Promise<Page<MyDocument>> {
  requirePermission(ctx.actor, MY_DOCUMENTS_PERMISSION);
  const shown = parts(ctx.actor, todayIso(ctx.now), q.language ? 'product' : q.kind);
  if (q.language && q.kind && q.kind !== 'product') shown.length = 0;
  if (!shown.length) return pageOf<MyDocument>([], q.page, q.items);
  const all = sql.join(shown, sql` UNION ALL `);
  const where = filters(q);
  const page = await paginate<Row>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db.all(sql`SELECT * FROM (${all}) AS d WHERE ${where}
        ORDER BY d.at DESC, d.id DESC LIMIT ${limit} OFFSET ${offset}`),
    count: ctx.db.all(sql`SELECT count(*) AS total FROM (${all}) AS d WHERE ${where}`),
    // Raw statements run on their own (D1's batch takes only prepared queries).
    apart: true,
  });
  return { ...page, items: page.items.map(present) };
}
