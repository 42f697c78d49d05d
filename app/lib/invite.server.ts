import { redirect, type AppLoadContext, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { lookUpInvitation, type InvitationState } from '@server/domain/auth/service';
import type { Ctx } from '@server/domain/context';
import { readCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
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
 * Loads the invitation whose token the 'invite' cookie holds, for one step (a guest page's loader or action). An invalid or expired token
 * goes to the sign-up page (which says so); a step ahead of what has been done goes back to the first
 * step still due. Earlier steps stay open, so a person can go back and change an answer.
 */
export async function requireInvitation(
  { ctx, request, context }: { ctx: Ctx; request: Request; context: AppLoadContext },
  step: InviteStep,
) {
  const token = readCookie(request, context.env, 'invite');
  const { invitation } = await lookUpInvitation(ctx, token);
  if (!invitation) throw redirect(invitePath(request, 'sign-up'));
  const due = dueStep(invitation);
  if (INVITE_STEPS.indexOf(step) > INVITE_STEPS.indexOf(due)) throw redirect(invitePath(request, due));
  return { ctx, token: token as string, invitation };
}

/**
 * The loader of an invitation step's page: a guest's, on the invitation of the 'invite' cookie (see
 * requireInvitation), with what the step shows of it and the page's title (a key).
 */
export const inviteStepLoader = <R extends object>(
  args: LoaderFunctionArgs,
  step: InviteStep,
  title: string,
  show: (invitation: InvitationState, request: Request) => R,
) =>
  pageLoader({
    access: 'guest',
    permission: null,
    async load(kit) {
      const { invitation } = await requireInvitation(kit, step);
      return { ...show(invitation, kit.request), title: pageTitle(kit.context, kit.request, title) };
    },
  })(args);
