/**
 * The queries of a client's documents and MFA activity, and the document download's body. Pure zod:
 * the API validates with these and a page can read the same.
 *
 * A client's documents are the files kept for it across the portal (its return policy, its service
 * agreements' documents, the files of its notes and of its campuses' notes); each has a `document_id`
 * naming where it lives: `return_policy`, `agreement-<n>` or `note-<n>`.
 */
import { z } from 'zod';
import { MFA_EVENTS, PIN_PURPOSES } from '../../../drizzle/enums';
import { listQuerySchema } from '../list-query';
import { statementPeriodShape, withPeriodRule } from '../billing/schema';
import { msg } from '../validation';

export { MFA_EVENTS, PIN_PURPOSES };

/** Where a client's document comes from. */
export const CLIENT_DOCUMENT_SOURCES = ['return_policy', 'service_agreement', 'note', 'campus_note'] as const;
export type ClientDocumentSource = (typeof CLIENT_DOCUMENT_SOURCES)[number];

/** `return_policy`, `agreement-12` (a service agreement's document), `note-34` (a note's file). */
export const CLIENT_DOCUMENT_ID = /^(?:return_policy|agreement-[1-9]\d{0,14}|note-[1-9]\d{0,14})$/;

const blank = (v: unknown) => (v === '' || v === null ? undefined : v);

/** GET clients/{id}/documents: paging, a search over file names and titles, and the source. */
export const clientDocumentsQuerySchema = listQuerySchema.extend({
  source: z.preprocess(blank, z.enum(CLIENT_DOCUMENT_SOURCES).optional()),
});
export type ClientDocumentsQuery = z.infer<typeof clientDocumentsQuerySchema>;

/** POST clients/{id}/documents/download: which document. */
export const clientDocumentDownloadSchema = z.object({
  // A number is read as text, so it gets the message naming the three shapes rather than 'required'.
  document_id: z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z
      .string({ required_error: msg('validation.required'), invalid_type_error: msg('validation.required') })
      .trim()
      .min(1, msg('validation.required'))
      .regex(CLIENT_DOCUMENT_ID, msg('clients.documents.unknown_id')),
  ),
});

/**
 * GET clients/{id}/mfa_activities: paging, a search over the user's name and email, one user (public id),
 * the event, the PIN's purpose and the days (from/to).
 */
export const mfaActivityQuerySchema = withPeriodRule(
  listQuerySchema.extend({
    user: z.preprocess(blank, z.string().trim().min(1).max(64).optional()),
    event: z.preprocess(blank, z.enum(MFA_EVENTS).optional()),
    purpose: z.preprocess(blank, z.enum(PIN_PURPOSES).optional()),
    ...statementPeriodShape,
  }),
);
export type MfaActivityQuery = z.infer<typeof mfaActivityQuerySchema>;
