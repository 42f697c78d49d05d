/**
 * Changing the enrollments of a batch not yet checked out (spec 001 s.3-5 and s.8, spec 002 s.7 "Policy
 * batches and enrollments"): one applicant added or edited (refused with its errors, nothing stored),
 * many applicants added or validated through the API, family members linked to their student, group
 * leaders assigned, applicants deleted, batches moved between and deleted. Reading them is in
 * queries.ts, the order page's choices in order.ts.
 *
 * Every call takes public ids and looks them up in the actor's campus scope: an id of another tenant is
 * NotFound. Writes go through staging.ts or one all-or-nothing D1 batch, and end with revalidateBatch
 * so the rules across applicants (duplicates, family links, group leaders) stay right.
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { campuses, clients, contracts, enrollments, policyBatches } from '../../../drizzle/schema';
import type { EnrollmentError } from '../../../drizzle/schema/ordering-enums';
import { inJson, notInJson, runBatch, type Statement } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { visibleCampus } from '../access/scope';
import type { ActorCtx } from '../context';
import { ValidationFailed, type FieldError } from '../errors';
import { msg } from '../validation';
import {
  ORDER_PERMISSION,
  batchRules,
  createBatch,
  findVisibleBatch,
  orderableContract,
  requireEditable,
  type BatchRow,
  type EnrollmentRow,
} from './batches';
import { enrollmentValues, openBatch, revalidateBatch, stageEnrollments, type StagedRow } from './staging';
import type { Pricing } from './fees';
import {
  errorMessage,
  findVisibleEnrollments,
  getEnrollment,
  money,
  presentBatch,
  type BatchView,
  type EnrollmentView,
} from './queries';
import type { ApplicantItem } from './inputs';
import { batchErrors, type BatchMember, type RuleContext } from './rules';
import { APPLICANT_FIELDS, type ApplicantField } from './schema';

export { ORDER_PERMISSION };

type Prepared = { rules: RuleContext; pricing: Pricing };

// ---------------------------------------------------------------- adding and validating

/** The applicant fields of an API item or a form, as the rules read them. */
export function applicantRaw(item: Record<string, unknown>): StagedRow['raw'] {
  const raw: StagedRow['raw'] = {};
  for (const f of APPLICANT_FIELDS) if (item[f] !== undefined) raw[f] = item[f];
  return raw;
}

/** The stored applicant as the rules read it (what the user typed when it was not valid). */
function storedRaw(e: EnrollmentRow): Record<ApplicantField, string> {
  const raw = {} as Record<ApplicantField, string>;
  for (const f of APPLICANT_FIELDS) raw[f] = e[f] == null ? '' : String(e[f]);
  return raw;
}

const memberOf = (e: EnrollmentRow): BatchMember => ({
  key: e.id,
  type: e.type,
  first_name: e.first_name,
  last_name: e.last_name,
  date_of_birth: e.date_of_birth,
  start_date: e.start_date,
  end_date: e.end_date,
  dependency_key: e.dependency_id,
  group_leader_key: e.group_leader_id,
});

/** The member a raw applicant would be, for the rules across applicants (values as they would be stored). */
function candidateMember(
  key: string,
  fields: Record<string, unknown>,
  links: { dependency: number | string | null; leader: number | string | null },
): BatchMember {
  const f = fields as Record<string, string | null>;
  return {
    key,
    type: f.type ?? 'student',
    first_name: f.first_name ?? null,
    last_name: f.last_name ?? null,
    date_of_birth: f.date_of_birth ?? null,
    start_date: f.start_date ?? null,
    end_date: f.end_date ?? null,
    dependency_key: links.dependency,
    group_leader_key: links.leader,
  };
}

export interface ItemCheck {
  index: number;
  errors: EnrollmentError[];
  fee: { fee_minor: number; tax_minor: number; stamp_duty_minor: number } | null;
}

/**
 * Checks applicants against a batch's rules without storing anything: each item's own fields and the
 * product's limits, then the rules across the applicants (those already in the batch and the items).
 * Links name enrollments of the batch (`dependency_id`, `group_leader_id`) or other items (`*_index`).
 */
