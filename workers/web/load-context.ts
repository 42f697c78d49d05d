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
  /**
   * A confirmation an action asked for in this request (the action kit, `confirm`): on a document request
   * the root loader hands it to the shell, which shows it as a step in place of the page.
   */
  confirmation?: PendingConfirmation;
  /**
   * The message an action answered in this request to a browser without JavaScript (the action kit): the
   * root loader of the same request shows it, since the flash cookie would reach only the next page.
   */
  answeredToast?: { id: string; type: 'success' | 'info' | 'error'; message: string };
}

/**
 * A question a destructive or money-moving form asks before it acts (docs/page-kit.md, "A confirmation
 * step"): what to ask, and the same post again with `confirmed=1`.
 */
export interface PendingConfirmation {
  /** The question, naming what it acts on: a message (a key, maybe with parameters). */
  question: string;
  /** The text of the button that acts (a message key). */
  button: string;
  tone: 'danger' | 'primary';
  /** Where the form posted (with Remix's `index` marker), and so where the confirmation posts. */
  action: string;
  /** The page to go back to when the person does not confirm. */
  back: string;
  /** The fields as they were sent (the CSRF token aside), posted again with `confirmed=1`. */
  fields: [string, string][];
  /** The files that were sent: a browser cannot send a chosen file twice, so the step asks for them again. */
  files: { name: string; file: string }[];
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
