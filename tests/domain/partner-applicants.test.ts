/**
 * Partner applicants: the health-insurance partner's referrals, read by the insurer's company within the
 * companies in view, received one at a time by the partner's reference (again = an update), and carrying
 * the company's policy for the same person and trip start once there is one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs, partnerApplicants, policies } from '../../drizzle/schema';
import {
  exportPartnerApplicants,
  listPartnerApplicants,
  receivePartnerApplicant,
} from '../../workers/domain/applicants/service';
import { partnerApplicantSchema, partnerApplicantsQuerySchema } from '../../workers/domain/applicants/schema';
import { Forbidden } from '../../workers/domain/errors';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS } from '../support/world';
import { STRANGER } from '../support/contracts';
import { seedDocumentsWorld } from '../support/policy-documents';
import { seedPartnerApplicants } from '../../drizzle/seed/applicants';

const query = (q: Record<string, unknown> = {}) => partnerApplicantsQuerySchema.parse(q);
const applicant = (over: Record<string, unknown> = {}) =>
  partnerApplicantSchema.parse({
    partner_reference: 'ASI-T-1',
    first_name: 'Carmen',
    last_name: 'Vidal',
    date_of_birth: '2008-05-05',
    email: 'carmen@example.es',
    nationality: 'es',
    start_date: '2027-01-10',
    end_date: '2027-06-30',
    ...over,
  });

beforeAll(async () => {
  // Issued policies (the checkout world's), then the demo's applicants, one of them carrying a policy.
  const w = await seedDocumentsWorld();
  await seedPartnerApplicants(db(), { companyId: w.albion.id });
}, SETUP_TIMEOUT_MS);

describe('reading the list', () => {
  it('lists the demo applicants to the insurer’s staff, newest first, one of them enrolled', async () => {
    const list = await listPartnerApplicants(await actorCtx(DEMO_ACCOUNTS.seniorAdmin), query());
    expect(list.meta.total).toBeGreaterThanOrEqual(6);
    const dates = list.items.map((a) => a.received_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const enrolled = await listPartnerApplicants(
      await actorCtx(DEMO_ACCOUNTS.external),
      query({ status: 'enrolled' }),
    );
    expect(enrolled.items).toHaveLength(1);
    expect(enrolled.items[0].policy?.policy_number).toMatch(/^P\d{8}$/);
  });

  it('finds an applicant by name, reference or school, and by the day received', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    expect(
      (await listPartnerApplicants(ctx, query({ search: 'Lucía' }))).items.map((a) => a.partner_reference),
    ).toEqual(['ASI-24017']);
    expect((await listPartnerApplicants(ctx, query({ search: 'ASI-24022' }))).items).toHaveLength(1);
    const kingsbridge = await listPartnerApplicants(ctx, query({ search: 'Kingsbridge' }));
    expect(kingsbridge.items.map((a) => a.last_name).sort()).toEqual(['García', 'López']);
    const today = new Date().toISOString().slice(0, 10);
    expect((await listPartnerApplicants(ctx, query({ from: today }))).items).toHaveLength(0);
  });

  it('shows another company’s staff none of them, and refuses users without the permission', async () => {
    expect((await listPartnerApplicants(await actorCtx(STRANGER.companyUser), query())).meta.total).toBe(0);
    await expect(
      listPartnerApplicants(await actorCtx(DEMO_ACCOUNTS.schoolAdmin), query()),
    ).rejects.toBeInstanceOf(Forbidden);
    await expect(
      listPartnerApplicants(await actorCtx(DEMO_ACCOUNTS.accountManager), query()),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('exports every applicant of the search', async () => {
    const rows = await exportPartnerApplicants(
      await actorCtx(DEMO_ACCOUNTS.seniorAdmin),
      query({ status: 'pending' }),
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
  });
});

describe('receiving an applicant from the partner', () => {
  it('adds a new reference awaiting a policy, logged, and updates it when sent again', async () => {
    const ctx = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
    const first = await receivePartnerApplicant(ctx, applicant());
    expect(first.created).toBe(true);
    expect(first.applicant).toMatchObject({ status: 'pending', nationality: 'ES', policy: null });
    const again = await receivePartnerApplicant(ctx, applicant({ end_date: '2027-07-31' }));
    expect(again.created).toBe(false);
    expect(again.applicant).toMatchObject({ id: first.applicant.id, end_date: '2027-07-31' });
    const rows = await db()
      .select()
      .from(partnerApplicants)
      .where(eq(partnerApplicants.partner_reference, 'ASI-T-1'));
    expect(rows).toHaveLength(1);
    const logs = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.entity_type, 'partner_applicant'), eq(activityLogs.entity_id, rows[0].id)));
    expect(logs.map((l) => l.action).sort()).toEqual(['created', 'updated']);
  });

  it('carries the company’s policy of the same person and trip start', async () => {
    const [policy] = await db().select().from(policies).where(eq(policies.status, 'issued')).limit(1);
    const { applicant: a } = await receivePartnerApplicant(
      await actorCtx(DEMO_ACCOUNTS.seniorAdmin),
      applicant({
        partner_reference: 'ASI-T-2',
        first_name: policy.first_name.toUpperCase(),
        last_name: policy.last_name,
        date_of_birth: policy.date_of_birth,
        start_date: policy.start_date,
        end_date: policy.end_date,
      }),
    );
    expect(a).toMatchObject({ status: 'enrolled', policy: { policy_number: policy.policy_number } });
  });

  it('refuses an end before the start, and a sender without the permission', () => {
    const r = partnerApplicantSchema.safeParse({ ...applicant(), end_date: '2027-01-01' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['end_date']);
    return expect(
      actorCtx(DEMO_ACCOUNTS.external).then((ctx) => receivePartnerApplicant(ctx, applicant())),
    ).rejects.toBeInstanceOf(Forbidden);
  });
});
