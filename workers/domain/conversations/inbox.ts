/**
 * Reading the message centre: the inbox (folders, search, filters, paging), one thread with its
 * messages, the unread count of the top bar's mail icon, and attachment downloads.
 *
 * Unread, per reader and without a row per message: the other side wrote after the reader last read the
 * thread (or, never opened, after the reader's account was made), or the reader marked it unread.
 * Archived: the reader archived it and nothing was written since. Both conditions read only the
 * conversation row and the reader's state row, so the count walks the conversations index of the scope.
 */
import { and, desc, eq, exists, or, sql, type SQL } from 'drizzle-orm';
import {
  campuses,
  clients,
  conversationMessages,
  conversations,
  conversationStates,
  invoices,
  messageAttachments,
  policies,
  policyBatches,
  users,
} from '../../../drizzle/schema';
import { can, requirePermission, type Actor } from '../access/actor';
import { visibleConversations } from '../access/scope';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';
import { likePattern, paginate, type Page } from '../lists';
import { attachmentDownload } from './attachments';
import type { InboxQuery } from './schema';
import { findConversation, setOwnState, sideOf } from './service';

const state = conversationStates;

/** The reader's state row, joined on (reader, thread). */
const stateJoin = (actor: Actor) =>
  and(eq(state.conversation_id, conversations.id), eq(state.user_id, actor.user_id));

/** When the reader's account was made: a thread the reader never opened is new if written to after. */
const readerSince = (actor: Actor) =>
  sql`(select ${users.created_at} from ${users} where ${users.id} = ${actor.user_id})`;

/** The unread condition for the actor (needs the state join). */
export function unreadFor(actor: Actor): SQL {
  const other =
    sideOf(actor) === 'company'
      ? conversations.last_school_message_at
      : conversations.last_company_message_at;
  return sql`(coalesce(${state.marked_unread}, 0) = 1 or ${other} > coalesce(${state.read_at}, ${readerSince(actor)}))`;
}

const inInbox = sql`(${state.archived_at} is null or ${state.archived_at} < ${conversations.last_message_at})`;
const inArchive = sql`(${state.archived_at} >= ${conversations.last_message_at})`;

export interface InboxRow {
  id: string;
  subject: string;
  summary: string;
  date: string;
  status: string;
  client: { id: string; name: string };
  campus: { id: string; name: string } | null;
  message_count: number;
  read: boolean;
  flagged: boolean;
  archived: boolean;
}

/** The actor's inbox: a folder, filters by client, campus, status and unread, search over subject and text. */
export async function listConversations(ctx: ActorCtx, query: InboxQuery): Promise<Page<InboxRow>> {
  requirePermission(ctx.actor, 'read_message');
  const actor = ctx.actor;
  sideOf(actor);
  const folder =
    query.folder === 'archived'
      ? inArchive
      : query.folder === 'flagged'
        ? sql`${state.flagged} = 1`
        : inInbox;
  const term = query.search?.trim();
  const pattern = term ? likePattern(term) : null;
  const where = and(
    visibleConversations(actor),
    folder,
    query.client_id ? eq(clients.public_id, query.client_id) : undefined,
    query.campus_id ? eq(campuses.public_id, query.campus_id) : undefined,
    query.status ? eq(conversations.status, query.status) : undefined,
    query.unread ? unreadFor(actor) : undefined,
    pattern
      ? or(
          sql`${conversations.subject} like ${pattern} escape '\\'`,
          exists(
            ctx.db
              .select({ one: sql`1` })
              .from(conversationMessages)
              .where(
                and(
                  eq(conversationMessages.conversation_id, conversations.id),
                  sql`${conversationMessages.body} like ${pattern} escape '\\'`,
                ),
              ),
          ),
        )
      : undefined,
  );
  const unread = unreadFor(actor);
  const page = await paginate(
    ctx.db,
    { page: query.page, items: query.items },
    {
      rows: (limit, offset) =>
        ctx.db
          .select({
            id: sql<string>`${conversations.public_id}`.as('conversation_public_id'),
            subject: conversations.subject,
            summary: conversations.last_message_preview,
            last_message_at: conversations.last_message_at,
            status: conversations.status,
            client_id: sql<string>`${clients.public_id}`.as('client_public_id'),
            client_name: sql<string>`${clients.name}`.as('client_name'),
            campus_id: sql<string | null>`${campuses.public_id}`.as('campus_public_id'),
            campus_name: sql<string | null>`${campuses.name}`.as('campus_name'),
            message_count: conversations.message_count,
            unread: sql<number>`${unread}`.as('unread'),
            flagged: sql<number>`coalesce(${state.flagged}, 0)`.as('flagged'),
            archived: sql<number>`coalesce(${inArchive}, 0)`.as('archived'),
          })
          .from(conversations)
          .innerJoin(clients, eq(clients.id, conversations.client_id))
          .leftJoin(campuses, eq(campuses.id, conversations.campus_id))
          .leftJoin(state, stateJoin(actor))
          .where(where)
          .orderBy(desc(conversations.last_message_at), desc(conversations.id))
          .limit(limit)
          .offset(offset),
      count: ctx.db
        .select({ total: sql<number>`count(*)` })
        .from(conversations)
        .innerJoin(clients, eq(clients.id, conversations.client_id))
        .leftJoin(campuses, eq(campuses.id, conversations.campus_id))
        .leftJoin(state, stateJoin(actor))
        .where(where),
    },
  );
  return {
    meta: page.meta,
    items: page.items.map((r) => ({
      id: r.id,
      subject: r.subject,
      summary: r.summary,
      date: new Date(r.last_message_at).toISOString(),
      status: r.status,
      client: { id: r.client_id, name: r.client_name },
      campus: r.campus_id ? { id: r.campus_id, name: r.campus_name ?? '' } : null,
      message_count: r.message_count,
      read: !r.unread,
      flagged: !!r.flagged,
      archived: !!r.archived,
    })),
  };
}

