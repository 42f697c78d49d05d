/**
 * Client (school) inputs (spec 001 s.3 Client, s.4 client states, s.5 rules). Pure zod: the client forms
 * and the API use these very objects. The value lists come from drizzle/enums.ts (the columns' own lists),
 * which imports nothing of drizzle, so the browser does not load the database schema.
 */
import { z } from 'zod';
import {
  CLIENT_STATUSES,
  CLIENT_TYPES,
  INVOICE_RULES,
  LANGUAGES as CLIENT_LANGUAGES,
  PAYMENT_FREQUENCIES,
  PAYMENT_METHODS,
  PAYMENT_TERMS,
} from '../../../drizzle/enums';
import { addressSchemas, contactsSchema } from '../contacts/schema';
import { listQuerySchema } from '../list-query';
import { entityName, isoDate, msg, optional, url } from '../validation';

export {
  CLIENT_TYPES,
  CLIENT_STATUSES,
  PAYMENT_TERMS,
  PAYMENT_METHODS,
  PAYMENT_FREQUENCIES,
  INVOICE_RULES,
  CLIENT_LANGUAGES,
};

export type ClientType = (typeof CLIENT_TYPES)[number];
export type ClientStatus = (typeof CLIENT_STATUSES)[number];

import { CLIENT_TAB_NAMES, type ClientTab } from './values';

export {
  CLIENT_TABS,
  CLIENT_TAB_NAMES,
  FACT_FIND_QUESTIONS,
  tabOfStatus,
  type ClientTab,
  type FactFindKey,
} from './values';
import { FACT_FIND_QUESTIONS } from './values';

const textMax = (max: number) => optional(z.string().max(max, msg('validation.max', { length: max })));
const choiceOf = <T extends readonly [string, ...string[]]>(values: T) =>
  optional(z.enum(values, { errorMap: () => ({ message: msg('clients.errors.choose_option') }) }));

export const factFindSchema = z.object({
  international_students_per_year: optional(
    z.preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z
        .string()
        .regex(/^\d{1,7}$/, msg('validation.digits'))
        .transform((v) => String(Number(v))),
    ),
  ),
  typical_trip_length: choiceOf(FACT_FIND_QUESTIONS[1].options),
  countries_of_origin: textMax(500),
  current_insurer: textMax(100),
  renewal_month: choiceOf(FACT_FIND_QUESTIONS[4].options),
  group_trips_abroad: choiceOf(FACT_FIND_QUESTIONS[5].options),
  additional_requirements: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .max(1000, msg('validation.max', { length: 1000 }))
      .optional(),
  ),
});
export type FactFindInput = z.infer<typeof factFindSchema>;

const phoneFields = {
  phone_country: optional(z.string().regex(/^[A-Za-z]{2}$/, msg('validation.phone_country'))),
  phone_number: optional(
    z.preprocess(
      (v) => (typeof v === 'string' ? v.replace(/[\s()-]/g, '') : v),
      z.string().regex(/^\d{3,18}$/, msg('validation.phone_number')),
    ),
  ),
};

function phonePairRule(d: { phone_country?: string; phone_number?: string }, ctx: z.RefinementCtx) {
  if (d.phone_number && !d.phone_country)
    ctx.addIssue({ code: 'custom', path: ['phone_country'], message: msg('validation.required') });
  if (d.phone_country && !d.phone_number)
    ctx.addIssue({ code: 'custom', path: ['phone_number'], message: msg('validation.required') });
}

const enumOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { errorMap: () => ({ message: msg('clients.errors.choose_option') }) });

/** The profile fields of a client. */
export const clientProfileShape = {
  name: entityName,
  type: enumOf(CLIENT_TYPES),
  website: optional(url),
  description: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : v.trim()) : v),
    z
      .string()
      .max(2000, msg('validation.max', { length: 2000 }))
      .optional(),
  ),
  ...phoneFields,
  preferred_lang: enumOf(CLIENT_LANGUAGES).default('en'),
  /** The public id of a company user with the account manager role; empty for none. */
  account_manager_id: optional(z.string().max(40)),
  /**
   * Daily expiry reminders to the initial contact (default on). A form sends it as a checkbox after a
   * hidden "false", so an unticked box still says no: the last value sent wins.
   */
  expiry_reminders: z
    .preprocess(
      (value) => {
        const v = Array.isArray(value) ? value[value.length - 1] : value;
        return v === true || v === 'on' || v === 'true' ? true : v === false || v === 'false' ? false : v;
      },
      z.boolean({ invalid_type_error: msg('clients.errors.choose_option') }),
    )
    .default(true),
};

