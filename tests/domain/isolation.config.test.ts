/**
 * Tenant isolation of the configuration area (insurers and companies): for every id-taking service
 * function, a company user of another company and a school user of another company answer "not found",
 * never the record and never "forbidden". The school user holds every permission of the area through a
 * role granted for this test, so it is the tenant scope, not a missing permission, that stops them. An
 * administrator of the seed's second company is stopped the same way from the demo company's records.
 * Countries are reference data shared by every company of a region (no tenant column), so they have no
 * isolation cases; the last test pins that down.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { clients, companies, permissions, rolePermissions, roles } from '../../drizzle/schema';
import { buildClient, buildUser } from '../../drizzle/seed/builders';
import { companySchema } from '../../workers/domain/companies/schema';
import {
  companyActivity,
  financeUsers,
  getCompany,
  updateCompany,
  updateCompanyStatus,
} from '../../workers/domain/companies/service';
import { insurerSchema } from '../../workers/domain/insurers/schema';
import {
  deleteInsurer,
  getInsurer,
  insurerActivity,
  updateInsurer,
  updateInsurerStatus,
} from '../../workers/domain/insurers/service';
import { countryListSchema } from '../../workers/domain/countries/schema';
import { listCountries } from '../../workers/domain/countries/service';
import { NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, actorCtx, db, SETUP_TIMEOUT_MS } from '../support/world';
import { seedConfigWorld, STRANGER, type ConfigWorld } from '../support/config';

const AREA_PERMISSIONS = [
  'read_company',
  'create_company',
  'update_company',
  'archive_company',
  'read_insurer',
  'create_insurer',
  'update_insurer',
  'delete_insurer',
  'read_user',
  'read_country',
];

let w: ConfigWorld;
const actors: Record<string, ActorCtx> = {};

beforeAll(async () => {
  w = await seedConfigWorld();
  const d = db();
  const [role] = await d
    .insert(roles)
    .values({ name: 'School configuration tester', slug: 'school_config_tester', family: 'school' })
    .returning();
  const perms = await d.select().from(permissions).where(inArray(permissions.name, AREA_PERMISSIONS));
  await d.insert(rolePermissions).values(perms.map((p) => ({ role_id: role.id, permission_id: p.id })));
  // A school user of the demo company's own client with the same grant, to check from the other side.
  const albionClient = await buildClient(d, { name: 'Albion Test Academy', companyId: w.albion.id });
  await buildUser(d, {
    email: 'albion.school@config.test',
    first_name: 'Abby',
    last_name: 'School',
    roles: ['school_config_tester'],
    clientId: albionClient.id,
    canAccessAllCampuses: true,
  });
  await buildUser(d, {
    email: 'dalriada.school.elevated@config.test',
    first_name: 'Dara',
    last_name: 'School',
    roles: ['school_config_tester', 'school_master_user'],
    clientId: await strangerClientId(),
    canAccessAllCampuses: true,
  });
  const [britannia] = await d
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  await buildUser(d, {
    email: 'admin@britannia.test',
    first_name: 'Bea',
    last_name: 'Britannia',
    roles: ['administrator'],
    companyIds: [britannia.id],
  });
  actors.secondCompanyAdmin = await actorCtx('admin@britannia.test');
  actors.albionCompanyUser = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  actors.albionSchoolUser = await actorCtx('albion.school@config.test');
  actors.strangerCompanyUser = await actorCtx(STRANGER.companyUser);
  actors.strangerSchoolUser = await actorCtx('dalriada.school.elevated@config.test');
}, SETUP_TIMEOUT_MS);

async function strangerClientId(): Promise<number> {
  const [row] = await db().select().from(clients).where(eq(clients.company_id, w.stranger.id)).limit(1);
  return row.id;
}

/** Every id-taking call of the area, against one company's records. */
function casesFor(target: () => { insurer: string; company: string }) {
  const companyInput = () => companySchema.parse({ name: 'Taken Over Ltd' });
  const insurerInput = () => insurerSchema.parse({ name: 'Taken Over Mutual' });
  return [
    ['getInsurer', (c: ActorCtx) => getInsurer(c, target().insurer)],
    ['insurerActivity', (c: ActorCtx) => insurerActivity(c, target().insurer)],
    ['updateInsurer', (c: ActorCtx) => updateInsurer(c, target().insurer, insurerInput())],
    ['updateInsurerStatus', (c: ActorCtx) => updateInsurerStatus(c, target().insurer, 'archived')],
    ['deleteInsurer', (c: ActorCtx) => deleteInsurer(c, target().insurer)],
    ['getCompany', (c: ActorCtx) => getCompany(c, target().company)],
    ['companyActivity', (c: ActorCtx) => companyActivity(c, target().company)],
    ['updateCompany', (c: ActorCtx) => updateCompany(c, target().company, companyInput())],
    ['updateCompanyStatus', (c: ActorCtx) => updateCompanyStatus(c, target().company, 'archived')],
    ['financeUsers', (c: ActorCtx) => financeUsers(c, target().company)],
  ] as const;
}

const albionRecords = () => ({ insurer: w.albionInsurer.public_id, company: w.albion.public_id });
const strangerRecords = () => ({ insurer: w.strangerInsurer.public_id, company: w.stranger.public_id });

const matrix = [
  ...['strangerCompanyUser', 'strangerSchoolUser', 'secondCompanyAdmin'].flatMap((who) =>
    casesFor(albionRecords).map(([name, run]) => ({ who, owner: 'Albion', name, run })),
  ),
  ...['albionCompanyUser', 'albionSchoolUser'].flatMap((who) =>
    casesFor(strangerRecords).map(([name, run]) => ({ who, owner: 'Dalriada', name, run })),
  ),
];

describe('configuration tenant isolation', () => {
  it.each(matrix)('$who gets not found from $name on a record of $owner', async ({ who, run }) => {
    await expect(run(actors[who])).rejects.toBeInstanceOf(NotFound);
  });

  it('left every record as it was', async () => {
    expect((await getInsurer(actors.albionCompanyUser, w.albionInsurer.public_id)).status).toBe('active');
    expect((await getCompany(actors.albionCompanyUser, w.albion.public_id)).status).toBe('active');
    expect((await getInsurer(actors.strangerCompanyUser, w.strangerInsurer.public_id)).name).toBe(
      'Dalriada Mutual',
    );
    expect((await getCompany(actors.strangerCompanyUser, w.stranger.public_id)).name).toBe(STRANGER.company);
  });

  it('countries are shared reference data: every company sees the same list', async () => {
    const a = await listCountries(actors.albionCompanyUser, countryListSchema.parse({ items: 5 }));
    const b = await listCountries(actors.strangerCompanyUser, countryListSchema.parse({ items: 5 }));
    expect(a.meta.total).toBe(b.meta.total);
    expect(a.items.map((c) => c.id)).toEqual(b.items.map((c) => c.id));
  });
});
