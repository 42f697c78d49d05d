/**
 * Conversations between the insurer's staff and a school (spec 001 s.3-6, 002 s.7): start one (with a
 * first message and attachments), reply, change the status, and each reader's own flagged / archived /
 * unread state. Permissions: read_message to read, create_message to start, reply_message to reply and
 * set the status. The tenant scope is `visibleConversations` (access/scope.ts): another tenant's thread
 * answers "not found".
 *
 * Status: a reply reopens a resolved thread, and a school reply also ends "waiting on the client".
 */
import { and, eq, sql } from 'drizzle-orm';
import {
  conversationMessages,
  conversations,
  conversationStates,
  invoices,
  messageAttachments,
  type ConversationStatus,
} from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { runBatch, type Statement } from '../../platform/db';
import { requirePermission, type Actor } from '../access/actor';
import { findClient, findCampus, findPolicy } from '../access/finders';
import { seesAllCampuses, visibleConversations, visibleInvoices } from '../access/scope';
import type { ActorCtx } from '../context';
import { findVisibleBatch } from '../enrollments/batches';
import { NotFound, ValidationFailed } from '../errors';
import { flushOutbox } from '../outbox/service';
import { msg } from '../validation';
import { attachmentRows, removeStored, storeAttachments } from './attachments';
import { messageAlerts } from './notify';
import type { AddMessageInput, BulkStartInput, StartConversationInput } from './schema';

export type ConversationRow = typeof conversations.$inferSelect;
export type Side = 'company' | 'school';

const PREVIEW = 140;

/** The side the actor writes for; student users have no message centre. */
export function sideOf(actor: Actor): Side {
  if (actor.user_type === 'company') return 'company';
  if (actor.user_type === 'school') return 'school';
  throw new NotFound();
}

/** A conversation by public id in the actor's scope, if they hold `permission`; otherwise NotFound. */
export async function findConversation(
  ctx: ActorCtx,
  id: string,
  permission: 'read_message' | 'create_message' | 'reply_message',
): Promise<ConversationRow> {
  requirePermission(ctx.actor, permission);
  sideOf(ctx.actor);
  const [row] = await ctx.db
    .select()
    .from(conversations)
    .where(and(eq(conversations.public_id, id), visibleConversations(ctx.actor)))
    .limit(1);
  if (!row) throw new NotFound(msg('conversations.errors.not_found'));
  return row;
}

const authorName = (actor: Actor) => `${actor.first_name} ${actor.last_name}`.trim();
const preview = (body: string) => body.replace(/\s+/g, ' ').slice(0, PREVIEW);
const filesOf = (input: { attachments: Blob[]; 'attachments[]'?: Blob[] }) => [
  ...input.attachments,
  ...(input['attachments[]'] ?? []),
];

/** The author's own state after writing: read now, not marked unread. */
function authorState(ctx: ActorCtx, conversationId: number): Statement {
  return ctx.db
    .insert(conversationStates)
    .values({
      user_id: ctx.actor.user_id,
      conversation_id: conversationId,
      read_at: ctx.now,
      updated_at: ctx.now,
    })
    .onConflictDoUpdate({
      target: [conversationStates.user_id, conversationStates.conversation_id],
      set: { read_at: ctx.now, marked_unread: false, updated_at: ctx.now },
    });
}

interface Ties {
  company_id: number;
  client_id: number;
  campus_id: number | null;
  policy_batch_id: number | null;
  policy_id: number | null;
  invoice_id: number | null;
}

