/**
 * A client's documents (GET clients/{id}/documents, POST clients/{id}/documents/download): every file the
 * portal keeps for the client, wherever it was added, in one list. There is no upload of its own: a file
 * comes with the client (its return policy), with one of its service agreements, or with a note on the
 * client or on one of its campuses, and is listed here as long as it is kept there.
 *
 * Who sees what: the call needs `read_client` and `read_document`; agreements' documents are listed only
 * to users who may read service agreements, campus notes' files only to those who may read campuses (and
 * only of campuses they see). A document outside those answers "not found", as one of another client.
 * The return policy comes first, then the rest newest first.
 */
import { sql, type SQL } from 'drizzle-orm';
import {
  activityLogs,
  campuses,
  clients,
  notes,
  serviceAgreementDocuments,
  serviceAgreements,
} from '../../../drizzle/schema';
import { FILE_KINDS, fileResponse } from '../../platform/storage';
import { can, requirePermission, type Actor } from '../access/actor';
import { findClient, type ClientRow } from '../access/finders';
import { visibleCampus } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { likePattern, paginate, type Page } from '../lists';
import { msg } from '../validation';
import { storedFileName } from './files';
import type { ClientDocumentSource, ClientDocumentsQuery } from './records-schema';

export const DOCUMENT_PERMISSION = 'read_document';

export interface ClientDocument {
  /** What POST clients/{id}/documents/download takes as `document_id`. */
  id: string;
  source: ClientDocumentSource;
  file_name: string;
  content_type: string;
  /** In bytes, where the portal recorded it (service agreements' documents). */
  size: number | null;
  created_at: string;
  /** The note it is attached to (`note`, `campus_note`). */
  note: { id: number; title: string } | null;
  /** The campus of a campus note. */
  campus: { id: string; name: string } | null;
  /** The service agreement it belongs to (`service_agreement`). */
  service_agreement: { id: string; name: string } | null;
}

interface DocumentRow {
  id: string;
  source: ClientDocumentSource;
  file_name: string;
  file_key: string;
  content_type: string | null;
  size: number | null;
  created_at: number;
  pinned: number;
  note_id: number | null;
  note_title: string | null;
  campus_id: string | null;
  campus_name: string | null;
  agreement_id: string | null;
  agreement_name: string | null;
}

/** The documents of a client the actor may see, as one SELECT (a UNION ALL of the places they live). */
function documentsOf(actor: Actor, client: ClientRow): SQL {
  const parts: SQL[] = [
    sql`SELECT 'return_policy' AS id, 'return_policy' AS source, ${clients.return_policy_key} AS file_name,
        ${clients.return_policy_key} AS file_key, NULL AS content_type, NULL AS size,
        coalesce((SELECT max(${activityLogs.created_at}) FROM ${activityLogs}
          WHERE ${activityLogs.entity_type} = 'client' AND ${activityLogs.entity_id} = ${clients.id}
            AND ${activityLogs.action} IN ('return_policy_updated', 'created')), ${clients.created_at}) AS created_at,
        1 AS pinned, NULL AS note_id, NULL AS note_title, NULL AS campus_id, NULL AS campus_name,
        NULL AS agreement_id, NULL AS agreement_name
      FROM ${clients} WHERE ${clients.id} = ${client.id} AND ${clients.return_policy_key} IS NOT NULL`,
    sql`SELECT 'note-' || ${notes.id}, 'note', ${notes.file_name}, ${notes.file_key}, ${notes.content_type},
        NULL, ${notes.created_at}, 0, ${notes.id}, ${notes.title}, NULL, NULL, NULL, NULL
      FROM ${notes}
      WHERE ${notes.owner_type} = 'client' AND ${notes.owner_id} = ${client.id} AND ${notes.file_key} IS NOT NULL`,
  ];
  if (can(actor, 'read_service_agreement'))
    parts.push(sql`SELECT 'agreement-' || ${serviceAgreementDocuments.id}, 'service_agreement',
        ${serviceAgreementDocuments.file_name}, ${serviceAgreementDocuments.file_key},
        ${serviceAgreementDocuments.content_type}, ${serviceAgreementDocuments.size},
        ${serviceAgreementDocuments.created_at}, 0, NULL, NULL, NULL, NULL,
        ${serviceAgreements.public_id}, ${serviceAgreements.name}
      FROM ${serviceAgreementDocuments}
      JOIN ${serviceAgreements} ON ${serviceAgreements.id} = ${serviceAgreementDocuments.service_agreement_id}
      WHERE ${serviceAgreements.client_id} = ${client.id}`);
  if (can(actor, 'read_campus'))
    parts.push(sql`SELECT 'note-' || ${notes.id}, 'campus_note', ${notes.file_name}, ${notes.file_key},
        ${notes.content_type}, NULL, ${notes.created_at}, 0, ${notes.id}, ${notes.title},
        ${campuses.public_id}, ${campuses.name}, NULL, NULL
      FROM ${notes}
      JOIN ${campuses} ON ${campuses.id} = ${notes.owner_id}
      JOIN ${clients} ON ${clients.id} = ${campuses.client_id}
      WHERE ${notes.owner_type} = 'campus' AND ${campuses.client_id} = ${client.id}
        AND ${notes.file_key} IS NOT NULL AND ${visibleCampus(actor)}`);
  return sql.join(parts, sql` UNION ALL `);
}

