/**
 * Inputs of policy documents and welcome emails (spec 002 s.7 "Insureds and policies": documents,
 * insurance-card download, policies/download, policies/download/all, policy-certificates-check,
 * send-welcome-email). Pure (zod only): the pages and the API read the same schemas.
 */
import { z } from 'zod';
import { POLICY_DOCUMENT_KINDS, type PolicyDocumentKind } from '../../../drizzle/schema/policy-enums';
import { msg } from '../validation';

export { POLICY_DOCUMENT_KINDS, type PolicyDocumentKind };

import { KIND_SEGMENTS, MAX_DIRECT_DOWNLOAD, MAX_ZIP_POLICIES } from './values';
export { KIND_SEGMENTS, MAX_DIRECT_DOWNLOAD, MAX_ZIP_POLICIES };

const policyIds = z.array(z.string().trim().min(1).max(64)).max(MAX_ZIP_POLICIES);

/**
 * A document type to download: `insurance_card`, `certificate`, or `product:<type>` (the product's
 * documents of that type, e.g. `product:policy_wording`).
 */
export const documentTypeSchema = z
  .string()
  .trim()
  .max(120)
  .refine((v) => (POLICY_DOCUMENT_KINDS as readonly string[]).includes(v) || /^product:.{1,100}$/.test(v));

const documentTypes = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v]),
  z.array(documentTypeSchema).max(50),
);

/** POST policies/download/all: the insureds and the document types wanted. */
export const downloadAllSchema = z.object({
  policies: policyIds.min(1, msg('validation.required')),
  document_types: documentTypes,
});
export type DownloadAllInput = z.infer<typeof downloadAllSchema>;

/** The form of /insureds/documents: the types (the selection travels in the bulk fields). */
export const documentTypesFormSchema = z.object({ document_types: documentTypes });

/** POST policies/download: a small set of insureds' cards and certificates, as one ZIP named by title. */
export const directDownloadSchema = z.object({
  policies: policyIds.min(1, msg('validation.required')).max(MAX_DIRECT_DOWNLOAD),
  title: z.string().trim().max(100).optional(),
});
export type DirectDownloadInput = z.infer<typeof directDownloadSchema>;

/** POST policies/{id}/documents/download: a card or certificate (by kind) or a product document (by id). */
export const documentDownloadSchema = z.object({
  document_id: z.union([z.enum(POLICY_DOCUMENT_KINDS), z.coerce.number().int().positive()]),
});

/** POST policies/policy-certificates-check. */
export const certificatesCheckSchema = z.object({ policies: policyIds.min(1, msg('validation.required')) });

/** POST policies/send-welcome-email. */
export const welcomeEmailSchema = z.object({ policies: policyIds.min(1, msg('validation.required')) });