function checkItems(
  prepared: Prepared,
  existing: readonly EnrollmentRow[],
  items: readonly ApplicantItem[],
): { checks: ItemCheck[]; links: { dependency: number | string | null; leader: number | string | null }[] } {
  const byPublicId = new Map(existing.map((e) => [e.public_id, e.id]));
  const links = items.map((item) => {
    const link = (id: string | null | undefined, index: number | null | undefined) =>
      id ? (byPublicId.get(id) ?? `missing:${id}`) : index != null ? `item:${index}` : null;
    return {
      dependency: link(item.dependency_id, item.dependency_index),
      leader: link(item.group_leader_id, item.group_leader_index),
    };
  });
  const values = items.map((item) => enrollmentValues(applicantRaw(item), prepared));
  const members = [
    ...existing.map(memberOf),
    ...values.map((v, i) => candidateMember(`item:${i}`, v.fields, links[i]!)),
  ];
  const cross = batchErrors(members);
  const checks = values.map((v, i) => ({
    index: i,
    errors: [...v.errors, ...(cross.get(`item:${i}`) ?? [])],
    fee:
      v.fee_minor == null
        ? null
        : { fee_minor: v.fee_minor, tax_minor: v.tax_minor ?? 0, stamp_duty_minor: v.stamp_duty_minor ?? 0 },
  }));
  return { checks, links };
}

/** The field errors of one applicant for a form or the API (`row` errors keep the key `row`). */
export function fieldErrors(errors: readonly EnrollmentError[], prefix = ''): FieldError[] {
  return errors.map((e) => ({ key: `${prefix}${e.field}`, message: errorMessage(e) }));
}

async function batchMembers(ctx: ActorCtx, batchId: number, except?: number): Promise<EnrollmentRow[]> {
  return ctx.db
    .select()
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batchId), except ? ne(enrollments.id, except) : undefined));
}

async function nextPosition(ctx: ActorCtx, batchId: number): Promise<number> {
  const [row] = await ctx.db
    .select({ max: sql<number | null>`max(${enrollments.position})` })
    .from(enrollments)
    .where(eq(enrollments.batch_id, batchId));
  return Number(row?.max ?? 0) + 1;
}

/** A contract a campus may order under (public ids), with the rules and prices of its applicants. */
async function contractRules(ctx: ActorCtx, campusId: string, contractId: string) {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const { campus, contract } = await orderableContract(ctx, campusId, contractId);
  // batchRules reads only the batch's contract.
  const prepared = await batchRules(ctx, { contract_id: contract.contract_id } as BatchRow);
  return { campus, contract, prepared };
}

/**
 * campuses/{id}/policies/validate/single and validate/batch: the errors of each applicant for the
 * campus and the contract, nothing stored; with the fee of each valid one.
 */
export async function validateApplicants(
  ctx: ActorCtx,
  campusId: string,
  input: { contract_id: string; items: ApplicantItem[] },
) {
  const { prepared } = await contractRules(ctx, campusId, input.contract_id);
  const { checks } = checkItems(prepared, [], input.items);
  return checks.map((c) => ({
    index: c.index,
    valid: c.errors.length === 0,
    errors: c.errors,
    fee:
      c.fee && !c.errors.length
        ? money(c.fee.fee_minor, c.fee.tax_minor, prepared.pricing.currency, c.fee.stamp_duty_minor)
        : null,
  }));
}

/**
 * Adds applicants to a batch (policy-batches/{id}/enrollments/add, campuses/{id}/policies/add/batch).
 * With `validate_first`, any applicant with an error refuses them all and nothing is stored (the errors
 * come back per item as `items.{index}.{field}`); without it they are stored with their errors, to be
 * fixed later, as a spreadsheet's rows are.
 */
