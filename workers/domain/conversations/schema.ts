/**
 * The message centre's inputs (spec 002 s.7 "Conversations and company updates"): start a conversation,
 * add a message, change its status, the inbox's filters. Pure zod; pages and the API share them.
 */
import { z } from 'zod';
import { itemsParam, pageParam } from '../list-query';
import { msg, optional, requiredText } from '../validation';
import {
  ATTACHMENTS_FIELD,
  CONVERSATION_STATUSES,
  INBOX_FOLDERS,
  MAX_ATTACHMENTS,
  MESSAGE_MAX,
  SUBJECT_MAX,
  type InboxFolder,
} from './values';

export { ATTACHMENTS_FIELD, CONVERSATION_STATUSES, INBOX_FOLDERS, MAX_ATTACHMENTS, MESSAGE_MAX, SUBJECT_MAX };
export type { InboxFolder };

/** The message text as written: line breaks kept, surrounding blanks dropped. */
const messageText = z.preprocess(
  (v) => (typeof v === 'string' ? v.replace(/\r\n?/g, '\n').trim() : (v ?? '')),
  z
    .string({ invalid_type_error: msg('validation.required') })
    .min(1, msg('validation.required'))
    .max(MESSAGE_MAX, msg('validation.max', { length: MESSAGE_MAX })),
);

/**
 * The files of a multipart body: one or many under `attachments` (or `attachments[]`); the empty file a
 * browser sends when none was chosen is not one.
 */
const attachments = z.preprocess(
  (v) => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]),
  z
    .array(z.unknown())
    .transform((files) => files.filter((f): f is Blob => f instanceof Blob && f.size > 0))
    .refine(
      (files) => files.length <= MAX_ATTACHMENTS,
      msg('conversations.errors.too_many_files', { max: MAX_ATTACHMENTS }),
    ),
);

const publicRef = optional(z.string().max(64));

export const startConversationSchema = z.object({
  subject: requiredText(SUBJECT_MAX),
  message: messageText,
  /** The client (staff only; a school user always writes about their own). */
  client_id: publicRef,
  campus_id: publicRef,
  policy_batch_id: publicRef,
  policy_id: publicRef,
  invoice_id: publicRef,
  attachments,
  'attachments[]': attachments.optional(),
});
export type StartConversationInput = z.infer<typeof startConversationSchema>;

/** What a page that starts a conversation may name already (a batch, an invoice or a policy page's link). */
export const newConversationQuerySchema = z.object({
  client_id: z.string().max(64).optional(),
  campus_id: z.string().max(64).optional(),
  policy_batch_id: z.string().max(64).optional(),
  policy_id: z.string().max(64).optional(),
  invoice_id: z.string().max(64).optional(),
});

export const addMessageSchema = z.object({
  message: messageText,
  attachments,
  'attachments[]': attachments.optional(),
});
export type AddMessageInput = z.infer<typeof addMessageSchema>;

export const statusSchema = z.object({
  status: z.enum(CONVERSATION_STATUSES, { errorMap: () => ({ message: msg('validation.required') }) }),
});

export const flagSchema = z.object({ flagged: z.boolean() });
export const archiveSchema = z.object({ archived: z.boolean() });

/** Staff's "send message" to several clients at once: one conversation per client. */
export const bulkStartSchema = z.object({
  subject: requiredText(SUBJECT_MAX),
  message: messageText,
  client_ids: z.array(z.string().max(64)).min(1, msg('validation.required')).max(500),
});
export type BulkStartInput = z.infer<typeof bulkStartSchema>;

export const inboxQuerySchema = z.object({
  page: pageParam,
  items: itemsParam(25, 100),
  folder: z.enum(INBOX_FOLDERS).catch('inbox').default('inbox'),
  search: z.string().trim().max(200).optional(),
  client_id: z.string().max(64).optional(),
  campus_id: z.string().max(64).optional(),
  status: z.enum(CONVERSATION_STATUSES).optional().catch(undefined),
  unread: z.preprocess((v) => v === '1' || v === 'true' || v === true, z.boolean()).optional(),
});
export type InboxQuery = z.infer<typeof inboxQuerySchema>;
