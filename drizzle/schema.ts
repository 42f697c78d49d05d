/**
 * The one schema of the portal. Tables are grouped by area; relations are at the end.
 * Conventions: integer primary keys; `public_id` is the short opaque id shown in URLs and the API;
 * money as integer minor units + ISO currency; dates as YYYY-MM-DD text; timestamps as UTC epoch ms.
 */
import { relations, sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

import {
  CLIENT_STATUSES,
  CLIENT_TYPES,
  INVOICE_RULES,
  JOB_STATUSES,
  LANDING_PAGES,
  LANGUAGES,
  MFA_EVENTS,
  OUTBOX_CHANNELS,
  OUTBOX_STATUSES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
  PIN_CHANNELS,
  PIN_PURPOSES,
  RECORD_STATUSES,
  ROLE_FAMILIES,
  SESSION_KINDS,
  SESSION_STAGES,
  USER_MEMBER_TYPES,
  USER_STATUSES,
  USER_TYPES,
} from './enums';
import { timestamps } from './schema/columns';

export * from './enums';

// ---------------------------------------------------------------- reference data

export const countries = sqliteTable(
  'countries',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    abbreviation: text('abbreviation').notNull(),
    code: text('code').notNull(),
    dial_code: text('dial_code'),
    capital: text('capital'),
    region_code: text('region_code'),
    currency_code: text('currency_code'),
    currency_name: text('currency_name'),
    currency_symbol: text('currency_symbol'),
    language: text('language'),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    /** Insured age limits in years for travel to this country (null = no limit). */
    age_min: integer('age_min'),
    age_max: integer('age_max'),
    travel_restriction_notes: text('travel_restriction_notes'),
    stamp_duty_applicable: integer('stamp_duty_applicable', { mode: 'boolean' }).notNull().default(false),
    requires_passport_number: integer('requires_passport_number', { mode: 'boolean' })
      .notNull()
      .default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('countries_abbreviation_uq').on(t.abbreviation),
    index('countries_name_idx').on(t.name),
    index('countries_status_idx').on(t.status, t.region_code, t.name),
  ],
);

export const companies = sqliteTable(
  'companies',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    name: text('name').notNull(),
    country_id: integer('country_id').references(() => countries.id),
    currency: text('currency').notNull().default('GBP'),
    preferred_lang: text('preferred_lang', { enum: LANGUAGES }).notNull().default('en'),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    registration_number: text('registration_number'),
    bank_name: text('bank_name'),
    bic: text('bic'),
    iban: text('iban'),
    branch_code: text('branch_code'),
    account_number: text('account_number'),
    payment_gateway: text('payment_gateway'),
    order_status_default: text('order_status_default'),
    failed_order_status: text('failed_order_status'),
    change_status_after: integer('change_status_after'),
    cookie_policy: text('cookie_policy'),
    footer_information: text('footer_information'),
    terms: text('terms'),
    quickbooks_company_id: text('quickbooks_company_id'),
    quickbooks_refresh_token: text('quickbooks_refresh_token'),
    /** Overdue reminders: days after the due date on which the accounting contact is emailed (0009). */
    overdue_reminder_days: text('overdue_reminder_days', { mode: 'json' })
      .$type<number[]>()
      .notNull()
      .default(sql`'[1,7,14]'`),
    ...timestamps,
  },
  (t) => [uniqueIndex('companies_public_id_uq').on(t.public_id), index('companies_name_idx').on(t.name)],
);

