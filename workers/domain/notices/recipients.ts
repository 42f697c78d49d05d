/**
 * The recipients' side of notices: a school user's notices (those addressed to them while active),
 * the pending ones shown at sign-in, and acknowledging one. A user reads only notices addressed to
 * them: any other id answers "not found".
 */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { noticeRecipients, notices } from '../../../drizzle/schema';
import { requireActor } from '../access/actor';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { msg } from '../validation';

export interface MyNoticeView {
  id: string;
  title: string;
  message: string;
  created_at: Date;
  acknowledged_at: Date | null;
}

const mine = {
  id: notices.public_id,
  title: notices.title,
  message: notices.message,
  created_at: notices.created_at,
  acknowledged_at: noticeRecipients.acknowledged_at,
};

/** The active notices addressed to the user, pending first, then newest first. */
export async function myNotices(ctx: ActorCtx, limit = 100): Promise<MyNoticeView[]> {
  const actor = requireActor(ctx.actor);
  return ctx.db
    .select(mine)
    .from(noticeRecipients)
    .innerJoin(notices, eq(notices.id, noticeRecipients.notice_id))
    .where(and(eq(noticeRecipients.user_id, actor.user_id), eq(notices.status, 'active')))
    .orderBy(sql`${noticeRecipients.acknowledged_at} IS NOT NULL`, desc(notices.created_at), desc(notices.id))
    .limit(limit);
}

/** The notices the user has still to acknowledge (shown at sign-in), oldest first. */
export async function pendingNotices(ctx: ActorCtx): Promise<MyNoticeView[]> {
  const actor = requireActor(ctx.actor);
  return ctx.db
    .select(mine)
    .from(noticeRecipients)
    .innerJoin(notices, eq(notices.id, noticeRecipients.notice_id))
    .where(
      and(
        eq(noticeRecipients.user_id, actor.user_id),
        isNull(noticeRecipients.acknowledged_at),
        eq(notices.status, 'active'),
      ),
    )
    .orderBy(notices.created_at, notices.id)
    .limit(50);
}

/** Acknowledges a notice addressed to the user; acknowledging again keeps the first time. */
export async function acknowledgeNotice(ctx: ActorCtx, id: string): Promise<void> {
  const actor = requireActor(ctx.actor);
  const [row] = await ctx.db
    .select({ notice_id: noticeRecipients.notice_id, acknowledged_at: noticeRecipients.acknowledged_at })
    .from(noticeRecipients)
    .innerJoin(notices, eq(notices.id, noticeRecipients.notice_id))
    .where(
      and(
        eq(notices.public_id, id),
        eq(noticeRecipients.user_id, actor.user_id),
        eq(notices.status, 'active'),
      ),
    )
    .limit(1);
  if (!row) throw new NotFound(msg('notices.errors.not_found'));
  if (row.acknowledged_at) return;
  await ctx.db
    .update(noticeRecipients)
    .set({ acknowledged_at: ctx.now })
    .where(and(eq(noticeRecipients.notice_id, row.notice_id), eq(noticeRecipients.user_id, actor.user_id)));
}
