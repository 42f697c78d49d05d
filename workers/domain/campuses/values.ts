/**
 * A campus's value lists as plain values, free of zod, so the campus forms' components read them without
 * loading the schema library (schema.ts re-exports them).
 */
import { LANGUAGES, PAYMENT_TERMS, RECORD_STATUSES } from '../../../drizzle/enums';

export const CAMPUS_STATUSES = RECORD_STATUSES;
export const CAMPUS_LANGUAGES = LANGUAGES;
export const CAMPUS_PAYMENT_TERMS = PAYMENT_TERMS;
/** The contact types a campus has (spec 001 s.3 Campus). */
export const CAMPUS_CONTACT_TYPES = ['initial', 'owner', 'secondary', 'accounting'] as const;
