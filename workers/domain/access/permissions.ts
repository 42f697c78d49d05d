/**
 * Every permission of the portal, in one place, grouped as the specification groups them
 * (spec 000 section 6, 002 section 6). Roles hold permissions in D1; this list seeds them.
 */
export const PERMISSION_GROUPS = {
  insured: ['read_insured', 'create_insured', 'update_insured', 'delete_insured', 'allow_past_start_date'],
  client: ['read_client', 'create_client', 'update_client', 'archive_client', 'delete_client'],
  campus: ['read_campus', 'create_campus', 'update_campus', 'archive_campus'],
  contract: ['read_contract', 'create_contract', 'update_contract', 'archive_contract'],
  service_agreement: [
    'read_service_agreement',
    'create_service_agreement',
    'update_service_agreement',
    'delete_service_agreement',
  ],
  billing: ['read_billing', 'create_billing', 'update_billing'],
  client_billing: ['read_client_billing', 'update_client_billing'],
  invoice: ['read_invoice', 'create_invoice', 'update_invoice', 'delete_invoice'],
  product: ['read_product', 'create_product', 'update_product', 'archive_product'],
  product_group: [
    'read_product_group',
    'create_product_group',
    'update_product_group',
    'delete_product_group',
  ],
  company: ['read_company', 'create_company', 'update_company', 'archive_company'],
  insurer: ['read_insurer', 'create_insurer', 'update_insurer', 'delete_insurer'],
  notice: ['read_notice', 'create_notice', 'update_notice', 'archive_notice'],
  partner_applicants: ['read_partner_applicants', 'update_partner_applicants'],
  country: ['read_country', 'create_country', 'update_country', 'archive_country'],
  message: ['read_message', 'create_message', 'reply_message'],
  client_log: ['read_client_log'],
  user: ['read_user', 'create_user', 'update_user', 'archive_user', 'delete_user'],
  user_privilege: ['read_user_privilege', 'create_user_privilege', 'update_user_privilege'],
  client_user: ['read_client_user', 'create_client_user', 'update_client_user', 'archive_client_user'],
  document: ['read_document', 'create_document', 'delete_document'],
  reports: [
    'read_monthly_policy_report',
    'read_account_summary_report',
    'read_account_statement_report',
    'read_collection_detail_report',
    'read_mi_admin_report',
    'read_daily_summary_report',
    'read_verification_report',
  ],
  school_profile: ['read_school_profile', 'update_school_profile'],
  school_user: [
    'read_school_user',
    'create_school_user',
    'update_school_user',
    'activate_school_user',
    'archive_school_user',
  ],
  student_profile: ['read_student_profile', 'update_student_profile'],
  policy: [
    'create_policy',
    'read_policy',
    'update_policy',
    'read_active_policy',
    'read_past_policy',
    'read_cancelled_policy',
    'download_policy_document',
  ],
  applicants: ['read_applicant'],
  // Not in the spec's list: who may search every change (the audit trail; docs/decisions/roles-and-users.md "Roles").
  audit_trail: ['read_audit_trail'],
} as const;

export type PermissionGroup = keyof typeof PERMISSION_GROUPS;
export type Permission = (typeof PERMISSION_GROUPS)[PermissionGroup][number];

export const ALL_PERMISSIONS: readonly Permission[] = Object.values(PERMISSION_GROUPS).flat();

export function isPermission(name: string): name is Permission {
  return (ALL_PERMISSIONS as readonly string[]).includes(name);
}

export function groupOf(permission: Permission): PermissionGroup {
  for (const [group, names] of Object.entries(PERMISSION_GROUPS)) {
    if ((names as readonly string[]).includes(permission)) return group as PermissionGroup;
  }
  throw new Error(`Unknown permission ${permission}`);
}
