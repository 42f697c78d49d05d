import { redirect, type AppLoadContext } from '@remix-run/cloudflare';
import { getInvitation, type InvitationState } from '@server/domain/auth/service';
import { NotFound } from '@server/domain/errors';
import { readCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf, requireGuest } from '~/lib/guards.server';
import { INVITE_STEPS, type InviteStep } from '~/lib/invite';

/** The first step the invitation still needs, from what has been done so far. */
export function dueStep(state: InvitationState): InviteStep {
  if (!state.password_set) return 'sign-up-pwd';
  if (!state.email_verified) return 'pin-otp';
  if (!state.phone_country || !state.phone_number) return 'add-phone';
  return 'pin-otp-phone';
}

export function invitePath(request: Request, step: InviteStep): string {
  return localePath(langOf(request), `/invite/${step}`);
}

/**
 * Loads the invitation whose token the 'invite' cookie holds, for one step. An invalid or expired token
 * goes to the sign-up page (which says so); a step ahead of what has been done goes back to the first
 * step still due. Earlier steps stay open, so a person can go back and change an answer.
 */
export async function requireInvitation(request: Request, context: AppLoadContext, step: InviteStep) {
  const ctx = requireGuest(request, context);
  const token = readCookie(request, context.env, 'invite');
  let invitation: InvitationState;
  try {
    invitation = await getInvitation(ctx, token);
  } catch (e) {
    if (e instanceof NotFound) throw redirect(invitePath(request, 'sign-up'));
    throw e;
  }
  const due = dueStep(invitation);
  if (INVITE_STEPS.indexOf(step) > INVITE_STEPS.indexOf(due)) throw redirect(invitePath(request, due));
  return { ctx, token: token as string, invitation };
}