function filters(q: Pick<ClientDocumentsQuery, 'search' | 'source'>): SQL {
  const c: SQL[] = [sql`1 = 1`];
  if (q.source) c.push(sql`d.source = ${q.source}`);
  if (q.search) {
    const pattern = likePattern(q.search);
    c.push(sql`(d.file_name LIKE ${pattern} ESCAPE '\\' OR d.note_title LIKE ${pattern} ESCAPE '\\'
      OR d.agreement_name LIKE ${pattern} ESCAPE '\\' OR d.campus_name LIKE ${pattern} ESCAPE '\\')`);
  }
  return sql.join(c, sql` AND `);
}

/** A file's type from its name, for files whose type the database does not keep (the return policy). */
function typeOfName(name: string): string {
  const ext = name.split('.').pop()?.toLowerCase();
  const kind = Object.values(FILE_KINDS).find((k) => k.extension === ext);
  return kind?.contentType ?? 'application/octet-stream';
}

function present(r: DocumentRow): ClientDocument {
  const fileName =
    r.source === 'return_policy' ? (storedFileName(r.file_key) ?? 'return-policy') : r.file_name;
  return {
    id: r.id,
    source: r.source,
    file_name: fileName,
    content_type: r.content_type ?? typeOfName(fileName),
    size: r.size,
    created_at: new Date(Number(r.created_at)).toISOString(),
    note: r.note_id ? { id: r.note_id, title: r.note_title ?? '' } : null,
    campus: r.campus_id ? { id: r.campus_id, name: r.campus_name ?? '' } : null,
    service_agreement: r.agreement_id ? { id: r.agreement_id, name: r.agreement_name ?? '' } : null,
  };
}

/** The client's documents the actor may see: the return policy first, then newest first, a page at a time. */
export async function listClientDocuments(
  ctx: ActorCtx,
  id: string,
  q: ClientDocumentsQuery,
): Promise<Page<ClientDocument>> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const client = await findClient(ctx, id, 'read_client');
  const all = documentsOf(ctx.actor, client);
  const where = filters(q);
  const page = await paginate<DocumentRow>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db.all(sql`SELECT * FROM (${all}) AS d WHERE ${where}
        ORDER BY d.pinned DESC, d.created_at DESC, d.id DESC
        LIMIT ${limit} OFFSET ${offset}`),
    count: ctx.db.all(sql`SELECT count(*) AS total FROM (${all}) AS d WHERE ${where}`),
    // Raw statements run on their own (D1's batch takes only prepared queries).
    apart: true,
  });
  return { ...page, items: page.items.map(present) };
}

/** One of the client's documents as a download (its stored type, `attachment`), else NotFound. */
export async function downloadClientDocument(
  ctx: ActorCtx,
  id: string,
  documentId: string,
): Promise<Response> {
  requirePermission(ctx.actor, DOCUMENT_PERMISSION);
  const client = await findClient(ctx, id, 'read_client');
  const [row] = await ctx.db.all<DocumentRow>(
    sql`SELECT * FROM (${documentsOf(ctx.actor, client)}) AS d WHERE d.id = ${documentId} LIMIT 1`,
  );
  const notFound = () => new NotFound(msg('clients.documents.not_found'));
  if (!row) throw notFound();
  const doc = present(row);
  const response = await fileResponse(ctx.env.FILES, row.file_key, {
    name: doc.file_name,
    contentType: row.content_type ?? undefined,
  });
  if (!response) throw notFound();
  return response;
}
