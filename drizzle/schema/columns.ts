/** Column helpers and enums shared by every schema module (kept apart to avoid import cycles). */
import { sql } from 'drizzle-orm';
import { integer } from 'drizzle-orm/sqlite-core';

export const timestamps = {
  created_at: integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  updated_at: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
};

export const LANGUAGES = ['en', 'ca', 'cn', 'de', 'es', 'fr', 'it', 'pt'] as const;
export const RECORD_STATUSES = ['active', 'archived'] as const;
