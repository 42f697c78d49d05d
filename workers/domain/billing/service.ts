/**
 * The billing area's service functions for both doors: the summary, statements of account (a client's,
 * a campus's, a school user's own) and their downloads, and a client's receivables.
 */
import { assetReader } from '../../platform/pdf';
import { XLSX_CONTENT_TYPE } from '../../platform/xlsx';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { renderStatementPdf, renderStatementXlsx, statementFileName } from './render';
import type { StatementQuery } from './schema';
import { STATEMENT_ACCESS, statementOfAccount, statementTarget, type StatementOfAccount } from './statement';

export { billingSummary } from './summary';
export { clientReceivables, presentStatement } from './statement';

/** The statement of a client, or of one of its campuses (`campusId`), for the query's period. */
export async function clientStatement(
  ctx: ActorCtx,
  clientId: string,
  q: StatementQuery,
  campusId?: string | null,
): Promise<StatementOfAccount> {
  return statementOfAccount(ctx, await statementTarget(ctx, { client: clientId, campus: campusId }), q);
}

/** The statement of a campus by its id alone (the campus's client follows). */
export async function campusStatement(ctx: ActorCtx, campusId: string, q: StatementQuery) {
  return statementOfAccount(ctx, await statementTarget(ctx, { campus: campusId }), q);
}

/**
 * A school user's own statement: their client's, or one of their campuses' (`campusId`). Company users
 * have none of their own (NotFound).
 */
export async function ownStatement(ctx: ActorCtx, q: StatementQuery, campusId?: string | null) {
  requirePermission(ctx.actor, STATEMENT_ACCESS);
  if (ctx.actor.user_type !== 'school' || !ctx.actor.client_id) throw new NotFound();
  return statementOfAccount(
    ctx,
    await statementTarget(ctx, { client: ctx.actor.client_id, campus: campusId }),
    q,
  );
}

export const STATEMENT_FORMATS = ['pdf', 'xlsx'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** A statement as a file to download, in `lang` (the reader's language). */
export async function statementFile(
  ctx: ActorCtx,
  s: StatementOfAccount,
  format: StatementFormat,
  lang: string,
): Promise<Response> {
  const body =
    format === 'pdf'
      ? await renderStatementPdf(s, lang, assetReader(ctx.env.ASSETS), ctx.now)
      : await renderStatementXlsx(s, lang);
  return new Response(body as BodyInit, {
    headers: {
      'content-type': format === 'pdf' ? 'application/pdf' : XLSX_CONTENT_TYPE,
      'content-disposition': `attachment; filename="${statementFileName(s, format)}"`,
      'cache-control': 'no-store',
    },
  });
}
