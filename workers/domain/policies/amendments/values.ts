/**
 * An amendment's plain values and limits, free of zod, so pages read them without
 * loading the schema library (schema.ts re-exports them).
 */

/** Who may amend an issued policy (extend, move, cancel, group changes). */
export const AMEND_PERMISSION = 'update_policy';
