/**
 * Which permissions a role of each family (portal) can hold: the privileges matrix shows these rows and
 * the roles service refuses others. Pure, so the page and the API read the same lists.
 */
import { ROLE_FAMILIES } from '../../../drizzle/enums';
import { ALL_PERMISSIONS, PERMISSION_GROUPS, type Permission } from '../access/permissions';

export type RoleFamily = (typeof ROLE_FAMILIES)[number];
export { ROLE_FAMILIES };

/** The insurer's own work: no school or student role holds these (tests/domain/permissions.test.ts). */
export const COMPANY_ONLY: readonly Permission[] = [
  ...PERMISSION_GROUPS.company,
  ...PERMISSION_GROUPS.insurer,
  ...PERMISSION_GROUPS.country,
  ...PERMISSION_GROUPS.user,
  ...PERMISSION_GROUPS.user_privilege,
  ...PERMISSION_GROUPS.client,
  ...PERMISSION_GROUPS.client_user,
  ...PERMISSION_GROUPS.client_log,
  ...PERMISSION_GROUPS.partner_applicants,
  ...PERMISSION_GROUPS.product_group,
  ...PERMISSION_GROUPS.notice,
  'read_mi_admin_report',
  'read_monthly_policy_report',
  'read_collection_detail_report',
  'allow_past_start_date',
];

const SCHOOL_ONLY: readonly Permission[] = [
  ...PERMISSION_GROUPS.school_profile,
  ...PERMISSION_GROUPS.school_user,
];
const STUDENT_ONLY: readonly Permission[] = [...PERMISSION_GROUPS.student_profile];

const EXCLUDED: Record<RoleFamily, readonly Permission[]> = {
  company: [...SCHOOL_ONLY, ...STUDENT_ONLY],
  school: [...COMPANY_ONLY, ...STUDENT_ONLY],
  student: [...COMPANY_ONLY, ...SCHOOL_ONLY],
};

/** The permissions a role of `family` may hold, in the spec's group order. */
export function familyPermissions(family: RoleFamily): Permission[] {
  return ALL_PERMISSIONS.filter((p) => !EXCLUDED[family].includes(p));
}

export function isFamilyPermission(family: RoleFamily, name: string): boolean {
  return (familyPermissions(family) as string[]).includes(name);
}

export { permissionVerb } from './verbs';
