/**
 * Client states and transitions (spec 001 s.4): archive, reactivate, activate, delete, request
 * onboarding, and the status-update call; single and bulk. A bulk action applies to every selected client
 * the transition allows, in one batch with one activity-log row each, and names the ones it skipped.
 */
import { and, eq } from 'drizzle-orm';
import {
  campuses,
  clients,
  contacts,
  contracts,
  addresses,
  notes,
  serviceAgreements,
  users,
} from '../../../drizzle/schema';
import { inJson, runBatch, type DB, type Statement } from '../../platform/db';
import { deleteFiles } from '../../platform/storage';
import { requirePermission } from '../access/actor';
import { logActivities } from '../audit/activity-log';
import type { ActivityAction } from '../audit/actions';
import type { Permission } from '../access/permissions';
import type { ActorCtx } from '../context';
import { ValidationFailed } from '../errors';
import { msg } from '../validation';
import { clientListCondition } from './queries';
import {
  CLIENT_ACTION_RULES,
  canMoveClient,
  clientListQuerySchema,
  type ClientAction,
  type ClientBulkInput,
  type ClientStatus,
} from './schema';
import { findClient, type ClientRow } from '../access/finders';
import { visibleClients } from '../access/scope';

/** The permission each action needs. */
export const CLIENT_ACTION_PERMISSIONS: Record<ClientAction, Permission> = {
  archive: 'archive_client',
  reactivate: 'archive_client',
  activate: 'update_client',
  request_onboarding: 'update_client',
  delete: 'delete_client',
};

/** The log action of a move to each status. */
const LOG_ACTIONS: Partial<Record<ClientStatus, ActivityAction>> = {
  archived: 'archived',
  pending_onboarding: 'onboarding_requested',
};

const ACTION_LOG: Record<Exclude<ClientAction, 'delete'>, ActivityAction> = {
  archive: 'archived',
  reactivate: 'reactivated',
  activate: 'activated',
  request_onboarding: 'onboarding_requested',
};

const words = (status: string) => status.replace(/_/g, ' ');

/** Why a client cannot take an action (a message key), or null when it can. */
export function refusal(
  client: Pick<ClientRow, 'status'>,
  action: Exclude<ClientAction, 'delete'>,
): string | null {
  const rule = CLIENT_ACTION_RULES[action];
  if (client.status === rule.to) return msg('clients.errors.already', { status: words(rule.to) });
  if (!rule.from.includes(client.status))
    return msg('clients.errors.cannot_move', { from: words(client.status), to: words(rule.to) });
  return null;
}

/** Clients that have campuses, agreements, contracts or users cannot be deleted (archive them instead). */
async function withDependants(db: DB, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const [a, b, c, d] = await db.batch([
    db.selectDistinct({ id: campuses.client_id }).from(campuses).where(inJson(campuses.client_id, ids)),
    db
      .selectDistinct({ id: serviceAgreements.client_id })
      .from(serviceAgreements)
      .where(inJson(serviceAgreements.client_id, ids)),
    db.selectDistinct({ id: contracts.client_id }).from(contracts).where(inJson(contracts.client_id, ids)),
    db.selectDistinct({ id: users.client_id }).from(users).where(inJson(users.client_id, ids)),
  ]);
  const blocked = new Set<number>();
  for (const r of [...a, ...b, ...c, ...d]) if (r.id) blocked.add(r.id);
  return blocked;
}

function statusStatements(
  ctx: ActorCtx,
  rows: ClientRow[],
  to: ClientStatus,
  logAction: ActivityAction,
): Statement[] {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  return [
    ctx.db.update(clients).set({ status: to, updated_at: ctx.now }).where(inJson(clients.id, ids)),
    ...logActivities(
      ctx,
      rows.map((r) => ({
        entity_type: 'client',
        entity_id: r.id,
        action: logAction,
        before: { status: r.status },
        after: { status: to },
        company_id: r.company_id,
        client_id: r.id,
      })),
    ),
  ];
}

async function deleteStatements(ctx: ActorCtx, rows: ClientRow[]) {
  if (!rows.length) return { statements: [] as Statement[], fileKeys: [] as string[] };
  const ids = rows.map((r) => r.id);
  const fileKeys: string[] = rows
    .flatMap((r) => [r.logo_key, r.return_policy_key])
    .filter((k): k is string => !!k);
  const noteFiles = await ctx.db
    .select({ key: notes.file_key })
    .from(notes)
    .where(and(eq(notes.owner_type, 'client'), inJson(notes.owner_id, ids)));
  fileKeys.push(...noteFiles.map((n) => n.key).filter((k): k is string => !!k));
  const statements: Statement[] = [
    ctx.db.delete(contacts).where(and(eq(contacts.owner_type, 'client'), inJson(contacts.owner_id, ids))),
    ctx.db.delete(addresses).where(and(eq(addresses.owner_type, 'client'), inJson(addresses.owner_id, ids))),
    ctx.db.delete(notes).where(and(eq(notes.owner_type, 'client'), inJson(notes.owner_id, ids))),
    ctx.db.delete(clients).where(inJson(clients.id, ids)),
    ...logActivities(
      ctx,
      rows.map((r) => ({
        entity_type: 'client',
        entity_id: r.id,
        action: 'deleted',
        before: { name: r.name, status: r.status, type: r.type },
        after: null,
        company_id: r.company_id,
        client_id: r.id,
      })),
    ),
  ];
  return { statements, fileKeys };
}