export async function addEnrollments(
  ctx: ActorCtx,
  batchOrId: BatchRow | string,
  input: { items: ApplicantItem[]; validate_first: boolean },
  prepared?: Prepared,
) {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const batch = typeof batchOrId === 'string' ? await findVisibleBatch(ctx, batchOrId) : batchOrId;
  requireEditable(batch);
  const ready = prepared ?? (await batchRules(ctx, batch));
  const existing = await batchMembers(ctx, batch.id);
  const { checks, links } = checkItems(ready, existing, input.items);
  const failing = checks.filter((c) => c.errors.length);
  // A link to an enrollment that is not in this batch is always refused: it cannot be stored.
  const badLinks: FieldError[] = [];
  links.forEach((l, i) => {
    if (typeof l.dependency === 'string' && l.dependency.startsWith('missing:'))
      badLinks.push({
        key: `items.${i}.dependency_id`,
        message: msg('enrollments.errors.dependency_required'),
      });
    if (typeof l.leader === 'string' && l.leader.startsWith('missing:'))
      badLinks.push({
        key: `items.${i}.group_leader_id`,
        message: msg('enrollments.errors.group_leader_invalid'),
      });
    for (const [field, v] of [
      ['dependency_index', l.dependency],
      ['group_leader_index', l.leader],
    ] as const)
      if (typeof v === 'string' && v.startsWith('item:') && Number(v.slice(5)) >= input.items.length)
        badLinks.push({ key: `items.${i}.${field}`, message: msg('validation.required') });
  });
  if (badLinks.length) throw new ValidationFailed(badLinks);
  if (input.validate_first && failing.length)
    throw new ValidationFailed(failing.flatMap((c) => fieldErrors(c.errors, `items.${c.index}.`)));
  const first = await nextPosition(ctx, batch.id);
  const positionOf = new Map(existing.map((e) => [e.id, e.position]));
  const toPosition = (v: number | string | null) =>
    v == null ? null : typeof v === 'number' ? (positionOf.get(v) ?? null) : first + Number(v.slice(5));
  const rows: StagedRow[] = input.items.map((item, i) => ({
    position: first + i,
    raw: applicantRaw(item),
    dependency_position: toPosition(links[i]!.dependency),
    group_leader_position: toPosition(links[i]!.leader),
  }));
  const result = await stageEnrollments(ctx, batch, rows, ready);
  const stored = await ctx.db
    .select({ id: enrollments.public_id, position: enrollments.position, errors: enrollments.errors })
    .from(enrollments)
    .where(and(eq(enrollments.batch_id, batch.id), sql`${enrollments.position} >= ${first}`))
    .orderBy(asc(enrollments.position));
  return {
    inserted: result.inserted,
    with_errors: stored.filter((s) => s.errors.length).length,
    items: stored.map((s) => ({ index: s.position - first, id: s.id, errors: s.errors })),
  };
}

/**
 * Adds one applicant to a draft or open batch, the one-by-one way: refused with its errors (on their
 * fields; `row` for a duplicate) when anything is wrong, nothing stored. A family member names the
 * student of the batch it travels with.
 */
export async function addApplicant(
  ctx: ActorCtx,
  batchId: string,
  input: { raw: Record<string, unknown>; dependency_id?: string | null },
): Promise<EnrollmentView> {
  const batch = await findVisibleBatch(ctx, batchId);
  const result = await addEnrollments(ctx, batch, {
    items: [{ ...applicantRaw(input.raw), dependency_id: input.dependency_id || null } as ApplicantItem],
    validate_first: true,
  }).catch((e) => {
    if (e instanceof ValidationFailed)
      throw new ValidationFailed(e.errors.map((x) => ({ ...x, key: x.key.replace(/^items\.\d+\./, '') })));
    throw e;
  });
  return getEnrollment(ctx, result.items[0]!.id);
}

/**
 * Changes an enrollment of a batch not yet checked out (enrollments/{id}/update, the add page's edit):
 * the fields given replace the stored ones, the rest stay; `dependency_id` / `group_leader_id` change
 * the links when given (null removes). The applicant is checked again and its fee recomputed, then the
 * rules across the batch. With `validateFirst` an applicant with errors is refused and nothing changes;
 * otherwise it is stored with its errors.
 */
