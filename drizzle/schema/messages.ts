/**
 * The message centre (spec 001 s.3 "Message and conversation", s.4 states).
 *
 * - A conversation is between the insurer's staff (the company) and one client, optionally narrowed to
 *   one campus; campus employees see only their campus's threads. It may be tied to a policy batch, a
 *   policy (an insured) or an invoice, and shows on that page too.
 * - `last_company_message_at` / `last_school_message_at` keep when each side last wrote, so "unread" is
 *   decided per reader without a row per reader and message: a thread is unread for a user when the
 *   other side wrote after the user last read it (or, never opened, after the user joined), or when the
 *   user marked it unread.
 * - `conversation_states` is each user's own view of a thread: read time, marked unread, flagged and
 *   archived. Archived holds until the thread gets a newer message (`archived_at` < `last_message_at`
 *   puts it back in the inbox), so a reply is never missed in the archive.
 * - Attachments are R2 objects under `messages/<conversation>/`, checked by content like every upload.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { campuses, clients, companies, users } from '../schema';
import { invoices, policies, policyBatches } from './ordering';
import { CONVERSATION_SIDES, CONVERSATION_STATUSES } from './messages-enums';

export * from './messages-enums';

export const conversations = sqliteTable(
  'conversations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    client_id: integer('client_id')
      .notNull()
      .references(() => clients.id),
    campus_id: integer('campus_id').references(() => campuses.id),
    subject: text('subject').notNull(),
    status: text('status', { enum: CONVERSATION_STATUSES }).notNull().default('open'),
    policy_batch_id: integer('policy_batch_id').references(() => policyBatches.id),
    policy_id: integer('policy_id').references(() => policies.id),
    invoice_id: integer('invoice_id').references(() => invoices.id),
    started_by: integer('started_by')
      .notNull()
      .references(() => users.id),
    started_by_side: text('started_by_side', { enum: CONVERSATION_SIDES }).notNull(),
    message_count: integer('message_count').notNull().default(0),
    /** The newest message's first characters, for the inbox row. */
    last_message_preview: text('last_message_preview').notNull().default(''),
    last_message_at: integer('last_message_at', { mode: 'timestamp_ms' }).notNull(),
    last_company_message_at: integer('last_company_message_at', { mode: 'timestamp_ms' }),
    last_school_message_at: integer('last_school_message_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('conversations_public_id_uq').on(t.public_id),
    // The inbox of a company user (newest first), by status, and the unread count's scan.
    index('conversations_company_idx').on(t.company_id, t.last_message_at),
    index('conversations_company_status_idx').on(t.company_id, t.status, t.last_message_at),
    index('conversations_company_school_idx').on(t.company_id, t.last_school_message_at),
    // The inbox of a school user and the client / campus filters.
    index('conversations_client_idx').on(t.client_id, t.last_message_at),
    index('conversations_campus_idx').on(t.campus_id, t.last_message_at),
    index('conversations_client_company_idx').on(t.client_id, t.last_company_message_at),
    // "Shows on that page too": the batch, insured and invoice pages list their threads.
    index('conversations_batch_idx').on(t.policy_batch_id),
    index('conversations_policy_idx').on(t.policy_id),
    index('conversations_invoice_idx').on(t.invoice_id),
  ],
);

export const conversationMessages = sqliteTable(
  'conversation_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    conversation_id: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    author_id: integer('author_id')
      .notNull()
      .references(() => users.id),
    author_side: text('author_side', { enum: CONVERSATION_SIDES }).notNull(),
    body: text('body').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('conversation_messages_public_id_uq').on(t.public_id),
    index('conversation_messages_thread_idx').on(t.conversation_id, t.created_at),
  ],
);

export const messageAttachments = sqliteTable(
  'message_attachments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    public_id: text('public_id').notNull(),
    conversation_id: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    message_id: integer('message_id')
      .notNull()
      .references(() => conversationMessages.id, { onDelete: 'cascade' }),
    file_key: text('file_key').notNull(),
    file_name: text('file_name').notNull(),
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    created_at: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [
    uniqueIndex('message_attachments_public_id_uq').on(t.public_id),
    index('message_attachments_message_idx').on(t.message_id),
    index('message_attachments_conversation_idx').on(t.conversation_id),
  ],
);

export const conversationStates = sqliteTable(
  'conversation_states',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    conversation_id: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    read_at: integer('read_at', { mode: 'timestamp_ms' }),
    marked_unread: integer('marked_unread', { mode: 'boolean' }).notNull().default(false),
    flagged: integer('flagged', { mode: 'boolean' }).notNull().default(false),
    archived_at: integer('archived_at', { mode: 'timestamp_ms' }),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.user_id, t.conversation_id] }),
    index('conversation_states_flagged_idx').on(t.user_id, t.flagged),
  ],
);
