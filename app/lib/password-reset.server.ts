import { redirect, type AppLoadContext } from '@remix-run/cloudflare';
import { z } from 'zod';
import { forgotPasswordSchema } from '@server/domain/auth/schema';
import { pin } from '@server/domain/validation';
import { clearCookie, readCookie, serializeCookie } from '@server/web/cookies';
import { localePath } from '~/i18n/config';
import { langOf } from '~/lib/guards.server';

/**
 * What the password-reset steps remember between pages, in the HttpOnly 'reset' cookie (never in the
 * URL): how the pin was sent and to whom, and once checked, the pin itself for the final step.
 */
export type ResetState = z.infer<typeof forgotPasswordSchema> & { pin?: string };

const pinPart = z.object({ pin: pin.optional() });

export function readResetState(request: Request, context: AppLoadContext): ResetState | null {
  const raw = readCookie(request, context.env, 'reset');
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    const target = forgotPasswordSchema.safeParse(value);
    const extra = pinPart.safeParse(value);
    if (!target.success) return null;
    return { ...target.data, pin: extra.success ? extra.data.pin : undefined };
  } catch {
    return null;
  }
}

export function resetCookie(context: AppLoadContext, state: ResetState): string {
  return serializeCookie(context.env, 'reset', JSON.stringify(state));
}

export function clearResetCookie(context: AppLoadContext): string {
  return clearCookie(context.env, 'reset');
}

/** The target as the reset services take it. */
export function resetTarget(state: ResetState) {
  return state.method === 'email'
    ? { email: state.email }
    : { phone_country: state.phone_country, phone_number: state.phone_number };
}

/** How the target is shown back to the person who typed it. */
export function describeTarget(state: ResetState): string {
  return state.method === 'email' ? state.email : `${state.phone_country} ${state.phone_number}`;
}

/** A reset step without the state it needs goes back to the start of the flow. */
export function requireResetState(
  request: Request,
  context: AppLoadContext,
  opts: { withPin?: boolean } = {},
): ResetState {
  const state = readResetState(request, context);
  const lang = langOf(request);
  if (!state) throw redirect(localePath(lang, '/auth/forgot-password'));
  if (opts.withPin && !state.pin) throw redirect(localePath(lang, '/auth/reset-password'));
  return state;
}