export async function updateEnrollment(
  ctx: ActorCtx,
  id: string,
  input: Record<string, unknown> & { dependency_id?: string | null; group_leader_id?: string | null },
  opts: { validateFirst: boolean },
): Promise<EnrollmentView> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const [found] = await findVisibleEnrollments(ctx, [id]);
  const { enrollment, batch } = found!;
  requireEditable(batch);
  const prepared = await batchRules(ctx, batch);
  const others = await batchMembers(ctx, batch.id, enrollment.id);
  const raw = { ...storedRaw(enrollment), ...applicantRaw(input) };
  const resolve = (given: string | null | undefined, current: number | null, field: string) => {
    if (given === undefined) return current;
    if (!given) return null;
    const target = others.find((o) => o.public_id === given);
    if (!target)
      throw ValidationFailed.field(
        field,
        msg(
          field === 'dependency_id'
            ? 'enrollments.errors.dependency_required'
            : 'enrollments.errors.group_leader_invalid',
        ),
      );
    return target.id;
  };
  const dependencyId = resolve(input.dependency_id, enrollment.dependency_id, 'dependency_id');
  const leaderId = resolve(input.group_leader_id, enrollment.group_leader_id, 'group_leader_id');
  const values = enrollmentValues(raw, prepared);
  const cross = batchErrors([
    ...others.map(memberOf),
    candidateMember('self', values.fields, { dependency: dependencyId, leader: leaderId }),
  ]).get('self');
  const errors = [...values.errors, ...(cross ?? [])];
  if (opts.validateFirst && errors.length) throw new ValidationFailed(fieldErrors(errors));
  const fields: Record<string, unknown> = {};
  for (const f of APPLICANT_FIELDS) fields[f] = values.fields[f] ?? null;
  await ctx.db
    .update(enrollments)
    .set({
      ...(fields as Partial<EnrollmentRow>),
      dependency_id: dependencyId,
      group_leader_id: leaderId,
      errors: values.errors,
      error_count: values.errors.length,
      fee_minor: values.fee_minor,
      tax_minor: values.tax_minor,
      stamp_duty_minor: values.stamp_duty_minor,
      updated_at: ctx.now,
    })
    .where(eq(enrollments.id, enrollment.id));
  await revalidateBatch(ctx, batch.id);
  return getEnrollment(ctx, id);
}

// ---------------------------------------------------------------- links

/**
 * Links an immediate family member to the student of its batch it travels with (null removes the
 * link). Refused unless the member is an immediate family member and the student a student of the
 * same batch.
 */
export async function setDependency(
  ctx: ActorCtx,
  input: { enrollment_id: string; dependency_id: string | null },
): Promise<EnrollmentView> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const ids = input.dependency_id ? [input.enrollment_id, input.dependency_id] : [input.enrollment_id];
  const rows = await findVisibleEnrollments(ctx, ids);
  const member = rows.find((r) => r.enrollment.public_id === input.enrollment_id)!;
  requireEditable(member.batch);
  if (member.enrollment.type !== 'immediate_family')
    throw ValidationFailed.field('dependency_id', msg('enrollments.errors.dependency_only_family'));
  let studentId: number | null = null;
  if (input.dependency_id) {
    const student = rows.find((r) => r.enrollment.public_id === input.dependency_id)!;
    if (
      student.batch.id !== member.batch.id ||
      student.enrollment.type !== 'student' ||
      student.enrollment.id === member.enrollment.id
    )
      throw ValidationFailed.field('dependency_id', msg('enrollments.errors.dependency_required'));
    studentId = student.enrollment.id;
  }
  await ctx.db
    .update(enrollments)
    .set({ dependency_id: studentId, updated_at: ctx.now })
    .where(eq(enrollments.id, member.enrollment.id));
  await revalidateBatch(ctx, member.batch.id);
  return getEnrollment(ctx, input.enrollment_id);
}