/** The client, campus and optional batch / policy / invoice of a new thread, each in the actor's scope. */
async function resolveTies(
  ctx: ActorCtx,
  input: Omit<StartConversationInput, 'subject' | 'message'>,
): Promise<Ties> {
  const side = sideOf(ctx.actor);
  let companyId: number;
  let clientId: number;
  let campusId: number | null = null;
  if (input.campus_id) {
    const { campus, client } = await findCampus(ctx, input.campus_id, 'create_message').catch(() => {
      throw ValidationFailed.field('campus_id', msg('conversations.errors.campus_not_found'));
    });
    if (input.client_id && input.client_id !== client.public_id) {
      throw ValidationFailed.field('campus_id', msg('conversations.errors.campus_not_found'));
    }
    companyId = client.company_id;
    clientId = client.id;
    campusId = campus.id;
  } else {
    const ref = side === 'school' ? ctx.actor.client_id : input.client_id;
    if (!ref) throw ValidationFailed.field('client_id', msg('validation.required'));
    const client = await findClient(ctx, ref, 'create_message').catch(() => {
      throw ValidationFailed.field('client_id', msg('conversations.errors.client_not_found'));
    });
    // A campus employee speaks for their campuses only: they name one.
    if (side === 'school' && !seesAllCampuses(ctx.actor)) {
      throw ValidationFailed.field('campus_id', msg('validation.required'));
    }
    companyId = client.company_id;
    clientId = client.id;
  }
  const ties: Ties = {
    company_id: companyId,
    client_id: clientId,
    campus_id: campusId,
    policy_batch_id: null,
    policy_id: null,
    invoice_id: null,
  };
  const sameTenant = (row: { client_id: number; campus_id: number | null }) =>
    row.client_id === clientId && (campusId === null || row.campus_id === campusId);
  const refuse = (field: string) => ValidationFailed.field(field, msg('conversations.errors.tie_not_found'));
  if (input.policy_batch_id) {
    const batch = await findVisibleBatch(ctx, input.policy_batch_id).catch(() => {
      throw refuse('policy_batch_id');
    });
    if (!sameTenant(batch)) throw refuse('policy_batch_id');
    ties.policy_batch_id = batch.id;
  }
  if (input.policy_id) {
    const policy = await findPolicy(ctx, input.policy_id, 'read_message').catch(() => {
      throw refuse('policy_id');
    });
    if (!sameTenant(policy)) throw refuse('policy_id');
    ties.policy_id = policy.id;
  }
  if (input.invoice_id) {
    const [invoice] = await ctx.db
      .select({ id: invoices.id, client_id: invoices.client_id, campus_id: invoices.campus_id })
      .from(invoices)
      .where(and(eq(invoices.public_id, input.invoice_id), visibleInvoices(ctx.actor)))
      .limit(1);
    if (!invoice || !sameTenant(invoice)) throw refuse('invoice_id');
    ties.invoice_id = invoice.id;
  }
  return ties;
}

/**
 * Starts a conversation with its first message and attachments, in one batch with the emails to the
 * other side. Files are checked and stored first and removed again if the batch fails.
 */
export async function startConversation(
  ctx: ActorCtx,
  input: StartConversationInput,
): Promise<{ id: string; message_id: string }> {
  requirePermission(ctx.actor, 'create_message');
  const side = sideOf(ctx.actor);
  const ties = await resolveTies(ctx, input);
  const threadId = publicId();
  const stored = await storeAttachments(ctx.env, threadId, filesOf(input));
  try {
    const [thread] = await ctx.db
      .insert(conversations)
      .values({
        public_id: threadId,
        ...ties,
        subject: input.subject,
        status: 'open',
        started_by: ctx.actor.user_id,
        started_by_side: side,
        message_count: 0,
        last_message_at: ctx.now,
        created_at: ctx.now,
        updated_at: ctx.now,
      })
      .returning({ id: conversations.id });
    try {
      const messageId = await writeMessage(
        ctx,
        { ...ties, id: thread.id, public_id: threadId, subject: input.subject, status: 'open' },
        input.message,
        stored,
      );
      return { id: threadId, message_id: messageId };
    } catch (e) {
      await ctx.db.delete(conversations).where(eq(conversations.id, thread.id));
      throw e;
    }
  } catch (e) {
    await removeStored(ctx.env, stored);
    throw e;
  }
}

/** Adds a reply with attachments; reopens a resolved thread (and a school reply ends "waiting"). */
export async function addMessage(ctx: ActorCtx, id: string, input: AddMessageInput): Promise<{ id: string }> {
  const thread = await findConversation(ctx, id, 'reply_message');
  const stored = await storeAttachments(ctx.env, thread.public_id, filesOf(input));
  try {
    return { id: await writeMessage(ctx, thread, input.message, stored) };
  } catch (e) {
    await removeStored(ctx.env, stored);
    throw e;
  }
}

/**
 * The message, its attachments, the thread's summary, the author's state, the notifications and the
 * emails: one batch.
 */
