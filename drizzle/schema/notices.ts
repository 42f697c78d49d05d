/**
 * Notices (spec 001 s.3): a message from the insurer's staff to the school users chosen by an audience
 * (clients, campuses, products, user types, countries, billing types, markets), each of whom acknowledges
 * it once.
 *
 * - `audience` keeps the choice as made (public ids and values), so the editor shows it again.
 * - `notice_recipients` is the audience resolved to users when the notice is saved or reactivated: who
 *   must acknowledge, who has (`acknowledged_at`) and when the last reminder went (`reminded_at`).
 *   Acknowledgements survive an edit for users who still match.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { companies, users } from '../schema';
import { RECORD_STATUSES } from '../enums';

export interface NoticeAudience {
  clients: string[];
  campuses: string[];
  products: string[];
  user_types: string[];
  countries: string[];
  billing_types: string[];
  markets: string[];
}

export const notices = sqliteTable(
  'notices',
  {
    id: integer('id').primaryKey(),
    public_id: text('public_id').notNull(),
    company_id: integer('company_id')
      .notNull()
      .references(() => companies.id),
    title: text('title').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: RECORD_STATUSES }).notNull().default('active'),
    send_email: integer('send_email', { mode: 'boolean' }).notNull().default(false),
    audience: text('audience', { mode: 'json' }).$type<NoticeAudience>().notNull(),
    created_by: integer('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('notices_public_id_uq').on(t.public_id),
    index('notices_company_idx').on(t.company_id, t.status, t.created_at),
  ],
);

export const noticeRecipients = sqliteTable(
  'notice_recipients',
  {
    notice_id: integer('notice_id')
      .notNull()
      .references(() => notices.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    acknowledged_at: integer('acknowledged_at', { mode: 'timestamp_ms' }),
    /** When the notice was last emailed to this user (on publishing with email, or a reminder). */
    emailed_at: integer('emailed_at', { mode: 'timestamp_ms' }),
    reminded_at: integer('reminded_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    primaryKey({ columns: [t.notice_id, t.user_id] }),
    // A user's pending notices at sign-in.
    index('notice_recipients_user_idx').on(t.user_id, t.acknowledged_at),
  ],
);
