/**
 * A service agreement's plain values and limits, free of zod, so pages read them without
 * loading the schema library (schema.ts re-exports them).
 */

/** Kinds an agreement document may be (checked by content, see workers/platform/storage.ts). */
export const AGREEMENT_DOCUMENT_KINDS = ['pdf', 'docx', 'xlsx', 'png', 'jpg'] as const;

export const AGREEMENT_DOCUMENT_MAX_MB = 10;

export const MAX_AGREEMENT_ROWS = 100;