/** Tax or VAT number: letters and digits with spaces, dots, hyphens or slashes, 2 to 30 characters. */
export const taxNumber = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9 .\-/]{1,29}$/, msg('clients.errors.tax_number'));

/** The billing settings of a client (its billing tab). */
export const clientBillingShape = {
  /** The billing flag: whether the client's orders are invoiced (a yes/no choice in forms). */
  billing_enabled: z
    .preprocess(
      (v) => (v === true || v === 'on' || v === 'true' ? true : v === false || v === 'false' ? false : v),
      z.boolean({ invalid_type_error: msg('clients.errors.choose_option') }),
    )
    .default(true),
  payment_terms: enumOf(PAYMENT_TERMS).default('invoiced_directly'),
  payment_method: enumOf(PAYMENT_METHODS).default('bank_transfer'),
  payment_frequency: optional(enumOf(PAYMENT_FREQUENCIES)),
  invoice_rule: enumOf(INVOICE_RULES).default('by_location'),
  tax_number: optional(taxNumber),
  account_number_ap: textMax(50),
  account_number_ar: textMax(50),
};

export const clientProfileSchema = z.object(clientProfileShape).superRefine(phonePairRule);
export type ClientProfileInput = z.infer<typeof clientProfileSchema>;
export const clientBillingSchema = z.object(clientBillingShape);
export type ClientBillingInput = z.infer<typeof clientBillingSchema>;

/** Files a client keeps in R2 (multipart fields of clients/add and the profile form). */
export const CLIENT_FILE_FIELDS = ['logo', 'return_policy'] as const;
export type ClientFileKind = (typeof CLIENT_FILE_FIELDS)[number];

/**
 * POST clients/add (and /clients/new): profile, billing settings, contacts, addresses, fact-find.
 * `status` is active (the default, spec 001 s.9) or draft (saved to finish later). `company_id` is the
 * company's public id, needed only when the user looks at several companies ("all companies").
 */
export const clientCreateSchema = z
  .object({
    ...clientProfileShape,
    ...clientBillingShape,
    status: z.enum(['active', 'draft']).default('active'),
    company_id: optional(z.string().max(40)),
    contacts: contactsSchema.optional().default({}),
    billing_address: addressSchemas.billing,
    mailing_address: addressSchemas.mailing,
    fact_find: factFindSchema.optional(),
  })
  .superRefine(phonePairRule);
export type ClientCreateInput = z.infer<typeof clientCreateSchema>;

/**
 * PATCH clients/{id}/update: any of the sections; a field left out keeps its value. Contacts, when
 * given, replace every contact; an address given as null (or empty) removes it.
 */
export const clientUpdateSchema = z
  .object({
    ...clientProfileShape,
    ...clientBillingShape,
    contacts: contactsSchema,
    billing_address: z.union([z.null(), addressSchemas.billing]),
    mailing_address: z.union([z.null(), addressSchemas.mailing]),
    fact_find: factFindSchema,
  })
  .partial()
  .superRefine(phonePairRule);
export type ClientUpdateInput = z.infer<typeof clientUpdateSchema>;

/**
 * What a school user may change of its own client at /school/info (spec 002: name, description, website,
 * phone_number, preferred_lang, owner, secondary and accounting contacts).
 */
export const schoolClientSchema = z
  .object({
    name: clientProfileShape.name,
    description: clientProfileShape.description,
    website: clientProfileShape.website,
    ...phoneFields,
    preferred_lang: clientProfileShape.preferred_lang,
    contacts: contactsSchema.pick({ owner: true, secondary: true, accounting: true }).optional().default({}),
  })
  .superRefine(phonePairRule);
export type SchoolClientInput = z.infer<typeof schoolClientSchema>;

// ---------------------------------------------------------------- states and transitions (spec 001 s.4)

/** The actions on a client (single and bulk). */
export const CLIENT_ACTIONS = ['archive', 'reactivate', 'activate', 'delete', 'request_onboarding'] as const;
export type ClientAction = (typeof CLIENT_ACTIONS)[number];

/**
 * Which status a client may move to from which (the status-update call carries the target status; the
 * named actions are the common moves). Draft is only a starting state. Delete is not a status.
 */
