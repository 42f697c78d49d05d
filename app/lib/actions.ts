import type { SubmissionResult } from '@conform-to/react';
import type { PendingConfirmation } from '@server/web/load-context';
import * as server from './actions.server';

export type { PendingConfirmation };

/**
 * The one answer every page action gives (see docs/page-kit.md). A success that leaves the page usually
 * redirects instead, with a toast in the flash cookie.
 */
export interface ActionAnswer<D = unknown> {
  /** The intent that was handled (null for a single-operation form). */
  intent: string | null;
  ok: boolean;
  /** Conform's reply for the form that was sent: field errors, and form errors for refusals not tied to a field. */
  submission: SubmissionResult<string[]> | null;
  /** The error notice: a domain message (a key, maybe with parameters) when the action was refused. */
  error: string | null;
  /** What the action hands back to the page, when it stays on it (rare). */
  data: D | null;
  /**
   * The question an intent declared with `confirm` asks when it was posted without `confirmed=1`: nothing
   * was done. The shell shows it as a step (a document request); scripted pages ask in the browser first.
   */
  confirm: PendingConfirmation | null;
}

export type ToastType = 'success' | 'info' | 'error';

/** A message shown once after an action: `message` is a domain message (a locale key, maybe with parameters). */
export interface Toast {
  id: string;
  type: ToastType;
  message: string;
}

/** The exhaustive switch's last branch: a new intent that is not handled fails the typecheck. */
export function unreachable(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

/** The answer of an action, when the page reads it (`useActionData<typeof action>()` widens to this). */
export function answerOf<D = unknown>(data: unknown): ActionAnswer<D> | null {
  if (!data || typeof data !== 'object' || !('ok' in data) || !('intent' in data)) return null;
  return data as ActionAnswer<D>;
}

/*
 * The two action builders, as routes call them: `export const action = intentAction({...})`. The call runs
 * when the route module loads, in the browser too (the bundler keeps a call it cannot prove pure), where
 * the .server module is empty: so these wrappers only close over the definition, and the server half is
 * reached when the action runs, on the server.
 */
export const intentAction: typeof server.intentAction = (def) => (args) => server.intentAction(def)(args);
export const formAction: typeof server.formAction = (def) => (args) => server.formAction(def)(args);
