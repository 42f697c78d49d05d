/** My Documents' search (pure zod): words, a kind, a language, and the page. */
import { z } from 'zod';
import { itemsParam, pageParam } from '../list-query';
import { MY_DOCUMENT_KINDS, MY_DOCUMENT_LANGUAGES, MY_DOCUMENTS_PER_PAGE } from './values';

export * from './values';

const blankIsAny = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional()).catch(undefined);

export const myDocumentsQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(MY_DOCUMENTS_PER_PAGE),
  /** Part of a title, a file name, an insured's name or policy number, an invoice number, a client. */
  search: z.string().trim().max(200).optional().catch(undefined),
  kind: blankIsAny(z.enum(MY_DOCUMENT_KINDS)),
  /** A product document's language; other kinds have none and are left out when it is set. */
  language: blankIsAny(z.enum(MY_DOCUMENT_LANGUAGES)),
});
export type MyDocumentsQuery = z.infer<typeof myDocumentsQuerySchema>;
