/** Inputs of the insurer calls (catalogue: Insurers). Pure: pages and the API share them. */
import { z } from 'zod';
import { RECORD_STATUSES } from '../../../drizzle/enums';
import { listQuerySchema } from '../list-query';
import { email, entityName, msg, optional, optionalPhoneFields, url } from '../validation';

export const INSURER_STATUSES = RECORD_STATUSES;

const insurerShape = {
  name: entityName,
  code: optional(z.string().regex(/^[A-Za-z0-9_-]{1,20}$/, msg('insurers.errors.code'))),
  email: optional(email),
  ...optionalPhoneFields,
  website: optional(url),
  /** The company the insurer belongs to (public id); defaults to the company chosen in the top bar. */
  company_id: optional(z.string().max(40)),
};

/** Each of phone number and phone country requires the other (spec 000 s.5). */
function phoneBothOrNeither(d: { phone_country?: string; phone_number?: string }, ctx: z.RefinementCtx) {
  if (d.phone_number && !d.phone_country)
    ctx.addIssue({ code: 'custom', path: ['phone_country'], message: msg('validation.required') });
  if (d.phone_country && !d.phone_number)
    ctx.addIssue({ code: 'custom', path: ['phone_number'], message: msg('validation.required') });
}

/** insurers/add and insurers/{id}/update. */
export const insurerSchema = z.object(insurerShape).superRefine(phoneBothOrNeither);
export type InsurerInput = z.infer<typeof insurerSchema>;

export const insurerStatusSchema = z.object({
  status: z.enum(INSURER_STATUSES, { errorMap: () => ({ message: msg('validation.required') }) }),
});

export const insurerListSchema = listQuerySchema.extend({
  status: z
    .enum([...INSURER_STATUSES, 'all'])
    .catch('all')
    .optional(),
});
export type InsurerListQuery = z.infer<typeof insurerListSchema>;
