/** My Documents' value lists (pure: pages and the schema share them). */
import { LANGUAGES } from '../../../drizzle/enums';

/**
 * The kinds of document a user finds on My Documents, in the order its filter offers them: a product's
 * documents, an insured's card and certificate, an invoice or credit note, a statement of account, a
 * service agreement's documents.
 */
export const MY_DOCUMENT_KINDS = ['product', 'insured', 'invoice', 'statement', 'agreement'] as const;
export type MyDocumentKind = (typeof MY_DOCUMENT_KINDS)[number];

export const MY_DOCUMENT_LANGUAGES = LANGUAGES;

/** The permission of the spec's document group that opens My Documents. */
export const MY_DOCUMENTS_PERMISSION = 'read_document';

export const MY_DOCUMENTS_PER_PAGE = 25;