export const clients = sqliteTable(
  'clients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    type: text('type', { enum: CLIENT_TYPES }).notNull().default('school'),
    status: text('status', { enum: CLIENT_STATUSES }).notNull().default('active'),
    account_manager_id: integer('account_manager_id'),
    quickbooks_id: text('quickbooks_id'),
    website: text('website'),
    description: text('description'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    preferred_lang: text('preferred_lang', { enum: LANGUAGES }).notNull().default('en'),
    logo_key: text('logo_key'),
    return_policy_key: text('return_policy_key'),
    billing_enabled: integer('billing_enabled', { mode: 'boolean' }).notNull().default(true),
    account_number_ap: text('account_number_ap'),
    account_number_ar: text('account_number_ar'),
    payment_terms: text('payment_terms', { enum: PAYMENT_TERMS }).notNull().default('invoiced_directly'),
    payment_method: text('payment_method', { enum: PAYMENT_METHODS }).notNull().default('bank_transfer'),
    payment_frequency: text('payment_frequency', { enum: PAYMENT_FREQUENCIES }),
    invoice_rule: text('invoice_rule', { enum: INVOICE_RULES }).notNull().default('by_location'),
    tax_number: text('tax_number'),
    fact_find: text('fact_find', { mode: 'json' }).$type<Record<string, string> | null>(),
    metadata: text('metadata', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    /** Tell the initial contact about policies ending in the next 14 days (daily). */
    expiry_reminders: integer('expiry_reminders', { mode: 'boolean' }).notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('clients_public_id_uq').on(t.public_id),
    index('clients_company_idx').on(t.company_id, t.status, t.name),
    index('clients_account_manager_idx').on(t.account_manager_id),
  ],
);

export const campuses = sqliteTable(
  'campuses',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    country_id: integer('country_id').references(() => countries.id),
    name: text('name').notNull(),
    /** A short code of the campus (its initials), shown beside the name. */
    initial: text('initial'),
    description: text('description'),
    quickbooks_id: text('quickbooks_id'),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    website: text('website'),
    preferred_lang: text('preferred_lang', { enum: LANGUAGES }).notNull().default('en'),
    account_manager_id: integer('account_manager_id').references(() => users.id),
    account_number_ap: text('account_number_ap'),
    account_number_ar: text('account_number_ar'),
    payment_terms: text('payment_terms', { enum: PAYMENT_TERMS }),
    pay_with_bank_transfer: integer('pay_with_bank_transfer', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('campuses_public_id_uq').on(t.public_id),
    index('campuses_client_idx').on(t.client_id, t.name),
    index('campuses_client_status_idx').on(t.client_id, t.status, t.name),
  ],
);

// ---------------------------------------------------------------- users, roles, permissions

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    email: text('email').notNull(),
    password_hash: text('password_hash'),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    phone_country: text('phone_country'),
    phone_number: text('phone_number'),
    user_type: text('user_type', { enum: USER_TYPES }).notNull(),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    suspended: integer('suspended', { mode: 'boolean' }).notNull().default(false),
    client_id: integer('client_id').references(() => clients.id),
    can_access_all_campuses: integer('can_access_all_campuses', { mode: 'boolean' }).notNull().default(false),
    is_master_user: integer('is_master_user', { mode: 'boolean' }).notNull().default(false),
    job_title: text('job_title'),
    department: text('department'),
    /** The user type of the users screens: admin or employee (docs/decisions/roles-and-users.md, "Users"). */
    member_type: text('member_type', { enum: USER_MEMBER_TYPES }),
    landing_page: text('landing_page', { enum: LANDING_PAGES }).notNull().default('insureds'),
    preferred_lang: text('preferred_lang', { enum: LANGUAGES }).notNull().default('en'),
    selected_company_id: integer('selected_company_id'),
    /** Email me when the other side writes in the message centre (account details; on by default). */
    message_emails: integer('message_emails', { mode: 'boolean' }).notNull().default(true),
    /** The user also has an account in the other region and may be handed over to it. */
    other_region_access: integer('other_region_access', { mode: 'boolean' }).notNull().default(false),
    email_verified_at: integer('email_verified_at', { mode: 'timestamp_ms' }),
    phone_verified_at: integer('phone_verified_at', { mode: 'timestamp_ms' }),
    password_changed_at: integer('password_changed_at', { mode: 'timestamp_ms' }),
    last_login_at: integer('last_login_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    uniqueIndex('users_public_id_uq').on(t.public_id),
    index('users_client_idx').on(t.client_id),
    index('users_type_status_idx').on(t.user_type, t.status),
  ],
);

export const userCompanies = sqliteTable(
  'user_companies',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.company_id] }),
    index('user_companies_company_idx').on(t.company_id),
  ],
);

export const userCampuses = sqliteTable(
  'user_campuses',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    campus_id: integer('campus_id')
      .notNull()
      .references(() => campuses.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.campus_id] }),
    index('user_campuses_campus_idx').on(t.campus_id),
  ],
);

export const permissions = sqliteTable(
  'permissions',
  {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    group: text('group').notNull(),
  },
  (t) => [uniqueIndex('permissions_name_uq').on(t.name)],
);

export const roles = sqliteTable(
  'roles',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    family: text('family', { enum: ROLE_FAMILIES }).notNull(),
    company_id: integer('company_id').references(() => companies.id),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_family_slug_uq').on(t.family, t.slug)],
);

