/**
 * A cancellation import's plain values and limits, free of zod, so pages read them without
 * loading the schema library (schema.ts re-exports them).
 */

/**
 * What a column of a cancellation sheet can hold: the policy id (its number, required) and the
 * insured's last name, an optional check that the right policy is named.
 */
export const CANCEL_TARGETS = ['policy_id', 'last_name'] as const;

/** At most this many rows in a cancellation sheet (the import limit of spec 001 s.9). */
export const MAX_CANCEL_ROWS = 5000;

/** Who may cancel policies by spreadsheet: whoever may update (and so cancel) policies. */
export const CANCEL_PERMISSION = 'update_policy';
