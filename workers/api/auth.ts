import { Hono } from 'hono';
import { z } from 'zod';
import {
  apiSignInSchema,
  changePasswordSchema,
  contactUsSchema,
  forgotPasswordEmailSchema,
  forgotPasswordPhoneSchema,
  newPasswordSchema,
  phoneSchema,
  profileSchema,
  resetPasswordEmailSchema,
  resetPasswordPhoneSchema,
  verifyEmailPinSchema,
  verifyPhonePinSchema,
} from '../domain/auth/schema';
import {
  changePassword,
  completeInvitation,
  apiSignIn,
  requestPasswordReset,
  resetPassword,
  sendContactMessage,
  sendInviteEmailPin,
  setInvitePhone,
  setInvitedPassword,
  signOut,
  verificationStatus,
  verifyInviteEmail,
  verifyResetPin,
} from '../domain/auth/service';
import { getOwnProfile, updateOwnProfile } from '../domain/account/service';
import { email, phoneCountry, phoneNumber, pin } from '../domain/validation';
import { NotFound, Unauthenticated } from '../domain/errors';
import { actorCtxOf, ctxOf, requireAuth, type ApiEnv } from './context';
import { valid } from './validate';

/** The invitation calls carry the invitation token in this header (see docs/decisions/sign-in.md). */
const INVITATION_HEADER = 'x-invitation-token';

function invitationToken(header: string | undefined): string {
  if (!header) throw new Unauthenticated('auth.invitation_invalid');
  return header;
}

/**
 * Sign-in over the API (see docs/decisions/sign-in.md): POST sign-in with email and password sends the PIN by
 * email and answers 202 `pin_required`; the same call with `pin` added answers the bearer token.
 */
