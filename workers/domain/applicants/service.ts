/**
 * Partner applicants (spec 000 s.2 `/insured-applicants`; 002 s.7 `GET insured-applicants`): the people
 * the health-insurance partner refers for cover, as it sends them (docs/decisions/api-and-partners.md,
 * "Partner applicants"). Read by holders of read_partner_applicants within the companies in view; sent by
 * the partner with an API key holding update_partner_applicants.
 */
import { and, desc, eq, gte, lt, ne, sql, type SQL } from 'drizzle-orm';
import { partnerApplicants, policies } from '../../../drizzle/schema';
import { publicId } from '../../platform/crypto';
import { idByPublicId, runBatch } from '../../platform/db';
import { requirePermission } from '../access/actor';
import { companyForNewRecord } from '../access/finders';
import { visiblePartnerApplicants } from '../access/scope';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { ValidationFailed } from '../errors';
import { countAll, likeAny, paginate, type Page } from '../lists';
import { msg } from '../validation';
import type { PartnerApplicantInput, PartnerApplicantsQuery } from './schema';
import {
  PARTNER_APPLICANTS_EXPORT_MAX,
  READ_PARTNER_APPLICANTS,
  SEND_PARTNER_APPLICANTS,
  type PartnerApplicantStatus,
} from './values';

export interface PartnerApplicantView {
  id: string;
  partner_reference: string;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  email: string | null;
  nationality: string | null;
  school_name: string | null;
  start_date: string;
  end_date: string;
  status: PartnerApplicantStatus;
  /** The policy the applicant carries, once enrolled. */
  policy: { id: string; policy_number: string } | null;
  received_at: string;
  updated_at: string;
}

const columns = {
  applicant: partnerApplicants,
  policy_public_id: sql<string | null>`${policies.public_id}`.as('policy_public_id'),
  policy_number: sql<string | null>`${policies.policy_number}`.as('policy_number'),
};

function present(r: {
  applicant: typeof partnerApplicants.$inferSelect;
  policy_public_id: string | null;
  policy_number: string | null;
}): PartnerApplicantView {
  const a = r.applicant;
  return {
    id: a.public_id,
    partner_reference: a.partner_reference,
    first_name: a.first_name,
    last_name: a.last_name,
    date_of_birth: a.date_of_birth,
    email: a.email,
    nationality: a.nationality,
    school_name: a.school_name,
    start_date: a.start_date,
    end_date: a.end_date,
    status: a.status,
    policy:
      r.policy_public_id && r.policy_number
        ? { id: r.policy_public_id, policy_number: r.policy_number }
        : null,
    received_at: a.created_at.toISOString(),
    updated_at: a.updated_at.toISOString(),
  };
}

/** Received on a day, as UTC epoch ms bounds. */
const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
const dayAfter = (day: string) => new Date(dayStart(day).getTime() + 86_400_000);

function where(ctx: ActorCtx, q: PartnerApplicantsQuery): SQL {
  return and(
    visiblePartnerApplicants(ctx.actor),
    q.status ? eq(partnerApplicants.status, q.status) : undefined,
    q.from ? gte(partnerApplicants.created_at, dayStart(q.from)) : undefined,
    q.to ? lt(partnerApplicants.created_at, dayAfter(q.to)) : undefined,
    likeAny(
      [
        sql`${partnerApplicants.first_name} || ' ' || ${partnerApplicants.last_name}`,
        partnerApplicants.email,
        partnerApplicants.partner_reference,
        partnerApplicants.school_name,
      ],
      q.search,
    ),
  )!;
}

function select(ctx: ActorCtx) {
  return ctx.db
    .select(columns)
    .from(partnerApplicants)
    .leftJoin(policies, eq(policies.id, partnerApplicants.policy_id));
}

/** GET insured-applicants and /insured-applicants: newest first, a page at a time. */
export async function listPartnerApplicants(
  ctx: ActorCtx,
  q: PartnerApplicantsQuery,
): Promise<Page<PartnerApplicantView>> {
  requirePermission(ctx.actor, READ_PARTNER_APPLICANTS);
  const w = where(ctx, q);
  const page = await paginate(ctx.db, q, {
    rows: (limit, offset) =>
      select(ctx)
        .where(w)
        .orderBy(desc(partnerApplicants.created_at), desc(partnerApplicants.id))
        .limit(limit)
        .offset(offset),
    count: ctx.db.select({ total: countAll }).from(partnerApplicants).where(w),
  });
  return { ...page, items: page.items.map(present) };
}

