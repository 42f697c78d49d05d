import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { notifications } from '../../../drizzle/schema';
import { inJson, type DB, type Statement } from '../../platform/db';
import { requireActor } from '../access/actor';
import type { ActorCtx, Ctx } from '../context';
import { ValidationFailed } from '../errors';
import { isLocalPath } from '../validation';

export interface NewNotification {
  user_ids: number[];
  title: string;
  description: string;
  /** An internal path ("/insureds/abc") or an http(s) link. */
  to?: string | null;
  client_id?: number | null;
  campus_id?: number | null;
}

function checkTarget(to: string | null | undefined): string | null {
  if (!to) return null;
  if (isLocalPath(to)) return to;
  if (/^https?:\/\//i.test(to)) return to;
  throw ValidationFailed.field('to', 'This value must be a valid URL');
}

/**
 * The one way to notify users. Returns statements for the caller's batch, so the notification commits
 * with the change that causes it.
 */
export function notify(ctx: Pick<Ctx, 'db' | 'now'>, input: NewNotification): Statement[] {
  const to = checkTarget(input.to);
  return input.user_ids.map((user_id) =>
    ctx.db.insert(notifications).values({
      user_id,
      title: input.title,
      description: input.description,
      to,
      client_id: input.client_id ?? null,
      campus_id: input.campus_id ?? null,
      created_at: ctx.now,
    }),
  );
}

export interface NotificationView {
  id: number;
  title: string;
  description: string;
  to: string | null;
  read: boolean;
  created_at: string;
}

/** The signed-in user's notifications, newest first, and how many are unread. */
export async function listNotifications(ctx: ActorCtx, limit = 30) {
  const actor = requireActor(ctx.actor);
  const [rows, [{ unread }]] = await ctx.db.batch([
    ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.user_id, actor.user_id))
      .orderBy(desc(notifications.created_at), desc(notifications.id))
      .limit(limit),
    ctx.db
      .select({ unread: sql<number>`count(*)` })
      .from(notifications)
      .where(and(eq(notifications.user_id, actor.user_id), isNull(notifications.read_at))),
  ]);
  const items: NotificationView[] = rows.map((n) => ({
    id: n.id,
    title: n.title,
    description: n.description,
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
