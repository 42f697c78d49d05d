/** Inputs of the notice calls. Pure: pages and the API share them. */
import { z } from 'zod';
import { listQuerySchema } from '../list-query';
import { checkbox, msg, requiredText } from '../validation';
import {
  NOTICE_AUDIENCE_MAX,
  NOTICE_BILLING_TYPES,
  NOTICE_MARKETS,
  NOTICE_MESSAGE_MAX,
  NOTICE_STATUSES,
  NOTICE_TITLE_MAX,
  NOTICE_USER_TYPES,
} from './values';

export * from './values';

/** A multiple choice: a form sends one value as a string, several as an array, none as nothing. */
function choices<T extends z.ZodTypeAny>(item: T) {
  return z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(item).max(NOTICE_AUDIENCE_MAX, msg('notices.errors.too_many', { max: NOTICE_AUDIENCE_MAX })),
  );
}
const publicIds = choices(z.string().trim().min(1).max(40));

/** notices/add and notices/{id}/update. Every audience dimension left empty means "any". */
export const noticeSchema = z.object({
  title: requiredText(NOTICE_TITLE_MAX),
  message: requiredText(NOTICE_MESSAGE_MAX),
  status: z.enum(NOTICE_STATUSES).default('active'),
  send_email: checkbox.default(false),
  clients: publicIds,
  campuses: publicIds,
  products: publicIds,
  user_types: choices(z.enum(NOTICE_USER_TYPES)),
  countries: choices(
    z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, msg('notices.errors.country')),
  ),
  billing_types: choices(z.enum(NOTICE_BILLING_TYPES)),
  markets: choices(z.enum(NOTICE_MARKETS)),
  /** The company the notice belongs to (public id); defaults to the company chosen in the top bar. */
  company_id: z.string().max(40).optional(),
});
export type NoticeInput = z.infer<typeof noticeSchema>;

export const noticeStatusSchema = z.object({
  status: z.enum(NOTICE_STATUSES, { errorMap: () => ({ message: msg('validation.required') }) }),
});

export const noticeListSchema = listQuerySchema.extend({
  status: z
    .enum([...NOTICE_STATUSES, 'all'])
    .catch('all')
    .optional(),
});
export type NoticeListQuery = z.infer<typeof noticeListSchema>;

export const noticeRecipientsQuerySchema = listQuerySchema.extend({
  acknowledged: z.enum(['yes', 'no']).optional().catch(undefined),
});
export type NoticeRecipientsQuery = z.infer<typeof noticeRecipientsQuerySchema>;
