/** The billing pages' loaders: a statement (client, campus or a school user's own) and its downloads. */
import { json, type AppLoadContext } from '@remix-run/cloudflare';
import { statementQuerySchema, type StatementQuery } from '@server/domain/billing/schema';
import {
  clientStatement,
  ownStatement,
  statementFile,
  STATEMENT_FORMATS,
  type StatementFormat,
} from '@server/domain/billing/service';
import {
  STATEMENT_ACCESS,
  statementCampuses,
  type StatementOfAccount,
} from '@server/domain/billing/statement';
import type { ActorCtx } from '@server/domain/context';
import { langOf, orNotFound, requirePermissions } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';

export type StatementScope =
  | { kind: 'client'; clientId: string }
  | { kind: 'campus'; clientId: string; campusId: string }
  | { kind: 'own' };

/** The period asked in the address; a period that ends before it starts is refused with its message. */
function periodOf(request: Request): { query: StatementQuery; error: string | null } {
  const params = new URL(request.url).searchParams;
  const parsed = statementQuerySchema.safeParse({
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
  });
  return parsed.success
    ? { query: parsed.data, error: null }
    : { query: {}, error: parsed.error.issues[0]?.message ?? null };
}

function read(ctx: ActorCtx, scope: StatementScope, q: StatementQuery, campus: string | null) {
  switch (scope.kind) {
    case 'client':
      return clientStatement(ctx, scope.clientId, q);
    case 'campus':
      return clientStatement(ctx, scope.clientId, q, scope.campusId);
    case 'own':
      return ownStatement(ctx, q, campus);
  }
}

/** A statement page's data: the statement and, for a school user, the campuses to choose from. */
export async function statementPage(request: Request, context: AppLoadContext, scope: StatementScope) {
  const ctx = requirePermissions(request, context, STATEMENT_ACCESS);
  const { query, error } = periodOf(request);
  const campus = new URL(request.url).searchParams.get('campus') || null;
  const statement = await orNotFound(read(ctx, scope, query, campus));
  const campuses =
    scope.kind === 'own' ? await statementCampuses(ctx, statement.target.client.id_numeric) : [];
  return json({
    title: pageTitle(context, request, 'billing.statement.title'),
    statement: present(statement),
    error,
    campuses,
  });
}

/** What a page shows of a statement (no internal ids). */
function present(s: StatementOfAccount) {
  return {
    from: s.from,
    to: s.to,
    client: { id: s.target.client.id, name: s.target.client.name },
    campus: s.target.campus && { id: s.target.campus.id, name: s.target.campus.name },
    currencies: s.currencies,
  };
}
export type StatementPageData = ReturnType<typeof present>;

/** A statement's download (?format=pdf|xlsx, and the page's period), in the page's language. */
export async function statementDownload(request: Request, context: AppLoadContext, scope: StatementScope) {
  const ctx = requirePermissions(request, context, STATEMENT_ACCESS);
  const params = new URL(request.url).searchParams;
  const format = params.get('format') as StatementFormat;
  if (!STATEMENT_FORMATS.includes(format)) throw new Response('Not Found', { status: 404 });
  const { query } = periodOf(request);
  const statement = await orNotFound(read(ctx, scope, query, params.get('campus') || null));
  return statementFile(ctx, statement, format, langOf(request));
}
