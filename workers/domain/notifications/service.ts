import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { notifications } from '../../../drizzle/schema';
import { formatMinor } from '../../../app/lib/money';
import { inJson, type DB, type Statement } from '../../platform/db';
import { translate } from '../../platform/i18n';
import { requireActor } from '../access/actor';
import type { ActorCtx, Ctx } from '../context';
import { ValidationFailed } from '../errors';
import { isLocalPath } from '../validation';

/**
 * What a notification can say. Each key has a title and a description under
 * `notifications.events.<key>` in every language; the reader's language renders them when they are read.
 */
export const NOTIFICATION_KEYS = [
  'welcome',
  'order_confirmed',
  'order_confirmed_on_account',
  'import_ready',
  'import_failed',
  'invoice_issued',
  'payment_received',
  'amendment_extend',
  'amendment_trip_dates',
  'amendment_cancel',
  'message_received',
] as const;
export type NotificationKey = (typeof NOTIFICATION_KEYS)[number];

/** A parameter's value: known now, or read inside the batch (an invoice number drawn in the same batch). */
type Param = string | number | SQL;

export interface NewNotification {
  user_ids: readonly number[];
  key: NotificationKey;
  /**
   * Names, numbers and references the texts interpolate. An amount goes as `amount_minor` with its
   * `currency` and reads as `{{amount}}`.
   */
  params?: Record<string, Param>;
  /** An internal path ("/insureds/abc") or an http(s) link; an SQL value is read inside the batch. */
  to?: string | SQL | null;
  client_id?: number | SQL | null;
  campus_id?: number | SQL | null;
  /**
   * One notification per user and per row of this source (`invoices i`), whose columns the parameters,
   * `to` and `when` may read: the invoices a run issued, each told on its own.
   */
  each?: SQL;
  /** Written only when this holds inside the batch (the change it reports did happen). */
  when?: SQL;
}

function checkTarget(to: string | SQL | null | undefined): string | SQL | null {
  if (!to) return null;
  if (typeof to !== 'string') return to;
  if (isLocalPath(to)) return to;
  if (/^https?:\/\//i.test(to)) return to;
  throw ValidationFailed.field('to', 'This value must be a valid URL');
}

/**
 * The one way to notify users. Returns statements for the caller's batch, so the notification commits
 * with the change that causes it; no users, no statement. The row keeps the message key and its
 * parameters, not text, so each reader sees it in their language.
 */
export function notify(ctx: Pick<Ctx, 'db' | 'now'>, input: NewNotification): Statement[] {
  const to = checkTarget(input.to);
  const ids = [...new Set(input.user_ids)];
  if (!ids.length) return [];
  const entries = Object.entries(input.params ?? {});
  const params = entries.length
    ? sql`json_object(${sql.join(
        entries.map(([name, value]) => sql`${name}, ${value}`),
        sql`, `,
      )})`
    : sql`NULL`;
  return [
    ctx.db
      .run(sql`INSERT INTO notifications (user_id, message_key, params, "to", client_id, campus_id, created_at)
      SELECT u.value, ${input.key}, ${params}, ${to}, ${input.client_id ?? null}, ${input.campus_id ?? null},
        ${ctx.now.getTime()}
      FROM json_each(${JSON.stringify(ids)}) u ${input.each ? sql`CROSS JOIN ${input.each}` : sql``}
      ${input.when ? sql`WHERE ${input.when}` : sql``}`),
  ];
}

export interface NotificationView {
  id: number;
  title: string;
  description: string;
  to: string | null;
  read: boolean;
  created_at: string;
}

type Row = typeof notifications.$inferSelect;

/** A notification in the reader's language; one written before keys is shown as it was written. */
export function renderNotification(row: Row, lang: string): Pick<NotificationView, 'title' | 'description'> {
  if (!row.message_key) return { title: row.title ?? '', description: row.description ?? '' };
  const raw = row.params ?? {};
  const params: Record<string, string | number> = { ...raw };
  if (typeof raw.amount_minor === 'number' && typeof raw.currency === 'string')
    params.amount = formatMinor(raw.amount_minor, raw.currency);
  const key = `notifications.events.${row.message_key}`;
  return {
    title: translate(lang, `${key}.title`, params),
    description: translate(lang, `${key}.description`, params),
  };
}

/** The signed-in user's notifications in their language, newest first, and how many are unread. */
export async function listNotifications(ctx: ActorCtx, opts: { lang: string; limit?: number }) {
  const actor = requireActor(ctx.actor);
  const [rows, [{ unread }]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.user_id, actor.user_id))
      .orderBy(desc(notifications.created_at), desc(notifications.id))
      .limit(opts.limit ?? 30),
    ctx.db
      .select({ unread: sql<number>`count(*)` })
      .from(notifications)
      .where(and(eq(notifications.user_id, actor.user_id), isNull(notifications.read_at))),
  ]);
  const items: NotificationView[] = rows.map((n) => ({
    id: n.id,
    ...renderNotification(n, opts.lang),
    to: n.to,
    read: n.read_at !== null,
    created_at: n.created_at.toISOString(),
  }));
  return { items, unread };
}

/**
 * Marks the user's notifications read: all of them without `ids`, else only those (an empty list marks
 * none). Someone else's ids are ignored.
 */
export async function markNotificationsRead(ctx: ActorCtx, ids?: number[]) {
  const actor = requireActor(ctx.actor);
  await ctx.db
    .update(notifications)
    .set({ read_at: ctx.now })
    .where(
      and(
        eq(notifications.user_id, actor.user_id),
        isNull(notifications.read_at),
        ids ? inJson(notifications.id, ids) : undefined,
      ),
    );
}

export async function unreadNotificationCount(db: DB, userId: number): Promise<number> {
  const [{ n }] = await db
    .select({ n: sql<number>`count(*)` })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return n;
}