/** The export of the list's search: every matching applicant, newest first, up to one sheet's worth. */
export async function exportPartnerApplicants(ctx: ActorCtx, q: PartnerApplicantsQuery) {
  requirePermission(ctx.actor, READ_PARTNER_APPLICANTS);
  const rows = await select(ctx)
    .where(where(ctx, q))
    .orderBy(desc(partnerApplicants.created_at), desc(partnerApplicants.id))
    .limit(PARTNER_APPLICANTS_EXPORT_MAX);
  return rows.map(present);
}

/**
 * The company's policy for the same person and trip start (names compared without case), not
 * cancelled: the policy an applicant carries once the school has enrolled them.
 */
async function policyFor(ctx: ActorCtx, companyId: number, input: PartnerApplicantInput) {
  const [row] = await ctx.db
    .select({ id: policies.id })
    .from(policies)
    .where(
      and(
        eq(policies.company_id, companyId),
        eq(policies.date_of_birth, input.date_of_birth),
        eq(policies.start_date, input.start_date),
        sql`lower(${policies.first_name}) = lower(${input.first_name})`,
        sql`lower(${policies.last_name}) = lower(${input.last_name})`,
        ne(policies.status, 'cancelled'),
      ),
    )
    .orderBy(desc(policies.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * POST insured-applicants: the partner sends one applicant. A new reference adds a row (`created`); a
 * reference already received updates it, so the partner may send again whatever changed. Either way the
 * applicant is matched to the company's policies, and carries the one found (`enrolled`).
 */
export async function receivePartnerApplicant(
  ctx: ActorCtx,
  input: PartnerApplicantInput,
): Promise<{ applicant: PartnerApplicantView; created: boolean }> {
  requirePermission(ctx.actor, SEND_PARTNER_APPLICANTS);
  const companyId = companyForNewRecord(ctx.actor, input.company_id);
  if (typeof companyId !== 'number')
    throw ValidationFailed.field('company_id', msg(`partner_applicants.errors.company_${companyId}`));
  const [existing] = await ctx.db
    .select()
    .from(partnerApplicants)
    .where(
      and(
        eq(partnerApplicants.company_id, companyId),
        eq(partnerApplicants.partner_reference, input.partner_reference),
      ),
    )
    .limit(1);
  const policyId = await policyFor(ctx, companyId, input);
  const values = {
    first_name: input.first_name,
    last_name: input.last_name,
    date_of_birth: input.date_of_birth,
    email: input.email ?? null,
    nationality: input.nationality ?? null,
    school_name: input.school_name ?? null,
    start_date: input.start_date,
    end_date: input.end_date,
    status: (policyId ? 'enrolled' : 'pending') as PartnerApplicantStatus,
    policy_id: policyId,
    api_key_id: ctx.actor.api_key_id,
    updated_at: ctx.now,
  };
  const id = existing?.public_id ?? publicId();
  const logged = { ...values, api_key_id: undefined, updated_at: undefined };
  await runBatch(ctx.db, [
    existing
      ? ctx.db.update(partnerApplicants).set(values).where(eq(partnerApplicants.id, existing.id))
      : ctx.db.insert(partnerApplicants).values({
          ...values,
          public_id: id,
          company_id: companyId,
          partner_reference: input.partner_reference,
          created_at: ctx.now,
        }),
    logActivity(ctx, {
      entity_type: 'partner_applicant',
      entity_id: existing?.id ?? idByPublicId(partnerApplicants, id),
      action: existing ? 'updated' : 'created',
      before: existing
        ? { ...existing, id: undefined, public_id: undefined, company_id: undefined }
        : undefined,
      after: { partner_reference: input.partner_reference, ...logged },
      company_id: companyId,
    }),
  ]);
  const [row] = await select(ctx).where(eq(partnerApplicants.public_id, id)).limit(1);
  return { applicant: present(row), created: !existing };
}
