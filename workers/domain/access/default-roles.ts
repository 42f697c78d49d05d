import { ALL_PERMISSIONS, PERMISSION_GROUPS, type Permission, type PermissionGroup } from './permissions';

/**
 * The default role matrix, seeded into D1 and editable afterwards (the privileges screen).
 * The specification names the roles but not who holds what; docs/decisions/roles-and-users.md explains each choice.
 */
export interface DefaultRole {
  slug: string;
  name: string;
  family: 'company' | 'school' | 'student';
  permissions: readonly Permission[];
}

const group = (...groups: PermissionGroup[]): Permission[] =>
  groups.flatMap((g) => [...PERMISSION_GROUPS[g]]);
const readOf = (...groups: PermissionGroup[]): Permission[] =>
  group(...groups).filter((p) => p.startsWith('read_'));
const without = (list: Permission[], ...remove: Permission[]) => list.filter((p) => !remove.includes(p));

/** Permissions that only make sense inside the school or student portals. */
const PORTAL_ONLY: Permission[] = [...group('school_profile', 'student_profile', 'school_user')];

const COMPANY_ALL = without([...ALL_PERMISSIONS], ...PORTAL_ONLY);

const POLICY_READ: Permission[] = [
  'read_policy',
  'read_active_policy',
  'read_past_policy',
  'read_cancelled_policy',
  'download_policy_document',
];

export const DEFAULT_ROLES: readonly DefaultRole[] = [
  {
    slug: 'senior_admin',
    name: 'Senior Admin',
    family: 'company',
    permissions: COMPANY_ALL,
  },
  {
    slug: 'administrator',
    name: 'Administrator',
    family: 'company',
    // Runs the business day to day; the MI and executive reports and editing privileges stay with senior admins.
    permissions: without(
      COMPANY_ALL,
      'read_mi_admin_report',
      'create_user_privilege',
      'update_user_privilege',
      'read_audit_trail',
    ),
  },
  {
    slug: 'finance',
    name: 'Finance',
    family: 'company',
    permissions: [
      ...readOf(
        'insured',
        'client',
        'campus',
        'contract',
        'service_agreement',
        'product',
        'company',
        'country',
      ),
      ...group('billing', 'client_billing', 'invoice', 'message', 'client_log'),
      'read_document',
      'read_monthly_policy_report',
      'read_account_summary_report',
      'read_account_statement_report',
      'read_collection_detail_report',
      'read_daily_summary_report',
      'read_verification_report',
      ...POLICY_READ,
      'read_applicant',
    ],
  },
  {
    slug: 'account_manager',
    name: 'Account Manager',
    family: 'company',
    permissions: [
      ...without(group('insured'), 'delete_insured'),
      ...without(group('client'), 'delete_client'),
      ...group('campus', 'message', 'client_log', 'client_user', 'document'),
      'read_contract',
      'create_contract',
      'update_contract',
      'read_service_agreement',
      'create_service_agreement',
      'update_service_agreement',
      'read_billing',
      'read_client_billing',
      'read_invoice',
      ...readOf('product', 'product_group', 'country', 'insurer', 'notice'),
      'read_monthly_policy_report',
      'read_account_summary_report',
      'read_daily_summary_report',
      ...group('policy'),
      'read_applicant',
    ],
  },
  {
    slug: 'executive',
    name: 'Executive',
    family: 'company',
    // Sees everything, changes nothing, and has every report including the MI and executive ones.
    permissions: [...COMPANY_ALL.filter((p) => p.startsWith('read_')), 'download_policy_document'],
  },
  {
    slug: 'external',
    name: 'External',
    family: 'company',
    // An outside party (auditor, partner insurer): read-only access to insureds and the products they hold.
    permissions: [
      'read_insured',
      'read_client',
      'read_campus',
      'read_product',
      'read_partner_applicants',
      ...POLICY_READ,
      'read_applicant',
    ],
  },
  {
    slug: 'school_master_user',
    name: 'School Master User',
    family: 'school',
    permissions: [
      ...without(group('insured'), 'allow_past_start_date'),
      ...group('message', 'school_profile', 'school_user', 'policy'),
      'read_campus',
      'update_campus',
      'read_contract',
      'read_billing',
      'read_invoice',
      'read_document',
      'read_daily_summary_report',
      'read_verification_report',
      'read_applicant',
      'read_audit_trail',
    ],
  },
  {
    slug: 'school_admin',
    name: 'School Admin',
    family: 'school',
    permissions: [
      ...without(group('insured'), 'allow_past_start_date'),
      ...group('message', 'policy'),
      'read_school_profile',
      'read_school_user',
      'read_campus',
      'read_contract',
      'read_billing',
      'read_invoice',
      'read_document',
      'read_daily_summary_report',
      'read_applicant',
    ],
  },
  {
    slug: 'school_employee',
    name: 'School Employee',
    family: 'school',
    permissions: [
      'read_insured',
      'create_insured',
      'update_insured',
      ...group('message'),
      'read_school_profile',
      'read_campus',
      'read_document',
      'create_policy',
      'update_policy',
      ...POLICY_READ,
      'read_applicant',
    ],
  },
  {
    slug: 'student_user',
    name: 'Student User',
    family: 'student',
    permissions: [...group('student_profile', 'message'), 'read_document', ...POLICY_READ],
  },
];
