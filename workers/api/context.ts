import type { Context, MiddlewareHandler, TypedResponse } from 'hono';
import { resolveActor, type Session } from '../domain/auth/sessions';
import type { Actor } from '../domain/access/actor';
import { resolveApiKeyActor } from '../domain/api-keys/service';
import { looksLikeApiKey } from '../domain/api-keys/token';
import type { Ctx } from '../domain/context';
import { Unauthenticated } from '../domain/errors';
import type { Env } from '../env';
import type { DB } from '../platform/db';
import { preferredLanguage, type Language } from '../platform/i18n';

export type ApiEnv = {
  Bindings: Env;
  Variables: {
    db: DB;
    now: Date;
    requestId: string;
    actor: Actor | null;
    session: Session | null;
    token: string | null;
  };
};

export function bearerToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match ? match[1].trim() : null;
}

/** Resolves the bearer token (if any) to an actor; routes that need one use `requireAuth`. */
export const withActor: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  // An API key (`ep_live_…`) stands for its creator within the key's scope; it has no session.
  if (token && looksLikeApiKey(token)) {
    c.set('actor', await resolveApiKeyActor(c.get('db'), token, c.get('now')));
    c.set('session', null);
    c.set('token', null);
    return next();
  }
  const resolved = token ? await resolveActor(c.get('db'), token, c.get('now')) : null;
  c.set('actor', resolved?.actor ?? null);
  c.set('session', resolved?.session ?? null);
  c.set('token', resolved ? token : null);
  await next();
};

export const requireAuth: MiddlewareHandler<ApiEnv> = async (c, next) => {
  if (!c.get('actor')) throw new Unauthenticated();
  await next();
};

/**
 * The language of an API call's texts (messages, labels): the one its Accept-Language header asks for,
 * English otherwise. The front door has loaded it (workers/http.ts).
 */
export function langOf(c: Context): Language {
  return preferredLanguage(c.req.header('accept-language'));
}

/** The domain context of an API call. */
export function ctxOf(c: Context<ApiEnv>): Ctx {
  return {
    db: c.get('db'),
    env: c.env,
    now: c.get('now'),
    actor: c.get('actor'),
    ip: c.req.header('cf-connecting-ip') ?? null,
    userAgent: c.req.header('user-agent') ?? null,
    lang: langOf(c),
  };
}

export function actorCtxOf(c: Context<ApiEnv>) {
  const ctx = ctxOf(c);
  if (!ctx.actor) throw new Unauthenticated();
  return ctx as Ctx & { actor: Actor };
}

/**
 * A file answered by a call that can also answer JSON (the invoices ZIP now, or its job with 202): typed
 * as a file, so the router's type keeps both answers and scripts/openapi-answers.mjs documents both. A
 * call that only answers files needs nothing: an untyped Response is already a file there.
 */
export const fileAnswer = (response: Response) => response as Response & TypedResponse<unknown, 200, 'file'>;
