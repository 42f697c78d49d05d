/**
 * Inputs of the roles calls (spec 002 s.7 "Roles") and of the privileges page. Pure (zod only).
 */
import { z } from 'zod';
import { ROLE_FAMILIES } from '../../../drizzle/enums';
import { msg, requiredText } from '../validation';

export const ROLE_NAME_MAX = 100;

export const roleFamilySchema = z.enum(ROLE_FAMILIES);

/** A role by its id, the slug every call names it by (a row number is not a role's id). */
const ROLE_ID = /^(?=.*[a-z])[a-z0-9_]{1,80}$/;
const id = z
  .string({
    required_error: msg('validation.required'),
    invalid_type_error: msg('roles.errors.unknown_role'),
  })
  .trim()
  .regex(ROLE_ID, msg('roles.errors.unknown_role'));
/** An empty choice ("No reference role") is null. */
const optionalId = z.preprocess((v) => (v === '' || v === undefined ? null : v), id.nullable());
const permissionNames = z.array(z.string().trim().min(1).max(60)).max(200);

/** A company by its public id, as every call names companies; an empty choice ("All companies") is null. */
const optionalCompany = z.preprocess(
  (v) => (v === '' || v === undefined ? null : v),
  z.string().trim().min(1).max(40).nullable(),
);

/**
 * POST roles/{family}/role: a title, a company (its public id; null: every company), and a reference
 * role to copy.
 */
export const createRoleSchema = z.object({
  title: requiredText(ROLE_NAME_MAX),
  company_id: optionalCompany.optional().default(null),
  reference_role_id: optionalId.optional().default(null),
  /** The permissions of the new role; without them, the reference role's (or none). */
  permissions: permissionNames.optional(),
});
export type CreateRoleInput = z.infer<typeof createRoleSchema>;

/** PATCH roles/{family}: one or more roles of the family, each renamed and/or given its permissions. */
export const updateRolesSchema = z.object({
  roles: z
    .array(
      z.object({
        id,
        name: requiredText(ROLE_NAME_MAX).optional(),
        permissions: permissionNames.optional(),
      }),
    )
    .min(1, msg('validation.required'))
    .max(50),
});
export type UpdateRolesInput = z.infer<typeof updateRolesSchema>;

// ---------------------------------------------------------------- the privileges page's forms

export const createRoleFormSchema = createRoleSchema.omit({ permissions: true }).extend({
  family: roleFamilySchema,
});

export const renameRoleFormSchema = z.object({
  id,
  family: roleFamilySchema,
  title: requiredText(ROLE_NAME_MAX),
});

export const deleteRoleFormSchema = z.object({ id, family: roleFamilySchema });

/**
 * The matrix form: every role shown (`roles`) and every ticked box as `<role id>:<permission>`
 * (`grants`); a role listed with no box ticked holds nothing.
 */
export const saveMatrixFormSchema = z.object({
  family: roleFamilySchema,
  roles: z.preprocess((v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]), z.array(id).min(1).max(50)),
  grants: z.preprocess(
    (v) => (Array.isArray(v) ? v : v === undefined ? [] : [v]),
    z.array(z.string().regex(/^[a-z0-9_]{1,80}:[a-z_]{1,60}$/)).max(5000),
  ),
});