/** How many threads of the actor's inbox are unread (the mail icon's badge). */
export async function unreadCount(ctx: ActorCtx): Promise<number> {
  requirePermission(ctx.actor, 'read_message');
  if (ctx.actor.user_type !== 'company' && ctx.actor.user_type !== 'school') return 0;
  const [row] = await ctx.db
    .select({ count: sql<number>`count(*)` })
    .from(conversations)
    .leftJoin(state, stateJoin(ctx.actor))
    .where(and(visibleConversations(ctx.actor), inInbox, unreadFor(ctx.actor)));
  return Number(row?.count ?? 0);
}

export interface ThreadView {
  id: string;
  subject: string;
  status: string;
  date: string;
  client: { id: string; name: string };
  campus: { id: string; name: string } | null;
  policy_batch: { id: string } | null;
  policy: { id: string; policy_number: string } | null;
  invoice: { id: string; number: string } | null;
  started_by_side: string;
  message_count: number;
  flagged: boolean;
  archived: boolean;
}

/** One thread, and it is now read by the actor (opening it reads it). */
export async function getConversation(
  ctx: ActorCtx,
  id: string,
  opts: { markRead?: boolean } = {},
): Promise<ThreadView> {
  const thread = await findConversation(ctx, id, 'read_message');
  const [row] = await ctx.db
    .select({
      client_id: clients.public_id,
      client_name: clients.name,
      campus_id: sql<string | null>`${campuses.public_id}`.as('campus_public_id'),
      campus_name: sql<string | null>`${campuses.name}`.as('campus_name'),
      batch_id: sql<string | null>`${policyBatches.public_id}`.as('batch_public_id'),
      policy_id: sql<string | null>`${policies.public_id}`.as('policy_public_id'),
      policy_number: policies.policy_number,
      invoice_id: sql<string | null>`${invoices.public_id}`.as('invoice_public_id'),
      invoice_number: invoices.number,
      flagged: sql<number>`coalesce(${state.flagged}, 0)`.as('flagged'),
      archived: sql<number>`coalesce(${inArchive}, 0)`.as('archived'),
    })
    .from(conversations)
    .innerJoin(clients, eq(clients.id, conversations.client_id))
    .leftJoin(campuses, eq(campuses.id, conversations.campus_id))
    .leftJoin(policyBatches, eq(policyBatches.id, conversations.policy_batch_id))
    .leftJoin(policies, eq(policies.id, conversations.policy_id))
    .leftJoin(invoices, eq(invoices.id, conversations.invoice_id))
    .leftJoin(state, stateJoin(ctx.actor))
    .where(eq(conversations.id, thread.id))
    .limit(1);
  if (opts.markRead !== false) await setOwnState(ctx, id, { read: true });
  return {
    id: thread.public_id,
    subject: thread.subject,
    status: thread.status,
    date: thread.created_at.toISOString(),
    client: { id: row.client_id, name: row.client_name },
    campus: row.campus_id ? { id: row.campus_id, name: row.campus_name ?? '' } : null,
    policy_batch: row.batch_id ? { id: row.batch_id } : null,
    policy: row.policy_id ? { id: row.policy_id, policy_number: row.policy_number ?? '' } : null,
    invoice: row.invoice_id ? { id: row.invoice_id, number: row.invoice_number ?? '' } : null,
    started_by_side: thread.started_by_side,
    message_count: thread.message_count,
    flagged: !!row.flagged,
    archived: !!row.archived,
  };
}

