import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { campuses, clients, companies, users } from '../../drizzle/schema';
import { buildCampus, buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { loadActor, type Actor } from '../../workers/domain/access/actor';
import {
  campusScope,
  clientScope,
  companyScope,
  isOnlyAccountManager,
  ownClientsFilter,
  visibleClients as visibleClientRows,
} from '../../workers/domain/access/scope';
import { DEMO_ACCOUNTS, actorFor, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

const OAKWOOD = 'Oakwood International School';
const BRITANNIA_CLIENT = 'Harbour Language College';
const STRANGER_CLIENT = 'Highland Academy';

/** The demo seed's clients of each company (drizzle/seed/clients.ts), with the test's own Britannia client. */
const ALBION_CLIENTS = ['Harbour Guardianship Services', 'Kingsbridge Language Academy', OAKWOOD];
const BRITANNIA_CLIENTS = [BRITANNIA_CLIENT, 'Thames Valley Student Agency'];
const ALL_CLIENTS = [...ALBION_CLIENTS, ...BRITANNIA_CLIENTS].sort();

let ids: { albion: number; britannia: number; caledonia: number };

/** The names of the clients an actor's scope lets through. */
async function visibleClients(actor: Actor) {
  const rows = await db()
    .select({ name: clients.name })
    .from(clients)
    .where(clientScope(actor, { clientId: clients.id, companyId: clients.company_id }))
    .orderBy(clients.name);
  return rows.map((r) => r.name);
}

async function visibleCampuses(actor: Actor) {
  const rows = await db()
    .select({ name: campuses.name })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(
      campusScope(actor, {
        campusId: campuses.id,
        clientId: campuses.client_id,
        companyId: clients.company_id,
      }),
    )
    .orderBy(campuses.name);
  return rows.map((r) => r.name);
}

async function visibleCompanies(actor: Actor) {
  const rows = await db()
    .select({ name: companies.name })
    .from(companies)
    .where(companyScope(actor, companies.id))
    .orderBy(companies.name);
  return rows.map((r) => r.name);
}

async function chooseCompany(email: string, selected: number | null) {
  await db().update(users).set({ selected_company_id: selected }).where(eq(users.email, email));
}

beforeAll(async () => {
  await seedUk();
  const all = await db().select().from(companies);
  const albion = all.find((c) => c.name.startsWith('Albion'))!;
  const britannia = all.find((c) => c.name.startsWith('Britannia'))!;
  // A client in the seed's second company, and one in a company none of the demo users belongs to.
  const harbour = await buildClient(db(), { name: BRITANNIA_CLIENT, companyId: britannia.id });
  await buildCampus(db(), { name: 'Harbour Main Campus', clientId: harbour.id });
  const caledonia = await buildCompany(db(), { name: 'Caledonia Cover Ltd' });
  const highland = await buildClient(db(), { name: STRANGER_CLIENT, companyId: caledonia.id });
  await buildCampus(db(), { name: 'Highland Campus', clientId: highland.id });
  ids = { albion: albion.id, britannia: britannia.id, caledonia: caledonia.id };
}, SETUP_TIMEOUT_MS);

describe('tenant scope of company users', () => {
  it('shows a user who never chose a company (null) the first of their companies only', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, null);
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    expect(senior.companies.map((c) => c.id)).toEqual([ids.albion, ids.britannia]);
    expect(senior.selected_company_id).toBe(ids.albion);
    expect(await visibleClients(senior)).toEqual(ALBION_CLIENTS);
    expect(await visibleCompanies(senior)).toEqual(['Albion Student Insurance Ltd']);
  });

  it('shows "all companies" (0) as the clients of every company of the user and of no other', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, 0);
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    expect(senior.selected_company_id).toBeNull();
    expect(await visibleClients(senior)).toEqual(ALL_CLIENTS);
    expect(await visibleCampuses(senior)).toEqual([
      'Harbour Main Campus',
      'Oakwood North Campus',
      'Oakwood South Campus',
    ]);
    expect(await visibleCompanies(senior)).not.toContain('Caledonia Cover Ltd');
  });

  it('narrows to the selected company', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, ids.britannia);
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    expect(await visibleClients(senior)).toEqual(BRITANNIA_CLIENTS);
    expect(await visibleCampuses(senior)).toEqual(['Harbour Main Campus']);
  });

  it('prefers the session’s choice to the stored one', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, ids.britannia);
    const user = await userByEmail(DEMO_ACCOUNTS.seniorAdmin);
    const allOfThem = (await loadActor(db(), user.id, { selectedCompanyId: 0 }))!;
    expect(await visibleClients(allOfThem)).toEqual(ALL_CLIENTS);
    const albionOnly = (await loadActor(db(), user.id, { selectedCompanyId: ids.albion }))!;
    expect(await visibleClients(albionOnly)).toEqual(ALBION_CLIENTS);
  });

  it('ignores a selected company the user does not belong to', async () => {
    await chooseCompany(DEMO_ACCOUNTS.seniorAdmin, ids.caledonia);
    const senior = await actorFor(DEMO_ACCOUNTS.seniorAdmin);
    expect(senior.selected_company_id).toBe(ids.albion);
    expect(await visibleClients(senior)).toEqual(ALBION_CLIENTS);
    // Even an actor forged with that choice sees nothing of it.
    expect(await visibleClients({ ...senior, selected_company_id: ids.caledonia })).toEqual([]);
  });

  it('shows a user of one company that company, whatever was stored', async () => {
    for (const stored of [null, 0, ids.britannia]) {
      await chooseCompany(DEMO_ACCOUNTS.admin, stored);
      const admin = await actorFor(DEMO_ACCOUNTS.admin);
      expect(admin.selected_company_id, String(stored)).toBe(ids.albion);
      expect(await visibleClients(admin)).toEqual(ALBION_CLIENTS);
    }
  });

  it('shows an account manager every client of their company, not only those they manage', async () => {
    const manager = await actorFor(DEMO_ACCOUNTS.accountManager);
    expect(isOnlyAccountManager(manager)).toBe(true);
    expect(await visibleClients(manager)).toEqual(ALBION_CLIENTS);
    const own = await db()
      .select({ name: clients.name })
      .from(clients)
      .where(and(visibleClientRows(manager), ownClientsFilter(manager)))
      .orderBy(clients.name);
    // Their own clients are a filter inside that scope (the default of their clients list).
    expect(own.map((r) => r.name)).toEqual(['Harbour Guardianship Services', OAKWOOD]);
  });

  it('shows a company user with no company nothing', async () => {
    const lonely = await buildUser(db(), {
      email: 'no-company@example.test',
      first_name: 'No',
      last_name: 'Company',
      roles: ['administrator'],
    });
    const actor = (await loadActor(db(), lonely.id))!;
    expect(await visibleClients(actor)).toEqual([]);
    expect(await visibleCampuses(actor)).toEqual([]);
    expect(await visibleCompanies(actor)).toEqual([]);
  });
});

