/**
 * A spreadsheet import's limits, free of zod, so pages read them without loading the schema
 * library (schema.ts re-exports them).
 */

/** Spec 000 s.5: default file size limit ('File cannot be larger than {n}MB'). */
export const MAX_IMPORT_MB = 10;
