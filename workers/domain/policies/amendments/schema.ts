/**
 * The inputs of amendments (extend, edit trip dates, cancel: quoted, then confirmed) and of the direct
 * bulk changes (group name, group leader). Pure (zod only): the pages, the API and the services read the
 * same objects. Field names follow the brief and the catalogue: `policies` (public ids), `new_start_date`,
 * `new_end_date`, `reason`, `group_name`, `group_leader_id`.
 */
import { z } from 'zod';
import { AMENDMENT_KINDS } from '../../../../drizzle/schema/policy-enums';
import { bulkFormFields, bulkSelectionSchema, itemsParam, pageParam } from '../../list-query';
import { groupName, isoDate, msg } from '../../validation';
import { AMEND_PERMISSION } from './values';
export { AMEND_PERMISSION };

/**
 * Above this many policies a confirmation runs as a job with a progress bar (docs/decisions/after-the-sale.md,
 * "Amendments"): still one D1 batch, but outside the request, so the page never waits on it.
 */
export const CONFIRM_JOB_THRESHOLD = 500;

/** The job type of a large confirmation. */
export const CONFIRM_AMENDMENT_JOB = 'amendment.confirm';

/** A cancellation reason, as the cancel form and `policies/{id}/cancel` take it. */
export const cancelReason = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : v),
  z
    .string({ required_error: msg('validation.required'), invalid_type_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .max(255, msg('validation.max', { length: 255 })),
);

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);
const date = z.preprocess(blank, isoDate.optional());

/** What a quote asks for: the new dates (extend: the end date only) or the reason (cancel). */
export const quoteInputSchema = z.object({
  new_start_date: date,
  new_end_date: date,
  reason: z.preprocess(blank, cancelReason.optional()),
});
export type QuoteInput = z.infer<typeof quoteInputSchema>;

export const amendmentKindSchema = z.enum(AMENDMENT_KINDS);

/**
 * The list of public policy ids of an API call (`policies`); the message of an empty list is the one
 * `policies/group-leader/update` gives for applicants not yet checked out, as both share the call.
 */
export const policyIdsSchema = z
  .array(z.string().trim().min(1).max(40))
  .min(1, msg('cart.errors.select_one'))
  .max(10_000);

/** POST policies/amount: a quote of an amendment over the named policies; answers its id and totals. */
export const amountBodySchema = z
  .object({ type: amendmentKindSchema, policies: policyIdsSchema })
  .merge(quoteInputSchema);

/** POST policies/extend (bulk) and POST policies/{id}/extend: the new end date. */
export const extendBodySchema = z.object({ new_end_date: isoDate });
export const bulkExtendBodySchema = extendBodySchema.extend({ policies: policyIdsSchema });

/** POST policies/trip-dates/update and PATCH policies/{id}/trip-dates/update: the new trip dates. */
export const tripDatesBodySchema = z.object({ new_start_date: isoDate, new_end_date: isoDate });
export const bulkTripDatesBodySchema = tripDatesBodySchema.extend({ policies: policyIdsSchema });

/** POST policies/{id}/cancel and POST policies/cancel: the reason. */
export const cancelBodySchema = z.object({ reason: cancelReason });
export const bulkCancelBodySchema = cancelBodySchema.extend({ policies: policyIdsSchema });

/** Group name (spec 000 s.5: 3 to 50 letters, digits, space, apostrophe, plus, hyphen, underscore). */
export const groupNameInput = z.preprocess(
  (v) => (typeof v === 'string' ? v.trim() : v),
  z.string({ required_error: msg('validation.required') }).pipe(groupName),
);
export const groupNameBodySchema = z.object({ policies: policyIdsSchema, group_name: groupNameInput });

/** The group leader (a group_leader insured of the same client), by public id; empty removes it. */
export const groupLeaderId = z.preprocess(
  (v) => (v === '' ? null : v),
  z.string().trim().min(1).max(40).nullable(),
);
export const groupLeaderBodySchema = z.object({ policies: policyIdsSchema, group_leader_id: groupLeaderId });
export const oneGroupLeaderBodySchema = z.object({ group_leader_id: groupLeaderId });

/** The pages' forms: the selection posted by the list (ids or all matching + filters) is read by bulkSchema. */
export const groupNameFormSchema = z.object({ group_name: groupNameInput });
export const groupLeaderFormSchema = z.object({ group_leader_id: groupLeaderId });

/** Paging of an amendment's lines (the quote page, `GET policies/amount/{id}`). */
export const amendmentViewQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(),
  errors_only: z.preprocess((v) => v === 'true' || v === '1' || v === true, z.boolean()).default(false),
});
export type AmendmentViewQuery = z.infer<typeof amendmentViewQuerySchema>;

export { bulkSelectionSchema };

/** An amendment's start page: the selection as the list posts it, and the group name or leader. */
export const amendStartSchema = bulkFormFields.extend({
  save: z.literal('1').optional(),
  group_name: z.string().max(200).optional(),
  group_leader_id: z.string().max(64).optional(),
});