describe('tenant scope of school and student users', () => {
  it('shows the school master user its own client and all its campuses only', async () => {
    const school = await actorFor(DEMO_ACCOUNTS.schoolAdmin);
    expect(school.campus_ids).toBeNull();
    expect(await visibleClients(school)).toEqual([OAKWOOD]);
    expect(await visibleCampuses(school)).toEqual(['Oakwood North Campus', 'Oakwood South Campus']);
    expect(school.companies.map((c) => c.id)).toEqual([ids.albion]);
  });

  it('shows campus.employee@demo.test only Oakwood North Campus', async () => {
    const employee = await actorFor(DEMO_ACCOUNTS.campusEmployee);
    expect(await visibleCampuses(employee)).toEqual(['Oakwood North Campus']);
    expect(await visibleClients(employee)).toEqual([OAKWOOD]);
  });

  it('shows a campus-limited school user without campuses no campus at all', async () => {
    const [oakwood] = await db().select().from(clients).where(eq(clients.name, OAKWOOD));
    const user = await buildUser(db(), {
      email: 'no-campus@example.test',
      first_name: 'No',
      last_name: 'Campus',
      roles: ['school_employee'],
      clientId: oakwood.id,
    });
    const actor = (await loadActor(db(), user.id))!;
    expect(actor.campus_ids).toEqual([]);
    expect(await visibleCampuses(actor)).toEqual([]);
  });

  it('shows a student user no client and no campus', async () => {
    const user = await buildUser(db(), {
      email: 'student@example.test',
      first_name: 'Stu',
      last_name: 'Dent',
      roles: ['student_user'],
    });
    const actor = (await loadActor(db(), user.id))!;
    expect(actor.user_type).toBe('student');
    expect(await visibleClients(actor)).toEqual([]);
    expect(await visibleCampuses(actor)).toEqual([]);
  });
});
