import type { Actor } from '../domain/access/actor';
import type { Ctx } from '../domain/context';
import type { Session } from '../domain/auth/sessions';
import type { Env } from '../env';
import type { DB } from '../platform/db';

/** What every Remix loader and action receives from the Worker (see workers/http.ts). */
export interface PortalLoadContext {
  env: Env;
  db: DB;
  now: Date;
  actor: Actor | null;
  session: Session | null;
  sessionToken: string | null;
  csrfToken: string;
  /** This page's Content-Security-Policy nonce (workers/web/csp.ts). */
  cspNonce: string;
  /** The address starts with something that is neither a language nor a page (see page-prefix.ts). */
  unknownPrefix: boolean;
  /**
   * The page's scripts ask for data or post a form (Remix's single-fetch `.data` address), rather than a
   * browser loading a document: an action's answer then reaches the page in a request of its own.
   */
  dataRequest: boolean;
  requestId: string;
  ip: string | null;
  waitUntil: (promise: Promise<unknown>) => void;
}

declare module '@remix-run/server-runtime' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends PortalLoadContext {}
}

/** The domain context of a page request. */
export function ctxOf(context: PortalLoadContext, lang?: string): Ctx {
  return {
    db: context.db,
    env: context.env,
    now: context.now,
    actor: context.actor,
    ip: context.ip,
    lang,
  };
}
