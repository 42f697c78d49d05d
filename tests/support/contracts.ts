/**
 * Test world of campuses, service agreements and contracts: the UK demo seed plus a stranger company
 * (Caledonia) with its own client, campus, product, contract and users, so isolation can be checked
 * from both sides. Built with the same builders as the demo seed.
 */
import { eq, inArray } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  permissions,
  products,
  rolePermissions,
  roles,
} from '../../drizzle/schema';
import { PERMISSION_GROUPS } from '../../workers/domain/access/permissions';
import { buildCampus, buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { buildContract, buildProduct } from '../../drizzle/seed/contracts';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, seedUk } from './world';

export const STRANGER = {
  companyUser: 'stranger.admin@caledonia.test',
  schoolUser: 'stranger.school@caledonia.test',
} as const;

/** YYYY-MM-DD `days` from today (UTC). */
export function day(days: number, from = new Date()): string {
  return new Date(from.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

export interface ContractsWorld {
  albion: typeof companies.$inferSelect;
  oakwood: typeof clients.$inferSelect;
  north: typeof campuses.$inferSelect;
  south: typeof campuses.$inferSelect;
  product: typeof products.$inferSelect;
  /** A second product of the demo company with a bounded effective period (today-10 .. today+200). */
  bounded: typeof products.$inferSelect;
  caledonia: typeof companies.$inferSelect;
  highland: typeof clients.$inferSelect;
  highlandCampus: typeof campuses.$inferSelect;
  strangerProduct: typeof products.$inferSelect;
}

/** Seeds the demo data and the stranger company once per test file. */
export async function seedContractsWorld(): Promise<ContractsWorld> {
  const d = await seedUk();
  const all = await d.select().from(companies);
  const albion = all.find((c) => c.name.startsWith('Albion'))!;
  const [oakwood] = await d.select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  const campusRows = await d.select().from(campuses).where(eq(campuses.client_id, oakwood.id));
  const north = campusRows.find((c) => c.name.includes('North'))!;
  const south = campusRows.find((c) => c.name.includes('South'))!;
  const existing = await d.select().from(products).where(eq(products.company_id, albion.id));
  const product =
    existing.find((p) => p.code === 'TEST_STUDENT') ??
    (await buildProduct(d, { companyId: albion.id, code: 'TEST_STUDENT', name: 'Test Student Cover' }));
  const bounded =
    existing.find((p) => p.code === 'TEST_BOUNDED') ??
    (await buildProduct(d, {
      companyId: albion.id,
      code: 'TEST_BOUNDED',
      name: 'Bounded Cover',
      effectiveStart: day(-10),
      effectiveEnd: day(200),
    }));

  const caledonia = await buildCompany(d, { name: 'Caledonia Cover Ltd', country: 'GB' });
  const highland = await buildClient(d, { name: 'Highland Academy', companyId: caledonia.id });
  const highlandCampus = await buildCampus(d, { name: 'Highland Main Campus', clientId: highland.id });
  const strangerProduct = await buildProduct(d, {
    companyId: caledonia.id,
    code: 'HIGHLAND_PLAN',
    name: 'Highland Plan',
  });
  await buildContract(d, { campusId: highlandCampus.id, productId: strangerProduct.id, startDate: day(-5) });
  await buildUser(d, {
    email: STRANGER.companyUser,
    first_name: 'Stella',
    last_name: 'Stranger',
    roles: ['senior_admin'],
    companyIds: [caledonia.id],
  });
  // The stranger school user's role holds every permission of the area, so only the tenant scope can
  // keep them out of another company's records.
  const [role] = await d
    .insert(roles)
    .values({ slug: 'school_contracts_all', name: 'School (all contract rights)', family: 'school' })
    .returning();
  const names = [
    ...PERMISSION_GROUPS.campus,
    ...PERMISSION_GROUPS.contract,
    ...PERMISSION_GROUPS.service_agreement,
    'create_insured',
  ];
  const perms = await d.select().from(permissions).where(inArray(permissions.name, names));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
  await buildUser(d, {
    email: STRANGER.schoolUser,
    first_name: 'Sam',
    last_name: 'Stranger',
    roles: ['school_contracts_all'],
    clientId: highland.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });
  return {
    albion,
    oakwood,
    north,
    south,
    product,
    bounded,
    caledonia,
    highland,
    highlandCampus,
    strangerProduct,
  };
}

export const asSenior = (now?: Date): Promise<ActorCtx> =>
  actorCtx(DEMO_ACCOUNTS.seniorAdmin, now ? { now } : {});

export { db };