export const authApi = new Hono<ApiEnv>()
  .post('/company/auth/sign-in', valid('json', apiSignInSchema), async (c) => {
    const ctx = ctxOf(c);
    const result = await apiSignIn(ctx, c.req.valid('json'));
    if ('pin_required' in result) {
      return c.json(
        { data: { pin_required: true }, message: 'A one time pin has been sent to your email address.' },
        202,
      );
    }
    const profile = await getOwnProfile({ ...ctx, actor: result.actor });
    return c.json({ data: { token: result.token, token_type: 'Bearer', company: profile } });
  })
  .post('/company/auth/logout', async (c) => {
    await signOut(ctxOf(c), c.get('token'));
    return c.json({ data: null, message: 'You have been signed out.' });
  })
  .get('/company/auth/get', requireAuth, async (c) => {
    const ctx = actorCtxOf(c);
    const profile = await getOwnProfile(ctx);
    return c.json({ data: { company: profile } });
  })
  .post('/company/auth/contact-us', valid('json', contactUsSchema), async (c) => {
    await sendContactMessage(ctxOf(c), c.req.valid('json'));
    return c.json({ data: null, message: 'Your message has been sent. We will contact you soon.' });
  })
  .patch(
    '/company/users/company/:id/update-profile',
    requireAuth,
    valid('json', profileSchema),
    async (c) => {
      const ctx = actorCtxOf(c);
      // Only one's own profile here; other users are edited through the users screens.
      if (c.req.param('id') !== ctx.actor.public_id) throw new NotFound();
      await updateOwnProfile(ctx, c.req.valid('json'));
      return c.json({ data: { user: await getOwnProfile(ctx) }, message: 'Profile updated successfully.' });
    },
  )
  .patch('/company/user/update-password', requireAuth, valid('json', changePasswordSchema), async (c) => {
    await changePassword(actorCtxOf(c), c.req.valid('json'));
    return c.json({ data: null, message: 'Password updated successfully.' });
  })
  // Forgot and reset password, by email or phone.
  .post('/company/auth/email/forgot-password', valid('json', forgotPasswordEmailSchema), async (c) => {
    await requestPasswordReset(ctxOf(c), { method: 'email', ...c.req.valid('json') });
    return c.json({ data: null, message: 'If an account matches, a one time pin has been sent.' });
  })
  .post('/company/auth/phone/forgot-password', valid('json', forgotPasswordPhoneSchema), async (c) => {
    await requestPasswordReset(ctxOf(c), { method: 'phone', ...c.req.valid('json') });
    return c.json({ data: null, message: 'If an account matches, a one time pin has been sent.' });
  })
  .post('/company/auth/email/forgot-password/verify', valid('json', verifyEmailPinSchema), async (c) => {
    await verifyResetPin(ctxOf(c), c.req.valid('json'));
    return c.json({ data: { valid: true } });
  })
  .post('/company/auth/phone/forgot-password/verify', valid('json', verifyPhonePinSchema), async (c) => {
    await verifyResetPin(ctxOf(c), c.req.valid('json'));
    return c.json({ data: { valid: true } });
  })
  .post('/company/auth/reset-password', valid('json', resetPasswordEmailSchema), async (c) => {
    await resetPassword(ctxOf(c), c.req.valid('json'));
    return c.json({ data: null, message: 'Your password has been reset. Please sign in.' });
  })
  .post('/company/auth/reset-password/phone', valid('json', resetPasswordPhoneSchema), async (c) => {
    await resetPassword(ctxOf(c), c.req.valid('json'));
    return c.json({ data: null, message: 'Your password has been reset. Please sign in.' });
  })
  // Invitation: verification of email and phone, and the password.
  .post('/company/auth/email-verification/send', valid('json', z.object({ email })), async (c) => {
    await sendInviteEmailPin(ctxOf(c), invitationToken(c.req.header(INVITATION_HEADER)));
    return c.json({ data: null, message: 'A one time pin has been sent to your email address.' });
  })
  .get('/company/auth/verification-status/email', valid('query', z.object({ email })), async (c) => {
    return c.json({ data: await verificationStatus(ctxOf(c), c.req.valid('query')) });
  })
  .get(
    '/company/auth/verification-status/phone',
    valid('query', z.object({ country_code: phoneCountry, phone_number: phoneNumber })),
    async (c) => {
      const q = c.req.valid('query');
      return c.json({
        data: await verificationStatus(ctxOf(c), {
          phone_country: q.country_code,
          phone_number: q.phone_number,
        }),
      });
    },
  )
  .post('/company/auth/email-validate-pin/verify', valid('json', verifyEmailPinSchema), async (c) => {
    await verifyInviteEmail(
      ctxOf(c),
      invitationToken(c.req.header(INVITATION_HEADER)),
      c.req.valid('json').pin,
    );
    return c.json({ data: { verified: true } });
  })
  .post('/company/auth/profile-password/set', valid('json', newPasswordSchema), async (c) => {
    await setInvitedPassword(
      ctxOf(c),
      invitationToken(c.req.header(INVITATION_HEADER)),
      c.req.valid('json').password,
    );
    return c.json({ data: null, message: 'Password set.' });
  })
  .post('/company/auth/phone-number/send', valid('json', phoneSchema), async (c) => {
    await setInvitePhone(ctxOf(c), invitationToken(c.req.header(INVITATION_HEADER)), c.req.valid('json'));
    return c.json({ data: null, message: 'A one time pin has been sent to your phone.' });
  })
  .post('/company/auth/phone-number/set', valid('json', phoneSchema), async (c) => {
    await setInvitePhone(ctxOf(c), invitationToken(c.req.header(INVITATION_HEADER)), c.req.valid('json'));
    return c.json({ data: null, message: 'A one time pin has been sent to your phone.' });
  })
  .post('/company/auth/phone-number/send-new-verification-pin', valid('json', phoneSchema), async (c) => {
    await setInvitePhone(ctxOf(c), invitationToken(c.req.header(INVITATION_HEADER)), c.req.valid('json'));
    return c.json({ data: null, message: 'A new one time pin has been sent to your phone.' });
  })
  .post(
    '/company/auth/phone-validate-pin/verify',
    valid('json', z.object({ phone_country: phoneCountry, phone_number: phoneNumber, pin })),
    async (c) => {
      const { token, actor } = await completeInvitation(
        ctxOf(c),
        invitationToken(c.req.header(INVITATION_HEADER)),
        c.req.valid('json').pin,
        'api',
      );
      return c.json({ data: { verified: true, token, token_type: 'Bearer', user_id: actor.public_id } });
    },
  );
