/**
 * The side menu, exactly as spec 000 section 2 lists it, gated by the table of section 6.
 * `permission` is a guard expression (pipe-separated, any one suffices); no permission = every signed-in user.
 * Links whose page is not in BUILT_PAGES (not built yet) show disabled, as "coming soon".
 */
export interface MenuLink {
  key: string;
  to: string;
  permission?: string;
}
export interface MenuGroup {
  key: string;
  children: MenuLink[];
}
export type MenuEntry = MenuLink | MenuGroup;

export const REPORT_PATHS = {
  monthly: ['monthly-policy-report', 'invoice-list-by-date-report', 'payment-report'],
  admin: [
    'client-activity-report',
    'client-information-report',
    'insured-activity-report',
    'user-report',
    'client-token-report',
    'client-monitoring-report',
    'insured-report',
    'insured-information-report',
    'product-report',
    'product-performance-report',
    'source-destination-report',
  ],
  accountSummary: ['account-summary-report'],
  collection: ['collection-detail-report', 'account-statement-report', 'sales-comparision-report'],
} as const;

const reportLinks = (paths: readonly string[], permission: string): MenuLink[] =>
  paths.map((p) => ({ key: `reports.${p}`, to: `/reports/${p}`, permission }));

export const MENU: MenuEntry[] = [
  {
    key: 'insured',
    children: [
      { key: 'manage_policies', to: '/insureds', permission: 'read_insured' },
      { key: 'order_policies', to: '/insureds/order', permission: 'create_insured' },
    ],
  },
  { key: 'clients', to: '/clients', permission: 'read_client' },
  {
    key: 'accounting',
    children: [
      { key: 'billing', to: '/billing', permission: 'read_billing' },
      { key: 'invoices', to: '/invoices', permission: 'read_invoice' },
      { key: 'reconciliation', to: '/invoices/reconciliation', permission: 'update_billing' },
    ],
  },
  { key: 'message_centre', to: '/message-centre', permission: 'read_message' },
  { key: 'notifications', to: '/notifications' },
  {
    key: 'configurations',
    children: [
      { key: 'products', to: '/products', permission: 'read_product' },
      { key: 'companies', to: '/manage-company', permission: 'read_company' },
      { key: 'insurers', to: '/manage-insurers', permission: 'read_insurer' },
      { key: 'countries', to: '/manage-countries', permission: 'read_country' },
      { key: 'notices', to: '/notices', permission: 'read_notice' },
      { key: 'partner_applicants', to: '/insured-applicants', permission: 'read_partner_applicants' },
    ],
  },
  {
    key: 'users',
    children: [
      { key: 'users_list', to: '/manage-users', permission: 'read_user|read_client_user|read_school_user' },
      { key: 'user_privileges', to: '/user-privileges', permission: 'read_user_privilege' },
      { key: 'audit_trail', to: '/audit-trail', permission: 'read_audit_trail' },
      { key: 'api_keys', to: '/api-keys', permission: 'update_user|update_school_user' },
    ],
  },
  {
    key: 'reports_group',
    children: [
      ...reportLinks(REPORT_PATHS.monthly, 'read_monthly_policy_report'),
      ...reportLinks(REPORT_PATHS.accountSummary, 'read_account_summary_report'),
      ...reportLinks(REPORT_PATHS.collection, 'read_collection_detail_report'),
      {
        key: 'reports.daily-summary-report',
        to: '/reports/daily-summary-report',
        permission: 'read_daily_summary_report',
      },
      {
        key: 'reports.verification-report',
        to: '/reports/verification-report',
        permission: 'read_verification_report',
      },
      ...reportLinks(REPORT_PATHS.admin, 'read_monthly_policy_report'),
    ],
  },
  {
    key: 'admin_reports',
    children: [
      {
        key: 'reports.mi-admin-report',
        to: '/admin-reports/mi-admin-report',
        permission: 'read_mi_admin_report',
      },
    ],
  },
  {
    key: 'executive_reports',
    children: [
      'account-managers-report',
      'client-commission-performance-report',
      'custom-sales-price-report',
      'enrolment-user-activity-report',
      'mi-report',
      'product-commission-performance-report',
      'sales-comparision-report',
    ].map((p) => ({
      key: `executive.${p}`,
      to: `/executive-reports/${p}`,
      permission: 'read_mi_admin_report',
    })),
  },
];

export function isGroup(entry: MenuEntry): entry is MenuGroup {
  return 'children' in entry;
}

function allowed(link: MenuLink, permissions: ReadonlySet<string>) {
  return !link.permission || link.permission.split('|').some((p) => permissions.has(p));
}

/** The menu a user sees: links they may open, groups with at least one such link. */
export function visibleMenu(permissions: Iterable<string>): MenuEntry[] {
  const held = new Set(permissions);
  const out: MenuEntry[] = [];
  for (const entry of MENU) {
    if (isGroup(entry)) {
      const children = entry.children.filter((c) => allowed(c, held));
      if (children.length) out.push({ ...entry, children });
    } else if (allowed(entry, held)) out.push(entry);
  }
  return out;
}

/**
 * The one menu link a page belongs to: the link to the page itself, or else the most specific link whose
 * address holds it (/invoices/reconciliation/3 belongs to Bank reconciliation, not to Invoices, though
 * both addresses hold it). Null when no link does.
 */
export function activeMenuLink(path: string, menu: MenuEntry[]): string | null {
  let best: string | null = null;
  for (const entry of menu) {
    for (const link of isGroup(entry) ? entry.children : [entry]) {
      const holds = path === link.to || path.startsWith(`${link.to}/`);
      if (holds && (best === null || link.to.length > best.length)) best = link.to;
    }
  }
  return best;
}

/** Header gating (spec 000 s.6): the cart icon needs read_insured, the mail icon read_message. */
export function headerIcons(permissions: Iterable<string>) {
  const held = new Set(permissions);
  return { cart: held.has('read_insured'), mail: held.has('read_message') };
}

export const APP_VERSION = 'V-1.0.0';

/**
 * Pages that exist in this build. Menu links to other paths show as "coming soon", and /home shows the
 * home overview instead of redirecting to a landing page that has not shipped. Each issue adds its pages.
 */
export const BUILT_PAGES = new Set<string>([
  '/notifications',
  '/notices',
  '/message-centre',
  '/products',
  '/manage-countries',
  '/manage-insurers',
  '/manage-company',
  '/clients',
  '/school/info',
  '/insureds',
  '/insureds/order',
  '/billing',
  '/invoices',
  '/invoices/reconciliation',
  '/user-privileges',
  '/audit-trail',
  '/manage-users',
  '/api-keys',
  '/documents',
  '/insured-applicants',
]);