export interface ActionResult {
  action: ClientAction;
  /** How many clients changed. */
  done: number;
  /** Clients left as they were, with the reason (a message key). */
  skipped: { id: string; name: string; reason: string }[];
}

/** Applies an action to clients already found in scope: eligible ones in one batch, the rest skipped. */
async function apply(ctx: ActorCtx, rows: ClientRow[], action: ClientAction): Promise<ActionResult> {
  requirePermission(ctx.actor, CLIENT_ACTION_PERMISSIONS[action]);
  const skipped: ActionResult['skipped'] = [];
  const eligible: ClientRow[] = [];
  if (action === 'delete') {
    const blocked = await withDependants(
      ctx.db,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      if (blocked.has(r.id))
        skipped.push({ id: r.public_id, name: r.name, reason: msg('clients.errors.delete_has_dependants') });
      else eligible.push(r);
    }
    const { statements, fileKeys } = await deleteStatements(ctx, eligible);
    await runBatch(ctx.db, statements);
    await deleteFiles(ctx.env.FILES, fileKeys);
  } else {
    for (const r of rows) {
      const reason = refusal(r, action);
      if (reason) skipped.push({ id: r.public_id, name: r.name, reason });
      else eligible.push(r);
    }
    const rule = CLIENT_ACTION_RULES[action];
    await runBatch(ctx.db, statusStatements(ctx, eligible, rule.to, ACTION_LOG[action]));
  }
  return { action, done: eligible.length, skipped };
}

/**
 * One client, one action (the client page's buttons). A refused transition or a delete of a client with
 * campuses, agreements, contracts or users is a validation error with the reason.
 */
export async function applyClientAction(
  ctx: ActorCtx,
  id: string,
  action: ClientAction,
): Promise<ActionResult> {
  const client = await findClient(ctx, id, CLIENT_ACTION_PERMISSIONS[action]);
  const result = await apply(ctx, [client], action);
  if (result.skipped.length) throw ValidationFailed.field('status', result.skipped[0].reason);
  return result;
}

/**
 * PATCH clients/{id}/status with a status: the move must be one the states allow (spec 001 s.4).
 * Archiving and un-archiving need archive_client; other moves update_client.
 */
export async function setClientStatus(ctx: ActorCtx, id: string, status: ClientStatus) {
  const needs: Permission = status === 'archived' ? 'archive_client' : 'update_client';
  const client = await findClient(ctx, id, needs);
  if (client.status === 'archived' && status === 'active') requirePermission(ctx.actor, 'archive_client');
  if (client.status === status)
    throw ValidationFailed.field('status', msg('clients.errors.already', { status: words(status) }));
  if (!canMoveClient(client.status, status))
    throw ValidationFailed.field(
      'status',
      msg('clients.errors.cannot_move', { from: words(client.status), to: words(status) }),
    );
  const logAction: ActivityAction =
    LOG_ACTIONS[status] ??
    (status === 'active'
      ? ['archived', 'suspended'].includes(client.status)
        ? 'reactivated'
        : 'activated'
      : 'status_changed');
  await runBatch(ctx.db, statusStatements(ctx, [client], status, logAction));
  return { id: client.public_id, status };
}

/** The most clients one bulk action touches. */
export const BULK_LIMIT = 10_000;

/**
 * The clients a bulk action acts on: the selected ids (public) or every client matching the list
 * filters, among those the actor may see (others are not named). None is a refusal on `ids`.
 */
export async function selectedClients(
  ctx: ActorCtx,
  input: Pick<ClientBulkInput, 'ids' | 'all_matching' | 'filters'>,
): Promise<ClientRow[]> {
  let rows: ClientRow[] = [];
  if (input.all_matching) {
    const filters = clientListQuerySchema.parse(input.filters ?? {});
    rows = await ctx.db
      .select()
      .from(clients)
      .where(clientListCondition(ctx.actor, filters))
      .limit(BULK_LIMIT);
  } else {
    const ids = [...new Set(input.ids ?? [])].slice(0, BULK_LIMIT);
    if (!ids.length) throw ValidationFailed.field('ids', msg('clients.errors.nothing_selected'));
    rows = await ctx.db
      .select()
      .from(clients)
      .where(and(inJson(clients.public_id, ids), visibleClients(ctx.actor)));
  }
  if (!rows.length) throw ValidationFailed.field('ids', msg('clients.errors.nothing_selected'));
  return rows;
}

/**
 * A bulk action over the selected ids (public) or every client matching the list filters. Clients the
 * actor cannot see are not touched (and not named).
 */
export async function bulkClientAction(ctx: ActorCtx, input: ClientBulkInput): Promise<ActionResult> {
  requirePermission(ctx.actor, CLIENT_ACTION_PERMISSIONS[input.action]);
  const rows = await selectedClients(ctx, input);
  return apply(ctx, rows, input.action);
}
