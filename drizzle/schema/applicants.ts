/**
 * Partner applicants (spec 000 s.2 `/insured-applicants`, "applicants of a health-insurance partner";
 * 001 s.6 "ASISA management"): people the health-insurance partner refers to the insurer for student
 * cover. The partner sends each one with an API key of the insurer's company (`POST insured-applicants`),
 * naming it by its own reference; sending the same reference again updates the row. An applicant awaits
 * a policy (`pending`) until one of the company's policies is found for the same person and trip start,
 * then carries it (`enrolled`, `policy_id`).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { apiKeys, companies, policies } from '../schema';
import { PARTNER_APPLICANT_STATUSES } from './applicants-enums';

export * from './applicants-enums';

export const partnerApplicants = sqliteTable(
  'partner_applicants',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** The partner's own reference of the applicant: one row per reference and company. */
    partner_reference: text('partner_reference').notNull(),
    first_name: text('first_name').notNull(),
    last_name: text('last_name').notNull(),
    date_of_birth: text('date_of_birth').notNull(),
    email: text('email'),
    /** ISO 3166-1 alpha-2 code of the applicant's nationality, as the partner gives it. */
    nationality: text('nationality'),
    /** The school the applicant is going to, as the partner names it. */
    school_name: text('school_name'),
    /** The cover asked for, YYYY-MM-DD. */
    start_date: text('start_date').notNull(),
    end_date: text('end_date').notNull(),
    status: text('status', { enum: PARTNER_APPLICANT_STATUSES }).notNull().default('pending'),
    policy_id: integer('policy_id').references(() => policies.id),
    /** The API key the partner sent it with (null for rows made otherwise, such as the demo's). */
    api_key_id: integer('api_key_id').references(() => apiKeys.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('partner_applicants_public_id_uq').on(t.public_id),
    uniqueIndex('partner_applicants_reference_uq').on(t.company_id, t.partner_reference),
    index('partner_applicants_company_idx').on(t.company_id, t.created_at),
    index('partner_applicants_status_idx').on(t.company_id, t.status, t.created_at),
  ],
);
