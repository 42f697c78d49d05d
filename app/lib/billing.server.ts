/** The billing pages' loaders: a statement (client, campus or a school user's own) and its downloads. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
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
import { NotFound } from '@server/domain/errors';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema, idsSchema } from '~/lib/schemas.server';
import { pageTitle } from '~/lib/meta';
import { readTypedDaysOf } from '@server/domain/typed-days';

export type StatementScope =
  | { kind: 'client'; clientId: string }
  | { kind: 'campus'; clientId: string; campusId: string }
  | { kind: 'own' };
type StatementKind = StatementScope['kind'];

const campusParamsSchema = idsSchema('id', 'campusId');

/** The statement's scope from the page's address: the school's own, a client's (/clients/{id}) or a campus's. */
function scopeOf(kind: StatementKind, params: Record<string, string>): StatementScope {
  if (kind === 'own') return { kind };
  const clientId = idSchema.parse(params).id;
  if (kind === 'client') return { kind, clientId };
  return { kind, clientId, campusId: campusParamsSchema.parse(params).campusId };
}

/** The period asked in the address; a period that ends before it starts is refused with its message. */
function periodOf(request: Request): { query: StatementQuery; error: string | null } {
  const params = new URL(request.url).searchParams;
  const typed = readTypedDaysOf(
    { from: params.get('from') ?? '', to: params.get('to') ?? '' },
    statementQuerySchema,
  );
  const parsed = statementQuerySchema.safeParse({ from: typed.from || undefined, to: typed.to || undefined });
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
export const statementPage = (args: LoaderFunctionArgs, kind: StatementKind) =>
  pageLoader({
    permission: STATEMENT_ACCESS,
    params: kind === 'own' ? undefined : kind === 'client' ? idSchema : campusParamsSchema,
    async load({ ctx, request, context, allParams }) {
      const scope = scopeOf(kind, allParams as Record<string, string>);
      const { query, error } = periodOf(request);
      const campus = new URL(request.url).searchParams.get('campus') || null;
      const statement = await read(ctx, scope, query, campus);
      const campuses =
        scope.kind === 'own' ? await statementCampuses(ctx, statement.target.client.id_numeric) : [];
      return json({
        title: pageTitle(context, request, 'billing.statement.title'),
        statement: present(statement),
        error,
        campuses,
      });
    },
  })(args);

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
export const statementDownload = (args: LoaderFunctionArgs, kind: StatementKind) =>
  pageLoader({
    permission: STATEMENT_ACCESS,
    params: kind === 'own' ? undefined : kind === 'client' ? idSchema : campusParamsSchema,
    async load({ ctx, request, allParams, lang }) {
      const scope = scopeOf(kind, allParams as Record<string, string>);
      const params = new URL(request.url).searchParams;
      const format = params.get('format') as StatementFormat;
      if (!STATEMENT_FORMATS.includes(format)) throw new NotFound();
      const { query } = periodOf(request);
      const statement = await read(ctx, scope, query, params.get('campus') || null);
      return statementFile(ctx, statement, format, lang);
    },
  })(args);
