/**
 * Test world of clients: the UK demo seed plus a stranger company (Thistle) with its own client, and a
 * second client of the demo company with a school user. Built with the seed builders.
 *
 * "Permissive" users hold a role with EVERY permission of the portal, so a test that they still get
 * NotFound shows the tenant scope (not a missing permission) keeps them out.
 */
import { eq } from 'drizzle-orm';
import { clients, companies, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildCampus, buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { bulkInsert, runBatch, type DB } from '../../workers/platform/db';
import type { ClientCreateInput } from '../../workers/domain/clients/schema';
import { clientCreateSchema } from '../../workers/domain/clients/schema';
import { seedUk } from './world';

export const CLIENT_STRANGERS = {
  /** Senior admin of the Thistle company (another tenant). */
  companyUser: 'admin@thistle.test',
  /** Every permission, company family, of the Thistle company. */
  permissiveCompanyUser: 'all.perms@thistle.test',
  /** Every permission, school family, of Maple College: a client of the demo company, not Oakwood. */
  permissiveSchoolUser: 'all.perms@maple.test',
  /** The real master-user role, of Maple College. */
  schoolUser: 'master@maple.test',
  /** An administrator of the seed's second company (Britannia) only. */
  secondCompanyAdmin: 'admin@britannia.test',
} as const;

/** A second account manager of the demo company (Albion), besides the demo one. */
export const OTHER_ACCOUNT_MANAGER = 'other.manager@albion.test';

async function roleWithEverything(d: DB, family: 'company' | 'school', slug: string) {
  const [found] = await d.select().from(roles).where(eq(roles.slug, slug)).limit(1);
  if (found) return found;
  const [role] = await d.insert(roles).values({ slug, name: slug, family }).returning();
  const all = await d.select().from(permissions);
  await runBatch(
    d,
    bulkInsert(
      d,
      rolePermissions,
      all.map((p) => ({ role_id: role.id, permission_id: p.id })),
    ),
  );
  return role;
}

export interface ClientsWorld {
  albion: typeof companies.$inferSelect;
  britannia: typeof companies.$inferSelect;
  oakwood: typeof clients.$inferSelect;
  maple: typeof clients.$inferSelect;
  thistle: typeof companies.$inferSelect;
  heather: typeof clients.$inferSelect;
}

/** Seeds the demo data and the strangers once per test file. */
export async function seedClientsWorld(): Promise<ClientsWorld> {
  const d = await seedUk();
  const all = await d.select().from(companies);
  const albion = all.find((c) => c.name.startsWith('Albion'))!;
  const britannia = all.find((c) => c.name.startsWith('Britannia'))!;
  const [oakwood] = await d.select().from(clients).where(eq(clients.name, 'Oakwood International School'));
  await roleWithEverything(d, 'company', 'test_company_everything');
  await roleWithEverything(d, 'school', 'test_school_everything');

  const maple = await buildClient(d, { name: 'Maple College', companyId: albion.id });
  await buildCampus(d, { name: 'Maple Campus', clientId: maple.id });
  await buildUser(d, {
    email: CLIENT_STRANGERS.permissiveSchoolUser,
    first_name: 'Pat',
    last_name: 'Permissive',
    roles: ['test_school_everything'],
    clientId: maple.id,
    canAccessAllCampuses: true,
  });
  await buildUser(d, {
    email: CLIENT_STRANGERS.schoolUser,
    first_name: 'Molly',
    last_name: 'Maple',
    roles: ['school_master_user'],
    clientId: maple.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });

  const thistle = await buildCompany(d, { name: 'Thistle Cover Ltd', country: 'GB' });
  const heather = await buildClient(d, { name: 'Heather School', companyId: thistle.id });
  await buildUser(d, {
    email: CLIENT_STRANGERS.companyUser,
    first_name: 'Tom',
    last_name: 'Thistle',
    roles: ['senior_admin'],
    companyIds: [thistle.id],
  });
  await buildUser(d, {
    email: CLIENT_STRANGERS.permissiveCompanyUser,
    first_name: 'Tess',
    last_name: 'Thistle',
    roles: ['test_company_everything'],
    companyIds: [thistle.id],
  });
  await buildUser(d, {
    email: CLIENT_STRANGERS.secondCompanyAdmin,
    first_name: 'Bea',
    last_name: 'Britannia',
    roles: ['administrator'],
    companyIds: [britannia.id],
  });
  await buildUser(d, {
    email: OTHER_ACCOUNT_MANAGER,
    first_name: 'Olive',
    last_name: 'Other',
    roles: ['account_manager'],
    companyIds: [albion.id],
  });
  return { albion, britannia, oakwood, maple, thistle, heather };
}

/** A valid clients/add input (as parsed), with overrides. */
export function clientInput(overrides: Record<string, unknown> = {}): ClientCreateInput {
  return clientCreateSchema.parse({
    name: 'Riverside Language School',
    type: 'school',
    website: 'https://riverside.test',
    phone_country: 'GB',
    phone_number: '1865000111',
    preferred_lang: 'en',
    payment_terms: 'monthly',
    payment_method: 'bank_transfer',
    payment_frequency: 'monthly',
    invoice_rule: 'by_group',
    tax_number: 'GB123456789',
    contacts: {
      owner: {
        first_name: 'Olivia',
        last_name: 'Owner',
        email: 'olivia@riverside.test',
        is_master_user: true,
      },
      accounting: {
        first_name: 'Andy',
        last_name: 'Accounts',
        email: 'accounts@riverside.test',
        job_title: 'Bursar',
      },
      secondary: [
        { first_name: 'Sid', last_name: 'Second', email: 'sid@riverside.test', department: 'Admissions' },
      ],
    },
    billing_address: { address: '1 River Lane', city: 'Oxford', postal_code: 'OX1 2AB', country_id: 1 },
    fact_find: { international_students_per_year: '120', renewal_month: '09' },
    ...overrides,
  });
}
