import { redirect, type AppLoadContext } from '@remix-run/cloudflare';
import { canAny, type Actor } from '@server/domain/access/actor';
import type { ValidationFailed } from '@server/domain/errors';
import { ctxOf } from '@server/web/load-context';
import type { ActorCtx, Ctx } from '@server/domain/context';
import { localePath, splitLocale } from '~/i18n/config';

export function langOf(request: Request) {
  return splitLocale(new URL(request.url).pathname).lang;
}

/**
 * The 404 page ("Page Not Found!"), thrown by the kit for an address that names nothing: a parameter that
 * does not parse, a record that does not exist or is another tenant's. Routes never build it themselves:
 * they parse their parameters with the kit's schemas and let `NotFound` reach the kit.
 */
export function notFound(): Response {
  return new Response(NOT_FOUND, { status: 404 });
}
const NOT_FOUND = 'Not Found';

/** An address under an unknown prefix is "Page Not Found!" before any guard redirects it. */
function requirePage(context: AppLoadContext) {
  if (context.unknownPrefix) throw notFound();
}

/** A page for anyone, signed in or not (the legal notices, a sign-in handed over from another region). */
export function requireNothing(request: Request, context: AppLoadContext): Ctx {
  requirePage(context);
  return ctxOf(context, langOf(request));
}

/** Guest guard: signed-in users are sent to /home. */
export function requireGuest(request: Request, context: AppLoadContext) {
  requirePage(context);
  if (context.actor) throw redirect(localePath(langOf(request), '/home'));
  return ctxOf(context, langOf(request));
}

/** Signed-in guard: guests go to the login page. */
export function requireUser(request: Request, context: AppLoadContext): ActorCtx {
  requirePage(context);
  if (!context.actor) throw redirect(localePath(langOf(request), '/auth/login'));
  return ctxOf(context, langOf(request)) as ActorCtx;
}

/**
 * Permission guard: allowed when the user holds any of a pipe-separated list ("read_client|read_campus");
 * otherwise redirected to the configured path (home).
 */
export function requirePermissions(
  request: Request,
  context: AppLoadContext,
  required: string,
  redirectTo = '/home',
): ActorCtx {
  const ctx = requireUser(request, context);
  if (!canAny(ctx.actor as Actor, required)) throw redirect(localePath(langOf(request), redirectTo));
  return ctx;
}

/** A domain refusal's messages by field key ({ first_name: ['…'] }), as forms show them. */
export function fieldErrorsOf(e: ValidationFailed): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const { key, message } of e.errors) (errors[formKey(key)] ??= []).push(message);
  return errors;
}

/** A domain error key (`rows.2.campus_id`) as a form names the field (`rows[2].campus_id`). */
export function formKey(key: string): string {
  return key.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

export type { Ctx };