export interface MessageView {
  id: string;
  body: string;
  date: string;
  side: string;
  author: string;
  mine: boolean;
  attachments: { id: string; name: string; size: number; content_type: string }[];
}

/** A thread's messages, oldest first, with their attachments. */
export async function listMessages(
  ctx: ActorCtx,
  id: string,
  query: { page: number; items: number },
): Promise<Page<MessageView>> {
  const thread = await findConversation(ctx, id, 'read_message');
  const where = eq(conversationMessages.conversation_id, thread.id);
  const page = await paginate(ctx.db, query, {
    rows: (limit, offset) =>
      ctx.db
        .select({
          id: conversationMessages.id,
          public_id: conversationMessages.public_id,
          body: conversationMessages.body,
          created_at: conversationMessages.created_at,
          side: conversationMessages.author_side,
          author_id: conversationMessages.author_id,
          first_name: users.first_name,
          last_name: users.last_name,
        })
        .from(conversationMessages)
        .innerJoin(users, eq(users.id, conversationMessages.author_id))
        .where(where)
        .orderBy(conversationMessages.created_at, conversationMessages.id)
        .limit(limit)
        .offset(offset),
    count: ctx.db
      .select({ total: sql<number>`count(*)` })
      .from(conversationMessages)
      .where(where),
  });
  const ids = page.items.map((m) => m.id);
  const files = ids.length
    ? await ctx.db
        .select()
        .from(messageAttachments)
        .where(
          and(
            eq(messageAttachments.conversation_id, thread.id),
            sql`${messageAttachments.message_id} in (select value from json_each(${JSON.stringify(ids)}))`,
          ),
        )
    : [];
  return {
    meta: page.meta,
    items: page.items.map((m) => ({
      id: m.public_id,
      body: m.body,
      date: new Date(m.created_at).toISOString(),
      side: m.side,
      author: `${m.first_name} ${m.last_name}`.trim(),
      mine: m.author_id === ctx.actor.user_id,
      attachments: files
        .filter((f) => f.message_id === m.id)
        .map((f) => ({ id: f.public_id, name: f.file_name, size: f.size, content_type: f.content_type })),
    })),
  };
}

/** An attachment of a message of a thread in the actor's scope, as a download. */
export async function downloadAttachment(
  ctx: ActorCtx,
  id: string,
  messageId: string,
  attachmentId?: string,
): Promise<Response> {
  const thread = await findConversation(ctx, id, 'read_message');
  const [message] = await ctx.db
    .select({ id: conversationMessages.id })
    .from(conversationMessages)
    .where(
      and(eq(conversationMessages.conversation_id, thread.id), eq(conversationMessages.public_id, messageId)),
    )
    .limit(1);
  if (!message) throw new NotFound();
  return attachmentDownload(ctx.db, ctx.env, thread.id, message.id, attachmentId);
}

export interface ThreadLink {
  id: string;
  subject: string;
  status: string;
  date: string;
}

/**
 * The threads the actor may read that are about an invoice or a policy (its page shows them); none for
 * an actor without read_message.
 */
export async function threadsAbout(
  ctx: ActorCtx,
  about: { invoice: string } | { policy: string },
): Promise<ThreadLink[]> {
  const side = ctx.actor.user_type;
  if (!can(ctx.actor, 'read_message') || (side !== 'company' && side !== 'school')) return [];
  const tie =
    'invoice' in about
      ? sql`${conversations.invoice_id} = (select ${invoices.id} from ${invoices} where ${invoices.public_id} = ${about.invoice})`
      : sql`${conversations.policy_id} = (select ${policies.id} from ${policies} where ${policies.public_id} = ${about.policy})`;
  const rows = await ctx.db
    .select({
      id: conversations.public_id,
      subject: conversations.subject,
      status: conversations.status,
      last_message_at: conversations.last_message_at,
    })
    .from(conversations)
    .where(and(tie, visibleConversations(ctx.actor)))
    .orderBy(desc(conversations.last_message_at))
    .limit(20);
  return rows.map(({ last_message_at, ...r }) => ({ ...r, date: new Date(last_message_at).toISOString() }));
}