export const CLIENT_TRANSITIONS: Record<ClientStatus, readonly ClientStatus[]> = {
  // target: allowed from
  active: [
    'archived',
    'suspended',
    'pending_onboarding',
    'draft',
    'waiting_sa',
    'waiting_for_approval',
    'declined',
  ],
  archived: [
    'active',
    'pending_onboarding',
    'draft',
    'waiting_sa',
    'waiting_for_approval',
    'declined',
    'suspended',
  ],
  pending_onboarding: ['draft', 'declined', 'archived'],
  waiting_sa: ['pending_onboarding', 'draft'],
  waiting_for_approval: ['waiting_sa', 'pending_onboarding'],
  declined: ['pending_onboarding', 'draft', 'waiting_sa', 'waiting_for_approval'],
  suspended: ['active'],
  draft: [],
};

/** The target and the statuses each named action applies to. */
export const CLIENT_ACTION_RULES: Record<
  Exclude<ClientAction, 'delete'>,
  { to: ClientStatus; from: readonly ClientStatus[] }
> = {
  archive: { to: 'archived', from: CLIENT_TRANSITIONS.archived },
  reactivate: { to: 'active', from: ['archived', 'suspended'] },
  activate: {
    to: 'active',
    from: ['pending_onboarding', 'draft', 'waiting_sa', 'waiting_for_approval', 'declined'],
  },
  request_onboarding: { to: 'pending_onboarding', from: CLIENT_TRANSITIONS.pending_onboarding },
};

/** True when a client in status `from` may move to `to`. */
export function canMoveClient(from: ClientStatus, to: ClientStatus): boolean {
  return CLIENT_TRANSITIONS[to].includes(from);
}

/** The profile tab's fact-find form, and its files form (the uploads ride along unparsed: the clients service checks their kind and size). */
export const clientFactFindFormSchema = z.object({ fact_find: factFindSchema });
export const clientFilesFormSchema = z.object({
  logo: z.unknown().optional(),
  return_policy: z.unknown().optional(),
});

/** The page header's status actions (archive, reactivate, activate, request onboarding, delete). */
export const clientActionSchema = z.object({
  action: z.enum(CLIENT_ACTIONS, { errorMap: () => ({ message: msg('clients.errors.action_invalid') }) }),
});

export const clientStatusSchema = z.object({
  status: z.enum(CLIENT_STATUSES, { errorMap: () => ({ message: msg('clients.errors.status_invalid') }) }),
});

/** A bulk action over ids (public) or "all matching" the list filters. */
export const clientBulkSchema = z.object({
  action: z.enum(CLIENT_ACTIONS, { errorMap: () => ({ message: msg('clients.errors.action_invalid') }) }),
  ids: z.array(z.string().min(1).max(40)).max(10_000).optional(),
  all_matching: z.boolean().optional(),
  filters: z.record(z.string()).optional(),
});
export type ClientBulkInput = z.infer<typeof clientBulkSchema>;

// ---------------------------------------------------------------- lists

const boolish = z.preprocess(
  (v) =>
    v === true || v === 'true' || v === '1' || v === 'on'
      ? true
      : v === undefined || v === ''
        ? undefined
        : false,
  z.boolean().optional(),
);

/** GET clients / clients/list and the /clients page: the tab, filters, paging and sorting. */
export const clientListQuerySchema = listQuerySchema.extend({
  tab: z
    .enum(CLIENT_TAB_NAMES as [ClientTab, ...ClientTab[]])
    .optional()
    .catch(undefined),
  status: z.enum(CLIENT_STATUSES).optional().catch(undefined),
  type: z.enum(CLIENT_TYPES).optional().catch(undefined),
  payment_terms: z.enum(PAYMENT_TERMS).optional().catch(undefined),
  /** A company user's public id: the clients that user manages. */
  account_manager: z.string().max(40).optional(),
  /** The catalogue's `account_manager_clients` option: only the caller's own clients. */
  account_manager_clients: boolish.catch(undefined),
  created_from: isoDate.optional().catch(undefined),
  created_to: isoDate.optional().catch(undefined),
});
export type ClientListQuery = z.infer<typeof clientListQuerySchema>;

export const CLIENT_SORTS = ['name', 'type', 'status', 'created_at', 'updated_at', 'campuses'] as const;