/**
 * policies/group-leader/update for enrollments not yet checked out: gives the selected applicants of
 * one batch a group leader of that batch (null removes their leader). The leader must be a group
 * leader of the same batch and cannot lead itself.
 */
export async function assignGroupLeader(
  ctx: ActorCtx,
  input: { group_leader_id: string | null; enrollment_ids: string[] },
): Promise<{ updated: number }> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const rows = await findVisibleEnrollments(ctx, input.enrollment_ids);
  const batchIds = new Set(rows.map((r) => r.batch.id));
  if (batchIds.size !== 1) throw ValidationFailed.field('policies', msg('order.errors.one_batch'));
  const batch = rows[0]!.batch;
  requireEditable(batch);
  let leaderId: number | null = null;
  if (input.group_leader_id) {
    const [lead] = await findVisibleEnrollments(ctx, [input.group_leader_id]).catch(() => {
      throw ValidationFailed.field('group_leader_id', msg('enrollments.errors.group_leader_invalid'));
    });
    if (lead!.batch.id !== batch.id || lead!.enrollment.type !== 'group_leader')
      throw ValidationFailed.field('group_leader_id', msg('enrollments.errors.group_leader_invalid'));
    if (rows.some((r) => r.enrollment.id === lead!.enrollment.id))
      throw ValidationFailed.field('policies', msg('order.errors.group_leader_self'));
    leaderId = lead!.enrollment.id;
  }
  const ids = rows.map((r) => r.enrollment.id);
  await ctx.db
    .update(enrollments)
    .set({ group_leader_id: leaderId, updated_at: ctx.now })
    .where(and(eq(enrollments.batch_id, batch.id), inJson(enrollments.id, ids)));
  await revalidateBatch(ctx, batch.id);
  return { updated: ids.length };
}

// ---------------------------------------------------------------- deleting and moving

/**
 * Deletes enrollments of batches not yet checked out (enrollments/delete, the cart, the add page).
 * Immediate family members linked to a deleted student go with it (they cannot be bought without
 * it); applicants led by a deleted group leader lose their leader. A batch in the cart left without
 * enrollments is deleted too. All in one transaction; then the rules across each batch are re-checked.
 */
export async function deleteEnrollments(
  ctx: ActorCtx,
  ids: readonly string[],
): Promise<{ deleted: number; batches_deleted: string[] }> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const rows = await findVisibleEnrollments(ctx, ids);
  for (const r of rows) requireEditable(r.batch);
  const internal = rows.map((r) => r.enrollment.id);
  const batches = new Map(rows.map((r) => [r.batch.id, r.batch]));
  const batchIds = [...batches.keys()];
  const [{ dependants }] = (await ctx.db
    .select({ dependants: sql<number>`count(*)` })
    .from(enrollments)
    .where(and(inJson(enrollments.dependency_id, internal), notInJson(enrollments.id, internal)))) as [
    { dependants: number },
  ];
  const emptied = await ctx.db
    .select({ id: policyBatches.id, public_id: policyBatches.public_id })
    .from(policyBatches)
    .where(
      and(
        inJson(policyBatches.id, batchIds),
        eq(policyBatches.status, 'open'),
        sql`NOT EXISTS (SELECT 1 FROM enrollments e WHERE e.batch_id = ${policyBatches.id}
          AND ${notInJson(sql`e.id`, internal)}
          AND (e.dependency_id IS NULL OR ${notInJson(sql`e.dependency_id`, internal)}))`,
      ),
    );
  const now = ctx.now.getTime();
  const statements: Statement[] = [
    ctx.db.run(sql`UPDATE enrollments SET group_leader_id = NULL, updated_at = ${now}
      WHERE ${inJson(sql`batch_id`, batchIds)} AND ${inJson(sql`group_leader_id`, internal)}`),
    ctx.db.run(sql`DELETE FROM enrollments WHERE ${inJson(sql`batch_id`, batchIds)}
      AND (${inJson(sql`dependency_id`, internal)} OR ${inJson(sql`id`, internal)})`),
  ];
  if (emptied.length)
    statements.push(
      ctx.db.run(sql`DELETE FROM policy_batches WHERE ${inJson(
        sql`id`,
        emptied.map((b) => b.id),
      )}
        AND status = 'open'`),
    );
  await runBatch(ctx.db, statements);
  const gone = new Set(emptied.map((b) => b.id));
  for (const id of batchIds) if (!gone.has(id)) await revalidateBatch(ctx, id);
  return { deleted: internal.length + Number(dependants), batches_deleted: emptied.map((b) => b.public_id) };
}

