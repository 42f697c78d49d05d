/**
 * Notices (spec 001 s.3, s.4, s.6): staff of a company write a notice for an audience of school users;
 * each of them sees it at their next sign-in and on /notices until they acknowledge it. Staff see who
 * acknowledged and remind the rest by email. Every staff query is limited to the companies in view, so
 * another company's notice answers "not found". The recipients' side is in recipients.ts.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import {
  clients,
  companies,
  noticeRecipients,
  notices,
  users,
  type NoticeAudience,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { ARCHIVE_PERMISSION } from '../access/archiving';
import { companyScope, visibleCompanyIds } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound, ValidationFailed, type FieldError } from '../errors';
import { countAll, likeAny, orderBy, paginate, type Page } from '../lists';
import { msg } from '../validation';
import { syncRecipients } from './audience';
import { queueNoticeEmails } from './emails';
import type { NoticeInput, NoticeListQuery, NoticeRecipientsQuery } from './schema';
import { NOTICE_AUDIENCE_KEYS } from './values';

type NoticeRow = typeof notices.$inferSelect;

export interface NoticeView {
  id: string;
  title: string;
  message: string;
  status: 'active' | 'archived';
  send_email: boolean;
  audience: NoticeAudience;
  company_id: string;
  company_name: string;
  recipients: number;
  acknowledged: number;
  created_at: Date;
  updated_at: Date;
}

const recipientsCount = sql<number>`(SELECT count(*) FROM notice_recipients r WHERE r.notice_id = ${notices.id})`;
const acknowledgedCount = sql<number>`(SELECT count(*) FROM notice_recipients r
  WHERE r.notice_id = ${notices.id} AND r.acknowledged_at IS NOT NULL)`;

const columns = {
  id: notices.public_id,
  title: notices.title,
  message: notices.message,
  status: notices.status,
  send_email: notices.send_email,
  audience: notices.audience,
  company_id: sql<string>`${companies.public_id}`.as('company_public_id'),
  company_name: sql<string>`${companies.name}`.as('company_name'),
  recipients: recipientsCount.as('recipients'),
  acknowledged: acknowledgedCount.as('acknowledged'),
  created_at: notices.created_at,
  updated_at: notices.updated_at,
};

const sortable = { title: notices.title, status: notices.status, created_at: notices.created_at };

function selectNotices(ctx: ActorCtx) {
  return ctx.db.select(columns).from(notices).innerJoin(companies, eq(companies.id, notices.company_id));
}

function listWhere(ctx: ActorCtx, q: NoticeListQuery): SQL | undefined {
  return and(
    companyScope(ctx.actor, notices.company_id),
    q.status && q.status !== 'all' ? eq(notices.status, q.status) : undefined,
    likeAny([notices.title, notices.message], q.search),
  );
}

/** notices/list: the notices of the companies in view, newest first, with their acknowledgement counts. */
export async function listNotices(ctx: ActorCtx, q: NoticeListQuery): Promise<Page<NoticeView>> {
  requirePermission(ctx.actor, 'read_notice');
  const where = listWhere(ctx, q);
  return paginate<NoticeView>(ctx.db, q, {
    rows: (limit, offset) =>
      selectNotices(ctx)
        .where(where)
        .orderBy(...orderBy(q.order, sortable, 'created_at_desc', notices.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(notices).where(where),
  });
}

/** The notices list with its filters and order, whole (at most 5,000 rows): its Excel export. */
export async function exportNotices(ctx: ActorCtx, q: NoticeListQuery): Promise<NoticeView[]> {
  requirePermission(ctx.actor, 'read_notice');
  return selectNotices(ctx)
    .where(listWhere(ctx, q))
    .orderBy(...orderBy(q.order, sortable, 'created_at_desc', notices.id))
    .limit(5000);
}

/** The notice behind a public id, in the actor's scope; another company's notice is not found. */
async function findNotice(ctx: ActorCtx, id: string): Promise<NoticeRow> {
  const [row] = await ctx.db
    .select()
    .from(notices)
    .where(and(eq(notices.public_id, id), companyScope(ctx.actor, notices.company_id)))
    .limit(1);
  if (!row) throw new NotFound(msg('notices.errors.not_found'));
  return row;
}

/** notices/{id}. */
export async function getNotice(ctx: ActorCtx, id: string): Promise<NoticeView> {
  requirePermission(ctx.actor, 'read_notice');
  const row = await findNotice(ctx, id);
  const [view] = await selectNotices(ctx).where(eq(notices.id, row.id)).limit(1);
  return view;
}

/** The company a new notice belongs to: the one given (if in view), else the top-bar company. */
async function targetCompany(ctx: ActorCtx, given: string | undefined): Promise<number> {
  if (given) {
    const [row] = await ctx.db
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.public_id, given), companyScope(ctx.actor, companies.id)))
      .limit(1);
    if (!row) throw ValidationFailed.field('company_id', msg('notices.errors.company'));
    return row.id;
  }
  const visible = visibleCompanyIds(ctx.actor);
  if (visible.length === 1) return visible[0];
  throw ValidationFailed.field('company_id', msg('notices.errors.company'));
}

