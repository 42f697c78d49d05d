/**
 * Demo partner applicants: people the health-insurance partner referred to the demo insurer, some
 * awaiting a policy, one enrolled (it carries one of Oakwood's demo policies: the same person and trip
 * start), received over the last weeks.
 */
import { and, asc, eq, ne } from 'drizzle-orm';
import { partnerApplicants, policies } from '../schema';
import type { DB } from '../../workers/platform/db';

const DAY = 86_400_000;

const REFERRED = [
  [
    'ASI-24017',
    'Lucía',
    'Fernández',
    '2008-03-14',
    'lucia.fernandez@example.es',
    'ES',
    'Oakwood International School',
  ],
  [
    'ASI-24022',
    'Mateo',
    'García',
    '2007-11-02',
    'mateo.garcia@example.es',
    'ES',
    'Kingsbridge Language Academy',
  ],
  ['ASI-24031', 'Sofía', 'Martín', '2009-06-21', null, 'ES', 'Oakwood International School'],
  ['ASI-24036', 'Hugo', 'Ruiz', '2008-01-30', 'hugo.ruiz@example.es', 'MX', null],
  [
    'ASI-24040',
    'Valentina',
    'López',
    '2007-09-09',
    'valentina.lopez@example.es',
    'AR',
    'Kingsbridge Language Academy',
  ],
] as const;

export async function seedPartnerApplicants(db: DB, input: { companyId: number; now?: Date }) {
  const now = input.now ?? new Date();
  const start = new Date(now.getTime() + 45 * DAY).toISOString().slice(0, 10);
  const end = new Date(now.getTime() + 45 * DAY + 300 * DAY).toISOString().slice(0, 10);
  const rows: (typeof partnerApplicants.$inferInsert)[] = REFERRED.map(
    ([ref, first, last, dob, email, nationality, school], i) => ({
      public_id: `pa${ref.slice(4).toLowerCase()}demo`,
      company_id: input.companyId,
      partner_reference: ref,
      first_name: first,
      last_name: last,
      date_of_birth: dob,
      email,
      nationality,
      school_name: school,
      start_date: start,
      end_date: end,
      created_at: new Date(now.getTime() - (i * 4 + 1) * DAY),
      updated_at: new Date(now.getTime() - (i * 4 + 1) * DAY),
    }),
  );
  // One applicant already enrolled: a demo policy of the company, referred three weeks ago.
  const [policy] = await db
    .select()
    .from(policies)
    .where(and(eq(policies.company_id, input.companyId), ne(policies.status, 'cancelled')))
    .orderBy(asc(policies.id))
    .limit(1);
  if (policy)
    rows.push({
      public_id: 'pa24009demo',
      company_id: input.companyId,
      partner_reference: 'ASI-24009',
      first_name: policy.first_name,
      last_name: policy.last_name,
      date_of_birth: policy.date_of_birth,
      email: policy.email,
      nationality: 'ES',
      school_name: 'Oakwood International School',
      start_date: policy.start_date,
      end_date: policy.end_date,
      created_at: new Date(now.getTime() - 21 * DAY),
      updated_at: new Date(now.getTime() - 21 * DAY),
      status: 'enrolled',
      policy_id: policy.id,
    });
  await db.insert(partnerApplicants).values(rows).onConflictDoNothing();
}
