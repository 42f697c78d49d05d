/**
 * The insureds list's filters (spec 001 s.2: policy id, first name, last name, country of residence, trip
 * start date, trip end date, product, issued date, booking date, status; staff also client, campus, group
 * name and type), as the page's address and `GET policies` carry them. Pure (zod only): the page and the
 * bulk actions' "all matching" read the same schema. The SQL is in filters.ts.
 */
import { z } from 'zod';
import { APPLICANT_TYPES } from '../../../drizzle/schema/ordering-enums';
import { listQuerySchema } from '../list-query';
import { isoDate } from '../validation';

import { POLICY_LIST_STATUSES } from './status';

export { POLICY_LIST_STATUSES, type PolicyListStatus } from './status';

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const text = (max: number) => z.preprocess(blank, z.string().trim().min(1).max(max).optional());
const date = z.preprocess(blank, isoDate.optional());
const id = z.preprocess(blank, z.string().trim().min(1).max(64).optional());

export const policyListQuerySchema = listQuerySchema.extend({
  /** Policy number (P00000012) or its beginning. */
  policy_id: text(20),
  /** Beginning of the first or last name (case-insensitive). */
  first_name: text(100),
  last_name: text(100),
  /** Public ids of the country of residence, product, client and campus. */
  residence_country: id,
  product: id,
  client: id,
  campus: id,
  group_name: text(50),
  /** Public id of the policy batch (an order) the insureds were issued from. */
  policy_batch: id,
  /** One type, or several separated by commas (the catalogue's `type=group_leader,student`). */
  type: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() ? v.split(',').map((t) => t.trim()) : undefined) : blank(v)),
    z.array(z.enum(APPLICANT_TYPES)).min(1).max(APPLICANT_TYPES.length).optional(),
  ),
  status: z.preprocess(blank, z.enum(POLICY_LIST_STATUSES).optional()),
  /** Date ranges: trip start, trip end, issued (day of issue) and booking date, each from/to inclusive. */
  start_from: date,
  start_to: date,
  end_from: date,
  end_to: date,
  issued_from: date,
  issued_to: date,
  booking_from: date,
  booking_to: date,
});
export type PolicyListQuery = z.infer<typeof policyListQuerySchema>;

/**
 * `GET insureds/list`: the same filters, in policy-number order unless told otherwise, so a client paging
 * through a batch (25 at a time until a page is not full) reads each insured once, in issue order.
 */
export const insuredsListQuerySchema = policyListQuerySchema.extend({
  order: z.string().max(60).default('policy_number_asc'),
});

/** The columns the list may be sorted by (`order=<field>_asc|_desc`). */
export const POLICY_SORTS = [
  'policy_number',
  'full_name',
  'start_date',
  'end_date',
  'issued_at',
  'booking_date',
] as const;
export const POLICY_DEFAULT_ORDER = 'issued_at_desc';