export const rolePermissions = sqliteTable(
  'role_permissions',
  {
    role_id: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permission_id: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.role_id, t.permission_id] })],
);

export const userRoles = sqliteTable(
  'user_roles',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role_id: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.role_id] }), index('user_roles_role_idx').on(t.role_id)],
);

// ---------------------------------------------------------------- sign-in and sessions

export const sessions = sqliteTable(
  'sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token_hash: text('token_hash').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SESSION_KINDS }).notNull(),
    stage: text('stage', { enum: SESSION_STAGES }).notNull(),
    selected_company_id: integer('selected_company_id'),
    /** Set when the session came from the other region's hand-over: the user may go back. */
    holds_other_region_token: integer('holds_other_region_token', { mode: 'boolean' })
      .notNull()
      .default(false),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    last_seen_at: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    // ---- support view (workers/domain/auth/support.ts): a session of the viewed user, opened by a senior
    // admin (support_admin_id) from their own session (parent_session_id), and ended with it. No foreign
    // keys: SQLite cannot add ON DELETE CASCADE to an existing table, so sessions.ts ends them itself.
    support_admin_id: integer('support_admin_id'),
    parent_session_id: integer('parent_session_id'),
    // ---- end support view
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.token_hash),
    index('sessions_user_idx').on(t.user_id),
    index('sessions_parent_idx').on(t.parent_session_id),
  ],
);

export const oneTimePins = sqliteTable(
  'one_time_pins',
  {
    id: integer('id').primaryKey(),
    user_id: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: PIN_PURPOSES }).notNull(),
    channel: text('channel', { enum: PIN_CHANNELS }).notNull(),
    target: text('target').notNull(),
    pin_hash: text('pin_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    used_at: integer('used_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('one_time_pins_target_idx').on(t.purpose, t.target, t.created_at)],
);

/**
 * The MFA activity of a user: each one-time PIN sent to them and each try at it, with where the request
 * came from. Written in the same batch as the PIN change it records (workers/domain/auth/pins.ts); read by
 * a client's MFA activity (workers/domain/clients/mfa-activities.ts).
 */
export const mfaEvents = sqliteTable(
  'mfa_events',
  {
    id: integer('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    event: text('event', { enum: MFA_EVENTS }).notNull(),
    purpose: text('purpose', { enum: PIN_PURPOSES }).notNull(),
    channel: text('channel', { enum: PIN_CHANNELS }).notNull(),
    ip: text('ip'),
    user_agent: text('user_agent'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('mfa_events_user_idx').on(t.user_id, t.created_at)],
);

export const rateLimits = sqliteTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  window_start: integer('window_start', { mode: 'timestamp_ms' }).notNull(),
});

export const usedHandoverTokens = sqliteTable('used_handover_tokens', {
  jti: text('jti').primaryKey(),
  expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
});

