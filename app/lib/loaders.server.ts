import type { AppLoadContext, LoaderFunctionArgs } from '@remix-run/cloudflare';
import type { Params } from '@remix-run/react';
import type { z } from 'zod';
import type { ActorCtx, Ctx } from '@server/domain/context';
import { isDomainError } from '@server/domain/errors';
import {
  langOf,
  notFound,
  requireGuest,
  requireNothing,
  requirePermissions,
  requireUser,
} from '~/lib/guards.server';
import { dropEmptyParams, lenientQuery, queryOf } from '~/lib/lists.server';

/**
 * The loader half of the page kit (docs/page-kit.md). A page loader says who may open the page, which
 * address parameters it needs and which list query it reads; the kit checks them, and maps the domain's
 * refusals in one place:
 * - no signed-in user: the login page; a guest page opened signed in: home; a public page: anyone;
 * - a user without the permission: home (the menus do not offer the page);
 * - an address parameter that does not parse, or a record that does not exist or is another tenant's (`NotFound`):
 *   the 404 page, so existence does not leak;
 * - any other domain refusal (`Forbidden`, `Conflict`, ...): the error page with its status.
 * The list query is read leniently: a filter that does not parse (an old bookmark, a typo) is dropped, and
 * an address with empty parameters is first sent on to the one without them (`dropEmptyParams`).
 */

type Access = 'user' | 'guest' | 'public';
type CtxFor<A extends Access> = A extends 'user' ? ActorCtx : Ctx;

type Parsed<S> = S extends z.ZodTypeAny ? z.infer<S> : undefined;

export interface LoaderArgs<A extends Access, P, Q> {
  ctx: CtxFor<A>;
  request: Request;
  context: AppLoadContext;
  /** The address parameters, parsed with the definition's schema. */
  params: Parsed<P>;
  /** Every parameter of the address as Remix gives them (an optional segment, say). */
  allParams: Params;
  /** The list query, parsed leniently with the definition's schema. */
  query: Parsed<Q>;
  lang: string;
}

export interface PageLoaderDefinition<
  A extends Access,
  P extends z.ZodTypeAny | undefined,
  Q extends z.ZodTypeAny | undefined,
  R,
> {
  /**
   * Who may open the page: a signed-in user (the default), a guest (the sign-in and invitation pages: a
   * signed-in user is sent home) or anyone (`public`: the legal notices).
   */
  access?: A;
  /** A pipe-separated list of permissions, any one of which opens the page; null: any signed-in user. */
  permission: A extends 'user' ? string | null : null;
  /** Where a signed-in user without the permission is sent (home by default). */
  otherwise?: string;
  /**
   * The address parameters' schema (`idSchema` for a public id, `rowIdSchema` for a numeric one, from
   * ~/lib/schemas.server): parameters that do not parse are the 404 page.
   */
  params?: P;
  /** The list query's schema, read from the address leniently. */
  query?: Q;
  load: (args: LoaderArgs<A, P, Q>) => Promise<R> | R;
}

/**
 * A page's loader: `export const loader = (args: LoaderFunctionArgs) => pageLoader({...})(args);`
 * (written as an arrow, so the browser build drops it with the services it calls).
 */
export function pageLoader<
  R,
  P extends z.ZodTypeAny | undefined = undefined,
  Q extends z.ZodTypeAny | undefined = undefined,
  A extends Access = 'user',
>(def: PageLoaderDefinition<A, P, Q, R>) {
  return async ({ request, context, params }: LoaderFunctionArgs): Promise<R> => {
    dropEmptyParams(request);
    const lang = langOf(request);
    const ctx = (
      def.access === 'guest'
        ? requireGuest(request, context)
        : def.access === 'public'
          ? requireNothing(request, context)
          : def.permission === null
            ? requireUser(request, context)
            : requirePermissions(request, context, def.permission, def.otherwise)
    ) as CtxFor<A>;
    let named = undefined as Parsed<P>;
    if (def.params) {
      const parsed = def.params.safeParse(params);
      if (!parsed.success) throw notFound();
      named = parsed.data as Parsed<P>;
    }
    const query = (def.query ? lenientQuery(def.query, queryOf(request)) : undefined) as Parsed<Q>;
    try {
      return await def.load({ ctx, request, context, params: named, allParams: params, query, lang });
    } catch (e) {
      throw refusalResponse(e);
    }
  };
}

/**
 * A domain refusal as the page for it: `NotFound` the 404 page, any other the error page with its status.
 * Anything else (a Response a loader throws on purpose, a real failure) passes through unchanged.
 */
export function refusalResponse(e: unknown): unknown {
  if (!isDomainError(e)) return e;
  return e.status === 404 ? notFound() : new Response(e.message, { status: e.status });
}

export { notFound };