async function writeMessage(
  ctx: ActorCtx,
  thread: Pick<
    ConversationRow,
    'id' | 'public_id' | 'subject' | 'company_id' | 'client_id' | 'campus_id' | 'status'
  >,
  body: string,
  stored: Awaited<ReturnType<typeof storeAttachments>>,
): Promise<string> {
  const side = sideOf(ctx.actor);
  const messagePublicId = publicId();
  const alerts = await messageAlerts(ctx.db, ctx.env, ctx.now, thread, {
    author_side: side,
    author_id: ctx.actor.user_id,
    author_name: authorName(ctx.actor),
    body,
  });
  const status: ConversationStatus =
    thread.status === 'resolved' || (side === 'school' && thread.status === 'waiting_on_client')
      ? 'open'
      : thread.status;
  const insert = ctx.db
    .insert(conversationMessages)
    .values({
      public_id: messagePublicId,
      conversation_id: thread.id,
      author_id: ctx.actor.user_id,
      author_side: side,
      body,
      created_at: ctx.now,
    })
    .returning({ id: conversationMessages.id });
  const messageIdOf = sql`(select ${conversationMessages.id} from ${conversationMessages} where ${conversationMessages.public_id} = ${messagePublicId})`;
  const statements: Statement[] = [
    insert,
    ...(stored.length
      ? [ctx.db.insert(messageAttachments).values(attachmentRows(stored, thread.id, messageIdOf, ctx.now))]
      : []),
    ctx.db
      .update(conversations)
      .set({
        status,
        message_count: sql`${conversations.message_count} + 1`,
        last_message_preview: preview(body),
        last_message_at: ctx.now,
        ...(side === 'company' ? { last_company_message_at: ctx.now } : { last_school_message_at: ctx.now }),
        updated_at: ctx.now,
      })
      .where(eq(conversations.id, thread.id)),
    authorState(ctx, thread.id),
    ...alerts,
  ];
  await runBatch(ctx.db, statements);
  if (alerts.length) {
    try {
      await flushOutbox(ctx.db, ctx.env, ctx.now);
    } catch (e) {
      console.warn('Message emails are left for the outbox cron: the queue refused them', e);
    }
  }
  return messagePublicId;
}

/** Staff's "send message" to several clients: one conversation per client, checked whole first. */
export async function startForClients(ctx: ActorCtx, input: BulkStartInput): Promise<{ ids: string[] }> {
  requirePermission(ctx.actor, 'create_message');
  if (sideOf(ctx.actor) !== 'company') throw new NotFound();
  const clients = [];
  for (const ref of new Set(input.client_ids)) {
    clients.push(
      await findClient(ctx, ref, 'create_message').catch(() => {
        throw ValidationFailed.field('client_ids', msg('conversations.errors.client_not_found'));
      }),
    );
  }
  const ids: string[] = [];
  for (const client of clients) {
    const started = await startConversation(ctx, {
      subject: input.subject,
      message: input.message,
      client_id: client.public_id,
      attachments: [],
    });
    ids.push(started.id);
  }
  return { ids };
}

/** Sets the status (open, waiting on the client, resolved). */
export async function setStatus(ctx: ActorCtx, id: string, status: ConversationStatus): Promise<void> {
  const thread = await findConversation(ctx, id, 'reply_message');
  await ctx.db
    .update(conversations)
    .set({ status, updated_at: ctx.now })
    .where(eq(conversations.id, thread.id));
}

/** Changes the actor's own view of a thread: read, marked unread, flagged, archived. */
export async function setOwnState(
  ctx: ActorCtx,
  id: string,
  change: { read?: boolean; unread?: boolean; flagged?: boolean; archived?: boolean },
): Promise<void> {
  const thread = await findConversation(ctx, id, 'read_message');
  const set: Partial<typeof conversationStates.$inferInsert> = { updated_at: ctx.now };
  if (change.read) Object.assign(set, { read_at: ctx.now, marked_unread: false });
  if (change.unread) set.marked_unread = true;
  if (change.flagged !== undefined) set.flagged = change.flagged;
  if (change.archived !== undefined) set.archived_at = change.archived ? ctx.now : null;
  await ctx.db
    .insert(conversationStates)
    .values({ user_id: ctx.actor.user_id, conversation_id: thread.id, ...set })
    .onConflictDoUpdate({ target: [conversationStates.user_id, conversationStates.conversation_id], set });
}
