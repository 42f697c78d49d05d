/**
 * Changes an insured's page makes without an amendment: edit personal details (one batch: the update,
 * the policy transaction of kind 'details' with the version guard, the activity-log row) and notes (one
 * policy's, or one note per selected insured in one batch from the list).
 */
import { and, eq } from 'drizzle-orm';
import { countries, notes, policies } from '../../../drizzle/schema';
import { bulkInsert, inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { findPolicy } from '../access/finders';
import { logActivities, logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { Conflict, ValidationFailed } from '../errors';
import type { BulkSelection } from '../list-query';
import { addNote, listNotes, noteFileResponse, type NoteOwner } from '../notes/service';
import { activityFeed } from '../activity/feed';
import type { NoteInput, NotesQuery } from '../notes/schema';
import { msg, todayIso } from '../validation';
import { selectedPolicyIds } from './filters';
import type { PolicyListQuery } from './list-query';
import { READ } from './service';
import { policyStatus } from './status';
import type { PolicyDetailsInput } from './schema';
import { POLICY_DETAIL_FIELDS, POLICY_NOTE_LIMIT } from './tabs';
import { recordChangeStatements } from './transactions';

export const UPDATE = 'update_insured';

const CANCELLED = () => msg('insureds.errors.cancelled_edit');

/**
 * Edit personal details of one insured. Refused for a cancelled insured ('You cannot edit cancelled
 * insureds'), for countries that do not exist, and when the policy changed since the form was read
 * (`version`). Only changed fields are written and recorded; nothing changed writes nothing.
 */
export async function updatePolicyDetails(
  ctx: ActorCtx,
  id: string,
  input: PolicyDetailsInput,
): Promise<{ changed: boolean; version: number }> {
  const p = await findPolicy(ctx, id, UPDATE);
  if (policyStatus(p, todayIso(ctx.now)) === 'cancelled') throw ValidationFailed.field('policy', CANCELLED());
  if (input.version !== undefined && input.version !== p.version)
    throw new Conflict(msg('insureds.errors.stale'));
  const countryIds = [input.residence_country_id, input.destination_country_id];
  const found = await ctx.db
    .select({ id: countries.id })
    .from(countries)
    .where(inJson(countries.id, countryIds));
  for (const key of ['residence_country_id', 'destination_country_id'] as const)
    if (!found.some((c) => c.id === input[key]))
      throw ValidationFailed.field(key, msg('enrollments.errors.country'));

  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const field of POLICY_DETAIL_FIELDS) {
    const next = input[field] ?? null;
    const prev = p[field] ?? null;
    if (next !== prev) {
      before[field] = prev;
      after[field] = next;
    }
  }
  if (!Object.keys(after).length) return { changed: false, version: p.version };
  await runBatch(ctx.db, [
    ctx.db
      .update(policies)
      .set(after as Partial<typeof policies.$inferInsert>)
      .where(and(eq(policies.id, p.id), eq(policies.version, p.version))),
    ...recordChangeStatements(ctx.db, {
      policy: p,
      kind: 'details',
      effectiveDate: todayIso(ctx.now),
      before,
      after,
      userId: ctx.actor.user_id,
      now: ctx.now,
    }),
    logActivity(ctx, {
      entity_type: 'policy',
      entity_id: p.id,
      action: 'details_updated',
      before,
      after,
      company_id: p.company_id,
      client_id: p.client_id,
    }),
  ]);
  return { changed: true, version: p.version + 1 };
}

const ownerOf = (p: { id: number; company_id: number; client_id: number }): NoteOwner => ({
  type: 'policy',
  id: p.id,
  company_id: p.company_id,
  client_id: p.client_id,
});

/** The notes of one insured. */
export async function policyNotes(ctx: ActorCtx, id: string, query: Partial<NotesQuery> = {}) {
  const p = await findPolicy(ctx, id, READ);
  return listNotes(ctx.db, ownerOf(p), query);
}

/** Adds a note (with an optional file) to one insured. */
export async function addPolicyNote(ctx: ActorCtx, id: string, input: NoteInput, file?: unknown) {
  const p = await findPolicy(ctx, id, UPDATE);
  return addNote(ctx, ownerOf(p), input, file);
}

/**
 * One note on each selected insured (ids, or all matching the list's filters), in one batch with their
 * activity-log rows. At most POLICY_NOTE_LIMIT insureds at once.
 */
export async function addPolicyNotes(
  ctx: ActorCtx,
  selection: BulkSelection,
  query: PolicyListQuery,
  input: NoteInput,
): Promise<{ added: number }> {
  requirePermission(ctx.actor, UPDATE);
  const ids = await selectedPolicyIds(ctx, selection, query);
  if (!ids.length) throw ValidationFailed.field('policies', msg('insureds.errors.none_selected'));
  if (ids.length > POLICY_NOTE_LIMIT)
    throw ValidationFailed.field('policies', msg('insureds.errors.too_many', { max: POLICY_NOTE_LIMIT }));
  const owners = await ctx.db
    .select({ id: policies.id, company_id: policies.company_id, client_id: policies.client_id })
    .from(policies)
    .where(inJson(policies.id, ids));
  const rows = owners.map((o) => ({
    owner_type: 'policy' as const,
    owner_id: o.id,
    title: input.title,
    note: input.note,
    date: input.date,
    source: input.source,
    type: input.type,
    requested_by: input.requested_by ?? null,
    requester_type: input.requester_type ?? null,
    message_link: input.message_link ?? null,
    created_by: ctx.actor.user_id,
    created_at: ctx.now,
    updated_at: ctx.now,
  }));
  await runBatch(ctx.db, [
    ...bulkInsert(ctx.db, notes, rows),
    ...logActivities(
      ctx,
      owners.map((o) => ({
        entity_type: 'policy',
        entity_id: o.id,
        action: 'note_added',
        after: { note_title: input.title, note_type: input.type, note_source: input.source },
        company_id: o.company_id,
        client_id: o.client_id,
      })),
    ),
  ]);
  return { added: owners.length };
}

/** A note's file of one insured (download). */
export async function policyNoteFile(ctx: ActorCtx, id: string, noteId: number): Promise<Response> {
  const p = await findPolicy(ctx, id, READ);
  return noteFileResponse(ctx, ownerOf(p), noteId);
}

/** The insured's activity-log rows (notes added, details changed, ...), newest first. */
export async function policyActivities(ctx: ActorCtx, id: string, page = 1) {
  const p = await findPolicy(ctx, id, READ);
  return activityFeed(ctx.db, 'policy', p.id, page);
}
