/** Inputs of sign-in, session, invitation and account calls. Pure: shared by pages and the API. */
import { z } from 'zod';
import {
  checkbox,
  LANDING_PAGE_OPTIONS,
  email,
  msg,
  password,
  withNewPassword,
  personName,
  phoneCountry,
  phoneNumber,
  pin,
  requiredText,
} from '../validation';

export const loginEmailSchema = z.object({ email });

export const loginPasswordSchema = z.object({
  email,
  password: z.string({ required_error: msg('validation.required') }).min(1, msg('validation.required')),
});

/** API sign-in: email and password, then the same call again with the PIN from the email. */
export const apiSignInSchema = loginPasswordSchema.extend({ pin: pin.optional() });

export const pinSchema = z.object({ pin });

export const contactUsSchema = z.object({
  first_name: personName,
  last_name: personName,
  email,
  reason: requiredText(1000),
});

export const forgotPasswordEmailSchema = z.object({ email });
export const forgotPasswordPhoneSchema = z.object({ phone_country: phoneCountry, phone_number: phoneNumber });
export const forgotPasswordSchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('email'), email }),
  z.object({ method: z.literal('phone'), phone_country: phoneCountry, phone_number: phoneNumber }),
]);

export const verifyEmailPinSchema = z.object({ email, pin });
export const verifyPhonePinSchema = z.object({ phone_country: phoneCountry, phone_number: phoneNumber, pin });

export const newPasswordSchema = withNewPassword({});

export const resetPasswordEmailSchema = withNewPassword({ email, pin });
export const resetPasswordPhoneSchema = withNewPassword({
  phone_country: phoneCountry,
  phone_number: phoneNumber,
  pin,
});

/**
 * PATCH user/update-password. The user's other sessions end unless `sign_out_other_sessions` is false
 * (absent: they end, as a password change after a suspicion should).
 */
export const changePasswordSchema = withNewPassword({
  current_password: z
    .string({ required_error: msg('validation.required') })
    .min(1, msg('validation.required')),
  sign_out_other_sessions: z.boolean().default(true),
});

/** The account page's form: an unticked box sends nothing, so absent means "keep the other sessions". */
export const changePasswordFormSchema = withNewPassword({
  current_password: z
    .string({ required_error: msg('validation.required') })
    .min(1, msg('validation.required')),
  sign_out_other_sessions: z.boolean().default(false),
});

/** Ending one of one's own sessions (account details): its id as the sessions list gives it. */
export const endSessionSchema = z.object({ session_id: z.coerce.number().int().positive() });

export const phoneSchema = z.object({ phone_country: phoneCountry, phone_number: phoneNumber });

export const profileSchema = z.object({
  first_name: personName,
  last_name: personName,
  landing_page: z.enum(LANDING_PAGE_OPTIONS, { errorMap: () => ({ message: msg('validation.required') }) }),
  /** Email me when the other side writes in the message centre; left as it is when not sent. */
  message_emails: z.boolean().optional(),
});

/** The account page's profile form: an unticked box sends nothing, which there means "off". */
export const profileFormSchema = profileSchema.extend({ message_emails: checkbox });

export const inviteNameSchema = z.object({ first_name: personName, last_name: personName });

export const selectCompanySchema = z.object({
  company_id: z.preprocess(
    (v) => (v === '' || v === undefined || v === null ? null : v),
    z.string().nullable(),
  ),
});

export { password };

/** A session's id in a path (DELETE user/sessions/{id}). */
export const sessionIdParam = z.object({ id: z.coerce.number().int().positive() });

/** A user's public id in a path (support/view-as/{id}). */
export const userIdParam = z.object({ id: z.string().min(1).max(40) });

/** The account page's forms, by intent. */
export const accountPageSchemas = {
  profile: profileFormSchema,
  password: changePasswordFormSchema,
  end_session: endSessionSchema,
  end_other_sessions: z.object({}),
};

/** Starting and stopping the support view from a page: the forms carry nothing but their CSRF token. */
export const supportViewFormSchema = z.object({});
