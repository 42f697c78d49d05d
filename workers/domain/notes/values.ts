/**
 * A note's plain values and limits, free of zod, so pages read them without
 * loading the schema library (schema.ts re-exports them).
 */

/** Requested-by options are listed per user type (spec 002 s.6). */
export const REQUESTER_TYPES = ['school', 'company', 'student', 'other'] as const;