/** policy-batches/{id} DELETE: a batch not yet checked out, with its enrollments. */
export async function deleteBatch(ctx: ActorCtx, id: string): Promise<void> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const batch = await findVisibleBatch(ctx, id);
  requireEditable(batch);
  await runBatch(ctx.db, [
    ctx.db.delete(enrollments).where(eq(enrollments.batch_id, batch.id)),
    ctx.db
      .delete(policyBatches)
      .where(and(eq(policyBatches.id, batch.id), inJson(policyBatches.status, ['draft', 'open']))),
  ]);
}

/**
 * enrollments/update-plan: moves enrollments into another batch (another product) of the same campus.
 * Each moved applicant is checked and priced again under the target's contract; links between moved and
 * staying applicants are removed (the rules then flag a family member left without its student); a batch
 * in the cart left empty is deleted.
 */
export async function updatePlan(
  ctx: ActorCtx,
  input: { batch_id: string; enrollment_ids: string[] },
): Promise<{ moved: number; policy_batch: BatchView }> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const target = await findVisibleBatch(ctx, input.batch_id);
  requireEditable(target);
  const rows = await findVisibleEnrollments(ctx, input.enrollment_ids);
  for (const r of rows) {
    requireEditable(r.batch);
    if (r.batch.campus_id !== target.campus_id)
      throw ValidationFailed.field('enrollment_ids', msg('order.errors.other_campus'));
  }
  const moving = rows.filter((r) => r.batch.id !== target.id);
  if (!moving.length) return { moved: 0, policy_batch: await presentBatch(ctx, target) };
  const prepared = await batchRules(ctx, target);
  const first = await nextPosition(ctx, target.id);
  const movingIds = new Set(moving.map((r) => r.enrollment.id));
  const sources = [...new Set(moving.map((r) => r.batch.id))];
  const records = moving.map((r, i) => {
    const v = enrollmentValues(storedRaw(r.enrollment), prepared);
    const keep = (link: number | null) => (link != null && movingIds.has(link) ? link : null);
    return {
      id: r.enrollment.id,
      position: first + i,
      errors: v.errors,
      fee_minor: v.fee_minor,
      tax_minor: v.tax_minor,
      stamp_duty_minor: v.stamp_duty_minor,
      dependency_id: keep(r.enrollment.dependency_id),
      group_leader_id: keep(r.enrollment.group_leader_id),
    };
  });
  const now = ctx.now.getTime();
  const moved = [...movingIds];
  const statements: Statement[] = [
    ctx.db.run(sql`UPDATE enrollments SET batch_id = ${target.id}, position = j.value->>'position',
        errors = j.value->'errors', error_count = json_array_length(j.value->'errors'),
        fee_minor = j.value->>'fee_minor', tax_minor = j.value->>'tax_minor',
        stamp_duty_minor = j.value->>'stamp_duty_minor',
        dependency_id = j.value->>'dependency_id', group_leader_id = j.value->>'group_leader_id',
        updated_at = ${now}
      FROM json_each(${JSON.stringify(records)}) AS j
      WHERE enrollments.id = j.value->>'id'`),
    // Staying applicants lose links to the moved ones.
    ctx.db.run(sql`UPDATE enrollments SET dependency_id = NULL, updated_at = ${now}
      WHERE ${inJson(sql`batch_id`, sources)} AND ${inJson(sql`dependency_id`, moved)}`),
    ctx.db.run(sql`UPDATE enrollments SET group_leader_id = NULL, updated_at = ${now}
      WHERE ${inJson(sql`batch_id`, sources)} AND ${inJson(sql`group_leader_id`, moved)}`),
    ctx.db.run(sql`DELETE FROM policy_batches WHERE ${inJson(sql`id`, sources)} AND status = 'open'
      AND NOT EXISTS (SELECT 1 FROM enrollments e WHERE e.batch_id = policy_batches.id)`),
  ];
  await runBatch(ctx.db, statements);
  await revalidateBatch(ctx, target.id);
  const left = await ctx.db
    .select({ id: policyBatches.id })
    .from(policyBatches)
    .where(inJson(policyBatches.id, sources));
  for (const b of left) await revalidateBatch(ctx, b.id);
  return { moved: moving.length, policy_batch: await presentBatch(ctx, target) };
}