/**
 * The audience as given, checked against the company's own records: a client, campus or product of
 * another company, or a country that does not exist, is refused by name rather than silently matching
 * nobody.
 */
async function checkedAudience(
  ctx: ActorCtx,
  input: NoticeInput,
  companyId: number,
): Promise<NoticeAudience> {
  const audience = Object.fromEntries(
    NOTICE_AUDIENCE_KEYS.map((k) => [k, [...new Set(input[k] as string[])]]),
  ) as unknown as NoticeAudience;
  const list = (values: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;
  const [known] = await ctx.db.all<
    Record<'clients' | 'campuses' | 'products' | 'countries', number>
  >(sql`SELECT
    (SELECT count(*) FROM clients c WHERE c.company_id = ${companyId}
      AND c.public_id IN ${list(audience.clients)}) AS clients,
    (SELECT count(*) FROM campuses cp JOIN clients c ON c.id = cp.client_id WHERE c.company_id = ${companyId}
      AND cp.public_id IN ${list(audience.campuses)}) AS campuses,
    (SELECT count(*) FROM products p WHERE p.company_id = ${companyId}
      AND p.public_id IN ${list(audience.products)}) AS products,
    (SELECT count(*) FROM countries co WHERE co.abbreviation IN ${list(audience.countries)}) AS countries`);
  const errors: FieldError[] = [];
  for (const key of ['clients', 'campuses', 'products', 'countries'] as const) {
    if (Number(known[key]) !== audience[key].length)
      errors.push({ key, message: msg(`notices.errors.unknown_${key}`) });
  }
  if (errors.length) throw new ValidationFailed(errors);
  return audience;
}

/** notices/add: the notice and its recipients in one batch; emailed to them when asked. */
export async function createNotice(ctx: ActorCtx, input: NoticeInput): Promise<NoticeView> {
  requirePermission(ctx.actor, 'create_notice');
  const companyId = await targetCompany(ctx, input.company_id);
  const audience = await checkedAudience(ctx, input, companyId);
  const [created] = await ctx.db
    .insert(notices)
    .values({
      public_id: publicId(),
      company_id: companyId,
      title: input.title,
      message: input.message,
      status: input.status,
      send_email: input.send_email,
      audience,
      created_by: ctx.actor.user_id,
      created_at: ctx.now,
      updated_at: ctx.now,
    })
    .returning();
  try {
    await runBatch(ctx.db, [
      ...(created.status === 'active' ? syncRecipients(ctx.db, created.id, companyId, audience) : []),
      logActivity(ctx, {
        entity_type: 'notice',
        entity_id: created.id,
        action: 'created',
        after: { title: created.title, status: created.status, send_email: created.send_email },
        company_id: companyId,
      }),
    ]);
  } catch (e) {
    // Nothing half-written: a notice whose recipients could not be written is not kept.
    await ctx.db.delete(notices).where(eq(notices.id, created.id));
    throw e;
  }
  if (created.status === 'active' && created.send_email) await queueNoticeEmails(ctx, created, 'new');
  return getNotice(ctx, created.public_id);
}

/**
 * notices/{id}/update. The recipients follow the new audience (acknowledgements kept for users who still
 * match); with email on, only users who join are emailed, so an edit does not mail everyone again.
 */
export async function updateNotice(ctx: ActorCtx, id: string, input: NoticeInput): Promise<NoticeView> {
  requirePermission(ctx.actor, 'update_notice');
  const before = await findNotice(ctx, id);
  const audience = await checkedAudience(ctx, input, before.company_id);
  const status = input.status;
  await runBatch(ctx.db, [
    ctx.db
      .update(notices)
      .set({
        title: input.title,
        message: input.message,
        status,
        send_email: input.send_email,
        audience,
        updated_at: ctx.now,
      })
      .where(eq(notices.id, before.id)),
    ...(status === 'active' ? syncRecipients(ctx.db, before.id, before.company_id, audience) : []),
    logActivity(ctx, {
      entity_type: 'notice',
      entity_id: before.id,
      action: 'updated',
      before: {
        title: before.title,
        message: before.message,
        status: before.status,
        audience: before.audience,
      },
      after: { title: input.title, message: input.message, status, audience },
      company_id: before.company_id,
    }),
  ]);
  const after = await findNotice(ctx, id);
  if (status === 'active' && after.send_email) await queueNoticeEmails(ctx, after, 'new');
  return getNotice(ctx, id);
}

/**
 * notices/{id}/status/update: archive (no longer shown to anyone) or reactivate (the audience is
 * resolved again, so users who joined meanwhile receive it).
 */
export async function updateNoticeStatus(
  ctx: ActorCtx,
  id: string,
  status: 'active' | 'archived',
): Promise<NoticeView> {
  requirePermission(ctx.actor, ARCHIVE_PERMISSION.notice);
  const before = await findNotice(ctx, id);
  if (before.status !== status) {
    await runBatch(ctx.db, [
      ctx.db.update(notices).set({ status, updated_at: ctx.now }).where(eq(notices.id, before.id)),
      ...(status === 'active' ? syncRecipients(ctx.db, before.id, before.company_id, before.audience) : []),
      logActivity(ctx, {
        entity_type: 'notice',
        entity_id: before.id,
        action: status === 'active' ? 'reactivated' : 'archived',
        before: { status: before.status },
        after: { status },
        company_id: before.company_id,
      }),
    ]);
  }
  return getNotice(ctx, id);
}

export interface NoticeRecipientView {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  client_name: string;
  acknowledged_at: Date | null;
  reminded_at: Date | null;
}

/** notices/{id}/recipients: who must acknowledge, who has, filtered by acknowledged yes or no. */
export async function listNoticeRecipients(ctx: ActorCtx, id: string, q: NoticeRecipientsQuery) {
  requirePermission(ctx.actor, 'read_notice');
  const row = await findNotice(ctx, id);
  const where = and(
    eq(noticeRecipients.notice_id, row.id),
    q.acknowledged === 'yes' ? sql`${noticeRecipients.acknowledged_at} IS NOT NULL` : undefined,
    q.acknowledged === 'no' ? sql`${noticeRecipients.acknowledged_at} IS NULL` : undefined,
    likeAny([users.first_name, users.last_name, users.email], q.search),
  );
  return paginate<NoticeRecipientView>(ctx.db, q, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          id: users.public_id,
          first_name: users.first_name,
          last_name: users.last_name,
          email: users.email,
          client_name: sql<string>`${clients.name}`.as('client_name'),
          acknowledged_at: noticeRecipients.acknowledged_at,
          reminded_at: noticeRecipients.reminded_at,
        })
        .from(noticeRecipients)
        .innerJoin(users, eq(users.id, noticeRecipients.user_id))
        .innerJoin(clients, eq(clients.id, users.client_id))
        .where(where)
        .orderBy(
          sql`${noticeRecipients.acknowledged_at} IS NOT NULL`,
          users.last_name,
          users.first_name,
          users.id,
        )
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: countAll })
      .from(noticeRecipients)
      .innerJoin(users, eq(users.id, noticeRecipients.user_id))
      .where(where),
  });
}

/**
 * notices/{id}/remind: emails every recipient who has not acknowledged yet, and logs the reminder with
 * how many it reached, in the same batch; answers how many. A reminder to nobody logs nothing.
 */
export async function remindNotice(ctx: ActorCtx, id: string): Promise<{ reminded: number }> {
  requirePermission(ctx.actor, 'update_notice');
  const row = await findNotice(ctx, id);
  if (row.status !== 'active') throw ValidationFailed.field('status', msg('notices.errors.archived'));
  const reminded = await queueNoticeEmails(ctx, row, 'reminder', (count) => [
    logActivity(ctx, {
      entity_type: 'notice',
      entity_id: row.id,
      action: 'reminder_sent',
      after: { reminded: count },
      company_id: row.company_id,
    }),
  ]);
  return { reminded };
}
