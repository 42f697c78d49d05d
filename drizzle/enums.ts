/**
 * The value lists of the schema's enum columns, `as const`: the one source for the tables
 * (`text({ enum })`) and for the zod schemas of workers/domain, which the browser bundles. Keep this
 * module free of imports other than ./schema/ordering-enums (the ordering tables' lists), so drizzle never
 * reaches the browser through it.
 */

export const LANGUAGES = ['en', 'ca', 'cn', 'de', 'es', 'fr', 'it', 'pt'] as const;
export const RECORD_STATUSES = ['active', 'archived'] as const;
export const USER_TYPES = ['company', 'school', 'student'] as const;
export const ROLE_FAMILIES = USER_TYPES;
export const USER_STATUSES = ['active', 'invited', 'archived', 'declined', 'pending'] as const;
/** The user type the users screens set (spec 001 s.3 school user: admin or employee). */
export const USER_MEMBER_TYPES = ['admin', 'employee'] as const;
export const LANDING_PAGES = ['dashboard', 'insureds', 'clients', 'products'] as const;
export const CLIENT_TYPES = ['school', 'agency', 'guardianship', 'other'] as const;
export const CLIENT_STATUSES = [
  'active',
  'archived',
  'pending_onboarding',
  'draft',
  'waiting_sa',
  'waiting_for_approval',
  'declined',
  'suspended',
] as const;
export const SESSION_KINDS = ['web', 'api'] as const;
export const SESSION_STAGES = ['pin', 'active'] as const;
export const PIN_PURPOSES = ['login', 'verify_email', 'verify_phone', 'reset_email', 'reset_phone'] as const;
export const PIN_CHANNELS = ['email', 'phone'] as const;
/**
 * What happened to a one-time PIN (the MFA activity): sent, verified, a wrong PIN entered, a PIN tried
 * after it expired, and the wrong try that used up its attempts.
 */
export const MFA_EVENTS = ['sent', 'verified', 'failed', 'expired', 'locked'] as const;
export const OUTBOX_CHANNELS = ['email', 'sms'] as const;
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed'] as const;
export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export const PAYMENT_TERMS = [
  'invoiced_directly',
  'weekly',
  'bi_weekly',
  'semi_monthly',
  'monthly',
  'pay_later',
  'cod',
] as const;
export const PAYMENT_METHODS = [
  'credit_card',
  'bank_transfer',
  'applied_balance',
  'no_charge',
  'paypal',
] as const;
export const PAYMENT_FREQUENCIES = [
  'weekly',
  'bi_weekly',
  'semi_monthly',
  'monthly',
  'pay_later',
  'cod',
] as const;
export const INVOICE_RULES = ['by_location', 'by_group', 'invoice_campus_directly'] as const;
export const OWNER_TYPES = ['company', 'client', 'campus'] as const;
export const CONTACT_TYPES = ['initial', 'owner', 'secondary', 'accounting', 'custom'] as const;
export const ADDRESS_KINDS = ['billing', 'mailing'] as const;
export const TERRITORIAL_LIMITS = ['domestic', 'international', 'business_trip'] as const;
export const DOCUMENT_VISIBILITIES = ['public', 'clients', 'internal'] as const;
export const NOTE_OWNER_TYPES = ['client', 'campus', 'policy'] as const;
export const NOTE_SOURCES = [
  'email',
  'call',
  'policy_holder',
  'third_party',
  'other',
  'message_centre',
  'chat',
] as const;
export const NOTE_TYPES = ['admin_note', 'communication'] as const;
export const SERVICE_AGREEMENT_STATUSES = ['pending', 'active', 'inactive'] as const;

export * from './schema/ordering-enums';

/** Continents of a country (its region code). */
export const REGION_CODES = ['AS', 'EU', 'AF', 'OC', 'NA', 'SA', 'AN'] as const;
