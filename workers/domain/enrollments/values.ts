/**
 * An order's limits, free of zod, so pages read them without loading the schema library
 * (schema.ts re-exports them).
 */

/** At most this many applicants in one sheet (spec 001 s.9). */
export const MAX_APPLICANTS = 5000;
