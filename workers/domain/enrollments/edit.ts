/**
 * Bulk link changes of a batch being prepared, for the import's link-dependents step: many family
 * members linked to their students in one write and one re-check of the batch (service.ts links one
 * at a time, which is right for the add page but not for a sheet with many families).
 */
import { and, eq, sql } from 'drizzle-orm';
import { enrollments } from '../../../drizzle/schema';
import { inJson, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import type { ActorCtx } from '../context';
import { ValidationFailed } from '../errors';
import { msg } from '../validation';
import { ORDER_PERMISSION, requireEditable, type BatchRow } from './batches';
import { revalidateBatch } from './staging';

/** The errors that the link steps (family members, group leaders) resolve, not the applicant's cells. */
export const LINK_ERROR_FIELDS: readonly string[] = ['dependency_id', 'group_leader_id'];

async function membersById(ctx: ActorCtx, batch: BatchRow, publicIds: string[]) {
  const unique = [...new Set(publicIds)];
  const rows = await ctx.db
    .select({ id: enrollments.id, public_id: enrollments.public_id, type: enrollments.type })
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batch.id), inJson(enrollments.public_id, unique)));
  return new Map(rows.map((r) => [r.public_id, { id: r.id, type: r.type }]));
}

/**
 * Links immediate family members to the student of the batch they belong to (`student` null unlinks).
 * Refused as a whole when a link names something else than a family member and a student of the batch.
 */
export async function linkDependents(
  ctx: ActorCtx,
  batch: BatchRow,
  links: { enrollment_id: string; student_id: string | null }[],
): Promise<void> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  requireEditable(batch);
  const members = await membersById(ctx, batch, [
    ...links.map((l) => l.enrollment_id),
    ...links.flatMap((l) => (l.student_id ? [l.student_id] : [])),
  ]);
  const errors = links.flatMap((l, i) => {
    const family = members.get(l.enrollment_id);
    const student = l.student_id ? members.get(l.student_id) : null;
    if (!family || family.type !== 'immediate_family')
      return [
        { key: `links[${i}].enrollment_id`, message: msg('enrollments.errors.dependency_only_family') },
      ];
    if (l.student_id && (!student || student.type !== 'student'))
      return [{ key: `links[${i}].student_id`, message: msg('enrollments.errors.dependency_required') }];
    return [];
  });
  if (errors.length) throw new ValidationFailed(errors);
  const set = JSON.stringify(
    links.map((l) => ({
      id: members.get(l.enrollment_id)!.id,
      dep: l.student_id ? members.get(l.student_id)!.id : null,
    })),
  );
  await runBatch(ctx.db, [
    // A materialized row set drives the update by id (an UPDATE ... FROM json_each scans the table).
    ctx.db.run(sql`WITH l AS MATERIALIZED (SELECT e.id AS id, j.value->>'dep' AS dep
        FROM json_each(${set}) AS j CROSS JOIN enrollments e
        WHERE e.id = j.value->>'id' AND e.batch_id = ${batch.id})
      UPDATE enrollments SET dependency_id = l.dep, updated_at = ${ctx.now.getTime()}
      FROM l WHERE enrollments.id = l.id`),
  ]);
  await revalidateBatch(ctx, batch.id);
}
