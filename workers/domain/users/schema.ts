/**
 * Inputs of the users screens and calls (catalogue: "Company users", "School users"), pure so the
 * browser validates with the very same objects.
 */
import { z } from 'zod';
import { listQuerySchema } from '../list-query';
import {
  checkbox,
  contactTitle,
  email,
  msg,
  optional,
  optionalPhoneFields,
  personName,
  phonePair,
} from '../validation';
import { USER_LIST_STATUSES, USER_MEMBER_TYPES } from './values';

const publicIdText = z.string().trim().min(1).max(40);

/** A list of public ids or slugs from repeated form fields or a JSON array. */
const idList = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
    z.array(publicIdText).max(max),
  );

/** GET users/company/list: status (active by default) and companies (the current company by default). */
export const companyUserListSchema = listQuerySchema.extend({
  status: z
    .enum([...USER_LIST_STATUSES, 'declined', 'all'])
    .catch('active')
    .default('active'),
  /** A company's public id; empty means the companies in view. */
  companies: z.string().trim().max(40).optional(),
});
export type CompanyUserListQuery = z.infer<typeof companyUserListSchema>;

/** GET users/school/list: by client and campus; status defaults to active (declined has its own list). */
export const schoolUserListSchema = listQuerySchema.extend({
  status: z
    .enum([...USER_LIST_STATUSES, 'declined', 'all'])
    .catch('active')
    .default('active'),
  clients: z.string().trim().max(40).optional(),
  campuses: z.string().trim().max(40).optional(),
});
export type SchoolUserListQuery = z.infer<typeof schoolUserListSchema>;

const personFields = {
  first_name: personName,
  last_name: personName,
  email,
  ...optionalPhoneFields,
  member_type: z.enum(USER_MEMBER_TYPES, { errorMap: () => ({ message: msg('validation.required') }) }),
  job_title: optional(contactTitle),
  department: optional(contactTitle),
  is_master_user: checkbox.default(false),
  roles: idList(20).pipe(z.array(publicIdText).min(1, msg('users.errors.roles_required'))),
};

/** POST users/company/add and PUT users/company/{id}: the person, their companies and roles. */
export const companyUserSchema = phonePair({
  ...personFields,
  companies: idList(50).pipe(z.array(publicIdText).min(1, msg('users.errors.companies_required'))),
});
export type CompanyUserInput = z.infer<typeof companyUserSchema>;

/** POST users/school/add and PUT users/school/{id}: the person, their client, campus access and roles. */
export const schoolUserSchema = phonePair({
  ...personFields,
  /** The client's public id (a school user's own client is taken when absent). */
  client: optional(publicIdText),
  can_access_all_campuses: checkbox.default(false),
  campuses: idList(200),
}).superRefine((d, ctx) => {
  if (!d.can_access_all_campuses && d.campuses.length === 0)
    ctx.addIssue({ code: 'custom', path: ['campuses'], message: msg('users.errors.campuses_required') });
});
export type SchoolUserInput = z.infer<typeof schoolUserSchema>;

/** PATCH users/company/{id}/status. */
export const userStatusSchema = z.object({ status: z.enum(['active', 'archived']) });