// ---------------------------------------------------------------- batches

/** policy-batches/add: a draft batch under a contract; the contract names its campus. */
export async function addBatch(
  ctx: ActorCtx,
  input: { contract_id: string; contact_source?: string | null; conversation_id?: string | null },
): Promise<BatchView> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const [row] = await ctx.db
    .select({ campus_id: campuses.public_id })
    .from(contracts)
    .innerJoin(campuses, eq(campuses.id, contracts.campus_id))
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(and(eq(contracts.public_id, input.contract_id), visibleCampus(ctx.actor)))
    .limit(1);
  if (!row) throw ValidationFailed.field('contract_id', msg('contracts.errors.not_found'));
  const batch = await createBatch(ctx, {
    campus_id: row.campus_id,
    contract_id: input.contract_id,
    source: 'single',
    contact_source: input.contact_source ?? null,
    conversation_id: input.conversation_id ?? null,
  });
  return presentBatch(ctx, batch);
}

/** campuses/{id}/policies/add/batch: a new batch for the campus and contract with its applicants. */
export async function addBatchWithApplicants(
  ctx: ActorCtx,
  campusId: string,
  input: {
    contract_id: string;
    items: ApplicantItem[];
    validate_first: boolean;
    contact_source?: string | null;
    conversation_id?: string | null;
  },
) {
  const { prepared } = await contractRules(ctx, campusId, input.contract_id);
  if (input.validate_first) {
    const { checks } = checkItems(prepared, [], input.items);
    const failing = checks.filter((c) => c.errors.length);
    if (failing.length)
      throw new ValidationFailed(failing.flatMap((c) => fieldErrors(c.errors, `items.${c.index}.`)));
  }
  const batch = await createBatch(ctx, {
    campus_id: campusId,
    contract_id: input.contract_id,
    source: 'single',
    contact_source: input.contact_source ?? null,
    conversation_id: input.conversation_id ?? null,
  });
  try {
    const result = await addEnrollments(ctx, batch, { items: input.items, validate_first: false }, prepared);
    return { policy_batch: await presentBatch(ctx, batch), ...result };
  } catch (e) {
    // Nothing half-made: a batch whose applicants could not be stored goes too.
    await deleteBatch(ctx, batch.public_id);
    throw e;
  }
}

/** Whether the batch's insureds get the welcome email when it is issued (review step). */
export async function setWelcomeEmail(ctx: ActorCtx, id: string, send: boolean): Promise<void> {
  requirePermission(ctx.actor, ORDER_PERMISSION);
  const batch = await findVisibleBatch(ctx, id);
  requireEditable(batch);
  await ctx.db
    .update(policyBatches)
    .set({ send_welcome_email: send, updated_at: ctx.now })
    .where(eq(policyBatches.id, batch.id));
}

/** policy-batches/{id}/enrollments/confirm and the review's "Add to cart": the batch goes into the cart. */
export async function confirmBatch(ctx: ActorCtx, id: string): Promise<BatchView> {
  const batch = await findVisibleBatch(ctx, id);
  const opened = await openBatch(ctx, batch);
  return presentBatch(ctx, opened);
}

/** Whether a batch can still change (draft or in the cart); pages show a closed batch read-only. */
export function isEditable(batch: { status: string }): boolean {
  return batch.status === 'draft' || batch.status === 'open';
}
