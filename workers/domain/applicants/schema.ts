/** Partner applicants' inputs (pure zod): the list's search and what the partner sends. */
import { z } from 'zod';
import { itemsParam, pageParam } from '../list-query';
import { email, isoDate, msg, optional, personName, requiredText } from '../validation';
import { PARTNER_APPLICANT_STATUSES, PARTNER_APPLICANTS_PER_PAGE } from './values';

export * from './values';

const blankIsNone = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).catch(undefined);

export const partnerApplicantsQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(PARTNER_APPLICANTS_PER_PAGE),
  /** Part of a name, an email, the partner's reference or the school's name. */
  search: z.string().trim().max(200).optional().catch(undefined),
  status: blankIsNone(z.enum(PARTNER_APPLICANT_STATUSES)),
  /** Days received, from and to (YYYY-MM-DD). */
  from: blankIsNone(isoDate),
  to: blankIsNone(isoDate),
});
export type PartnerApplicantsQuery = z.infer<typeof partnerApplicantsQuerySchema>;

/** POST insured-applicants: one applicant as the partner sends it. */
export const partnerApplicantSchema = z
  .object({
    partner_reference: requiredText(60),
    first_name: personName,
    last_name: personName,
    date_of_birth: isoDate,
    email: optional(email),
    nationality: optional(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z]{2}$/, msg('partner_applicants.errors.nationality'))
        .transform((v) => v.toUpperCase()),
    ),
    school_name: optional(z.string().trim().max(150)),
    start_date: isoDate,
    end_date: isoDate,
    /** The insurer's company (a key of one company needs none). */
    company_id: optional(z.string().max(40)),
  })
  .superRefine((v, ctx) => {
    if (v.end_date <= v.start_date)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: msg('validation.end_after_start') });
  });
export type PartnerApplicantInput = z.infer<typeof partnerApplicantSchema>;
