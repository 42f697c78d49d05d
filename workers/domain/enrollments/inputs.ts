/**
 * Inputs of ordering one by one, the batch and enrollment calls and the cart (spec 002 s.7 "Campuses"
 * policies calls, "Policy batches and enrollments"). Pure: the add form validates in the browser with
 * the same schema as the page's action and the API.
 */
import { z } from 'zod';
import { itemsParam, listQuerySchema, MAX_PER_PAGE } from '../list-query';
import { msg, optional, requiredText } from '../validation';
import { applicantSchema, CART_PAGE_SIZE, MAX_APPLICANTS } from './schema';

const publicIdText = requiredText(40);
const optionalId = optional(z.string().max(40));

/**
 * The one-by-one add form: every applicant field, and for an immediate family member the student of
 * the order it travels with (an enrollment id of the same batch).
 */
export const applicantFormSchema = applicantSchema.and(z.object({ dependency_id: optionalId }));
export type ApplicantFormInput = z.infer<typeof applicantFormSchema>;

/**
 * One applicant as the API takes it: the applicant fields (validated by the rules, so loosely typed
 * here: what is wrong is answered per field), and optional links: `dependency_id` / `group_leader_id`
 * name an enrollment already in the batch, `dependency_index` / `group_leader_index` another item of
 * the same call.
 */
export const applicantItemSchema = z
  .object({
    dependency_id: z.string().max(40).nullish(),
    group_leader_id: z.string().max(40).nullish(),
    dependency_index: z.number().int().min(0).nullish(),
    group_leader_index: z.number().int().min(0).nullish(),
  })
  .catchall(z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]));
export type ApplicantItem = z.infer<typeof applicantItemSchema>;

const items = z
  .array(applicantItemSchema)
  .min(1, msg('enrollments.errors.batch_empty'))
  .max(MAX_APPLICANTS, msg('enrollments.errors.too_many', { max: MAX_APPLICANTS }));

/** campuses/{id}/policies/validate/single. */
export const validateSingleSchema = z.object({ contract_id: publicIdText, item: applicantItemSchema });
/** campuses/{id}/policies/validate/batch. */
export const validateBatchSchema = z.object({ contract_id: publicIdText, items });
/** campuses/{id}/policies/add/batch: a new batch with its applicants. */
export const addBatchSchema = z.object({
  contract_id: publicIdText,
  items,
  validate_first: z.boolean().default(false),
  contact_source: z.string().max(100).nullish(),
  conversation_id: z.string().max(100).nullish(),
});

/** policy-batches/add: the contract names the campus. */
export const createBatchSchema = z.object({
  contract_id: publicIdText,
  contact_source: z.string().max(100).nullish(),
  conversation_id: z.string().max(100).nullish(),
});

/** policy-batches/{id}/enrollments/add. */
export const addEnrollmentsSchema = z.object({ items, validate_first: z.boolean().default(true) });

/** enrollments/{id}/update: the fields to change (others keep their value), and the links. */
export const updateEnrollmentSchema = applicantItemSchema.and(
  z.object({ validate_first: z.boolean().default(false) }),
);

const enrollmentIds = z
  .array(z.string().min(1).max(40))
  .min(1, msg('cart.errors.select_one'))
  .max(MAX_PER_PAGE * 20);

/** enrollments/delete. */
export const deleteEnrollmentsSchema = z.object({ enrollment_ids: enrollmentIds });
/** enrollments/update-plan: moves enrollments into another batch of the same campus. */
export const updatePlanSchema = z.object({ batch_id: publicIdText, enrollment_ids: enrollmentIds });
/** policies/group-leader/update for enrollments of a batch not yet checked out; null removes the leader. */
export const groupLeaderSchema = z.object({
  group_leader_id: z.string().max(40).nullable(),
  policies: enrollmentIds,
});

/** GET enrollments: one batch (or the whole cart), 500 a page. */
export const enrollmentListQuerySchema = listQuerySchema.extend({
  policy_batch: z.string().max(40).optional(),
  items: itemsParam(CART_PAGE_SIZE),
  only_errors: z
    .enum(['0', '1', 'true', 'false'])
    .optional()
    .transform((v) => v === '1' || v === 'true'),
});
export type EnrollmentListQuery = z.infer<typeof enrollmentListQuerySchema>;

/** The order page's choice of campus and product. */
export const startOrderSchema = z.object({
  campus_id: publicIdText,
  contract_id: publicIdText,
});
