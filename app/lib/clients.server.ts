import type { Submission } from '@conform-to/dom';
import type { SubmissionResult } from '@conform-to/react';
import { CLIENT_SAVE_FAILED as SAVE_FAILED } from '@server/domain/clients/saving';
import type { AppLoadContext } from '@remix-run/cloudflare';
import type { Actor } from '@server/domain/access/actor';
import type { ActorCtx } from '@server/domain/context';
import { canOpenClientTab, type ClientDetailTab } from '@server/domain/clients/tabs';
import { requirePermissions, withFormErrors } from '~/lib/guards.server';

/**
 * Runs a client save for a form. On failure the reply carries the field errors and, above the form,
 * 'Unable to save the client!' (spec 001 s.8); the typed values come back so nothing is lost.
 */
export async function saveClient<T>(
  submission: Submission<unknown>,
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; reply: SubmissionResult<string[]>; status: number }> {
  const r = await withFormErrors(submission, run);
  if (r.ok) return r;
  const formErrors = [SAVE_FAILED, ...(r.reply.error?.[''] ?? []).filter((e) => e !== SAVE_FAILED)];
  return { ...r, reply: { ...r.reply, error: { ...r.reply.error, '': formErrors } } };
}

/** The reply of a form that did not parse: its field errors and 'Unable to save the client!'. */
export function failedReply(submission: Submission<unknown>): SubmissionResult<string[]> {
  return submission.reply({ formErrors: [SAVE_FAILED] });
}

/**
 * A client tab's loader guard: a signed-in user who may read clients and open this tab; a tab the
 * user may not open answers 404, as if it did not exist (the tab bar does not offer it either).
 */
export function requireClientTab(request: Request, context: AppLoadContext, tab: ClientDetailTab): ActorCtx {
  const ctx = requirePermissions(request, context, 'read_client');
  if (!canOpenClientTab(ctx.actor as Actor, tab)) throw new Response('Not Found', { status: 404 });
  return ctx;
}