export const invitations = sqliteTable(
  'invitations',
  {
    id: integer('id').primaryKey(),
    token_hash: text('token_hash').notNull(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invited_by: integer('invited_by').references(() => users.id),
    expires_at: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    accepted_at: integer('accepted_at', { mode: 'timestamp_ms' }),
    /** Set when the invitation was revoked, or replaced by a resent one: its link then says so. */
    revoked_at: integer('revoked_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_uq').on(t.token_hash),
    index('invitations_user_idx').on(t.user_id),
  ],
);

export const contactMessages = sqliteTable('contact_messages', {
  id: integer('id').primaryKey(),
  first_name: text('first_name').notNull(),
  last_name: text('last_name').notNull(),
  email: text('email').notNull(),
  reason: text('reason').notNull(),
  ip: text('ip'),
  created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
});

// ---------------------------------------------------------------- platform: audit, outbox, jobs, notifications

export const activityLogs = sqliteTable(
  'activity_logs',
  {
    id: integer('id').primaryKey(),
    actor_user_id: integer('actor_user_id'),
    /** Set in the support view: the user the actor (a senior admin) acted as. */
    on_behalf_of_user_id: integer('on_behalf_of_user_id'),
    entity_type: text('entity_type').notNull(),
    entity_id: integer('entity_id').notNull(),
    /** What the entity was called when the row was written (audit/activity-log.ts entityLabel). */
    entity_label: text('entity_label'),
    action: text('action').notNull(),
    before: text('before', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    after: text('after', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    company_id: integer('company_id'),
    client_id: integer('client_id'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    index('activity_logs_entity_idx').on(t.entity_type, t.entity_id, t.created_at),
    index('activity_logs_actor_idx').on(t.actor_user_id, t.created_at),
    // The audit trail's searches (roles branch): newest first, by tenant, by action.
    index('activity_logs_created_idx').on(t.created_at),
    index('activity_logs_company_idx').on(t.company_id, t.created_at),
    index('activity_logs_client_idx').on(t.client_id, t.created_at),
    index('activity_logs_action_idx').on(t.action, t.created_at),
  ],
);

export const outbox = sqliteTable(
  'outbox',
  {
    id: integer('id').primaryKey(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body_text: text('body_text').notNull(),
    body_html: text('body_html'),
    template: text('template').notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    last_error: text('last_error'),
    /** Set while a consumer delivers it, so two deliveries of the same queue message cannot both send. */
    claimed_at: integer('claimed_at', { mode: 'timestamp_ms' }),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    sent_at: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('outbox_status_idx').on(t.status, t.created_at),
    index('outbox_recipient_idx').on(t.recipient),
  ],
);

export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    type: text('type').notNull(),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    error_count: integer('error_count').notNull().default(0),
    message: text('message'),
    payload: text('payload', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    result: text('result', { mode: 'json' }).$type<Record<string, unknown> | null>(),
    created_by: integer('created_by').references(() => users.id),
    company_id: integer('company_id'),
    client_id: integer('client_id'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updated_at: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    finished_at: integer('finished_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('jobs_public_id_uq').on(t.public_id),
    index('jobs_created_by_idx').on(t.created_by, t.created_at),
  ],
);

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** What happened, as a message key the reader's language renders (`notifications.events.<key>`). */
    message_key: text('message_key'),
    /** The key's parameters (JSON): names, numbers, amounts in minor units with their currency. */
    params: text('params', { mode: 'json' }).$type<Record<string, string | number>>(),
    /** Text of notifications written before they carried a key; shown as written. */
    title: text('title'),
    description: text('description'),
    to: text('to'),
    read_at: integer('read_at', { mode: 'timestamp_ms' }),
    client_id: integer('client_id'),
    campus_id: integer('campus_id'),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.user_id, t.created_at)],
);

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export * from './schema/configuration';
export * from './schema/ordering';
export * from './schema/policies';
export * from './schema/billing';
export * from './schema/partners';
export * from './schema/billing-totals';
export * from './schema/idempotency';
export * from './schema/notices';
export * from './schema/messages';
export * from './schema/applicants';

// ---------------------------------------------------------------- relations

export const usersRelations = relations(users, ({ many, one }) => ({
  companies: many(userCompanies),
  campuses: many(userCampuses),
  roles: many(userRoles),
  client: one(clients, { fields: [users.client_id], references: [clients.id] }),
}));

export const userCompaniesRelations = relations(userCompanies, ({ one }) => ({
  user: one(users, { fields: [userCompanies.user_id], references: [users.id] }),
  company: one(companies, { fields: [userCompanies.company_id], references: [companies.id] }),
}));

export const userCampusesRelations = relations(userCampuses, ({ one }) => ({
  user: one(users, { fields: [userCampuses.user_id], references: [users.id] }),
  campus: one(campuses, { fields: [userCampuses.campus_id], references: [campuses.id] }),
}));

export const userRolesRelations = relations(userRoles, ({ one }) => ({
  user: one(users, { fields: [userRoles.user_id], references: [users.id] }),
  role: one(roles, { fields: [userRoles.role_id], references: [roles.id] }),
}));

export const rolesRelations = relations(roles, ({ many }) => ({
  permissions: many(rolePermissions),
  users: many(userRoles),
}));

export const rolePermissionsRelations = relations(rolePermissions, ({ one }) => ({
  role: one(roles, { fields: [rolePermissions.role_id], references: [roles.id] }),
  permission: one(permissions, { fields: [rolePermissions.permission_id], references: [permissions.id] }),
}));

export const companiesRelations = relations(companies, ({ one, many }) => ({
  country: one(countries, { fields: [companies.country_id], references: [countries.id] }),
  clients: many(clients),
}));

export const clientsRelations = relations(clients, ({ one, many }) => ({
  company: one(companies, { fields: [clients.company_id], references: [companies.id] }),
  campuses: many(campuses),
}));

export const campusesRelations = relations(campuses, ({ one }) => ({
  client: one(clients, { fields: [campuses.client_id], references: [clients.id] }),
  country: one(countries, { fields: [campuses.country_id], references: [countries.id] }),
}));
