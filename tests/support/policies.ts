/**
 * Test world of issued policies: the contracts world (demo data plus the stranger company Caledonia)
 * with contracts on Oakwood's campuses and Highland's, and policies issued with the demo's builder
 * (drizzle/seed/policies.ts): every status, a family, a group with its leader, one person with two
 * policies, one policy on the South campus and one of the stranger company. A stranger school user
 * whose role holds every insured and policy permission checks that only the tenant scope keeps them out.
 */
import { eq, inArray } from 'drizzle-orm';
import { permissions, policies, rolePermissions, roles } from '../../drizzle/schema';
import { PERMISSION_GROUPS } from '../../workers/domain/access/permissions';
import { buildUser } from '../../drizzle/seed/builders';
import { buildContract } from '../../drizzle/seed/contracts';
import { buildIssuedPolicies, type PolicySeed } from '../../drizzle/seed/policies';
import { day, seedContractsWorld, type ContractsWorld } from './contracts';
import { DEMO_ACCOUNTS, db, userByEmail } from './world';

export const POLICY_STRANGER = 'stranger.policies@caledonia.test';

type Policy = typeof policies.$inferSelect;

export interface PoliciesWorld extends ContractsWorld {
  /** By name: lukasz (student, active, led by greta), anna (his family member), greta (group leader),
   * zoe (not started), seanOld (expired) and seanNew (active; the same person), carla (cancelled,
   * not started), sam (South campus), stranger (Caledonia's). */
  p: Record<
    'lukasz' | 'anna' | 'greta' | 'zoe' | 'seanOld' | 'seanNew' | 'carla' | 'sam' | 'stranger',
    Policy
  >;
}

const person = (first_name: string, last_name: string, date_of_birth: string, extra: Partial<PolicySeed>) =>
  ({ first_name, last_name, date_of_birth, ...extra }) as PolicySeed;

export async function seedPoliciesWorld(): Promise<PoliciesWorld> {
  const w = await seedContractsWorld();
  const d = db();
  const senior = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
  const contract = (campusId: number, productId: number) =>
    buildContract(d, { campusId, productId, startDate: day(-200), endDate: day(300) });
  const [north, south, highland] = await Promise.all([
    contract(w.north.id, w.product.id),
    contract(w.south.id, w.product.id),
    contract(w.highlandCampus.id, w.strangerProduct.id),
  ]);
  const active = { start_date: day(-10), end_date: day(60) };
  const northPeople: PolicySeed[] = [
    person('Łukasz', 'Kowalski', '2005-03-14', {
      ...active,
      residence: 'PL',
      email: 'lukasz@example.test',
      group_name: 'Alpha Group',
      group_leader_index: 2,
    }),
    person('Anna', 'Kowalski', '1975-07-01', { ...active, type: 'immediate_family', dependency_index: 0 }),
    person('Greta', 'Leader', '1980-01-20', { ...active, type: 'group_leader', group_name: 'Alpha Group' }),
    person('Zoë', 'Martin', '2006-11-02', { start_date: day(20), end_date: day(50), residence: 'FR' }),
    person('Seán', 'Murphy', '2004-05-05', { start_date: day(-100), end_date: day(-40), residence: 'IE' }),
    person('Seán', 'Murphy', '2004-05-05', { start_date: day(-5), end_date: day(80), residence: 'IE' }),
    person('Carla', 'Cancel', '2005-09-09', {
      start_date: day(30),
      end_date: day(60),
      cancelled: { at: new Date(), reason: 'Did not travel', by: senior.id },
    }),
  ];
  const n = await buildIssuedPolicies(d, {
    campusId: w.north.id,
    contractId: north.id,
    createdBy: senior.id,
    people: northPeople,
    issuedAt: new Date(Date.now() - 30 * 86_400_000),
    bookingDate: day(-30),
  });
  const s = await buildIssuedPolicies(d, {
    campusId: w.south.id,
    contractId: south.id,
    createdBy: senior.id,
    people: [person('Sam', 'South', '2006-02-02', { ...active, residence: 'DE' })],
  });
  const h = await buildIssuedPolicies(d, {
    campusId: w.highlandCampus.id,
    contractId: highland.id,
    createdBy: senior.id,
    people: [person('Hamish', 'Highland', '2005-04-04', active)],
  });
  const [role] = await d
    .insert(roles)
    .values({ slug: 'school_policies_all', name: 'School (all policy rights)', family: 'school' })
    .returning();
  const names = [...PERMISSION_GROUPS.insured, ...PERMISSION_GROUPS.policy];
  const perms = await d.select().from(permissions).where(inArray(permissions.name, names));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
  await buildUser(d, {
    email: POLICY_STRANGER,
    first_name: 'Polly',
    last_name: 'Stranger',
    roles: ['school_policies_all'],
    clientId: w.highland.id,
    canAccessAllCampuses: true,
  });
  const [lukasz, anna, greta, zoe, seanOld, seanNew, carla] = n.policies;
  return {
    ...w,
    p: { lukasz, anna, greta, zoe, seanOld, seanNew, carla, sam: s.policies[0], stranger: h.policies[0] },
  };
}

/** The policy row as stored now. */
export async function policyRow(id: number): Promise<Policy> {
  const [row] = await db().select().from(policies).where(eq(policies.id, id));
  return row;
}

export { day, db };
