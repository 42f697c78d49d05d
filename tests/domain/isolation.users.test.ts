/**
 * Tenant isolation of the users area: for every id-taking call, a user of another tenant answers "not
 * found", never the user and never "forbidden". The matrix: a company of the seed's others (Dalriada's
 * senior admin and school master user), the demo's second company (Britannia's administrator), and a
 * school master user of another school of the same company (Kingsbridge), against Albion's company users
 * and Oakwood's school users; and the demo's own senior admin and Oakwood's master user against Dalriada's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { clients, companies, sessions } from '../../drizzle/schema';
import { buildUser } from '../../drizzle/seed/builders';
import { Conflict, NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { companyUserSchema, schoolUserListSchema, schoolUserSchema } from '../../workers/domain/users/schema';
import {
  activateUser,
  approveSchoolUser,
  archiveUser,
  declineUser,
  deleteUser,
  getUser,
  listSchoolUsers,
  resendInvitation,
  revokeInvitation,
  suspendSchoolUser,
  unsuspendSchoolUser,
  updateCompanyUser,
  updateSchoolUser,
  usersSummary,
} from '../../workers/domain/users/service';
import { endOwnSession, listOwnSessions } from '../../workers/domain/account/sessions';
import { mayOpenSupportView } from '../../workers/domain/access/support';
import { createSession } from '../../workers/domain/auth/sessions';
import { getSupportTarget, startSupportView, stopSupportView } from '../../workers/domain/auth/support';
import { actorCtx, db, DEMO_ACCOUNTS, SETUP_TIMEOUT_MS, userByEmail } from '../support/world';
import { seedConfigWorld, STRANGER, type ConfigWorld } from '../support/config';

let w: ConfigWorld;
const actors: Record<string, ActorCtx> = {};
const records: Record<string, { company: string; school: string; client: string; session: number }> = {};

/** A live session of a user (their browser), for the session calls of the matrix. */
async function sessionOf(email: string): Promise<number> {
  const user = await userByEmail(email);
  const { session } = await createSession(db(), {
    userId: user.id,
    kind: 'web',
    stage: 'active',
    now: new Date(),
  });
  return session.id;
}

async function clientNamed(name: string) {
  const [row] = await db().select().from(clients).where(eq(clients.name, name));
  return row;
}

beforeAll(async () => {
  w = await seedConfigWorld();
  const d = db();
  const [britannia] = await d
    .select()
    .from(companies)
    .where(eq(companies.name, 'Britannia Travel Cover Ltd'));
  await buildUser(d, {
    email: 'admin@britannia.users.test',
    first_name: 'Bea',
    last_name: 'Britannia',
    roles: ['administrator'],
    companyIds: [britannia.id],
  });
  const kingsbridge = await clientNamed('Kingsbridge Language Academy');
  await buildUser(d, {
    email: 'master@kingsbridge.users.test',
    first_name: 'Kit',
    last_name: 'Kingsbridge',
    roles: ['school_master_user'],
    clientId: kingsbridge.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });
  const [dalriadaSchool] = await d.select().from(clients).where(eq(clients.company_id, w.stranger.id));
  await buildUser(d, {
    email: 'staff@dalriada.users.test',
    first_name: 'Dee',
    last_name: 'Staff',
    roles: ['school_employee'],
    clientId: dalriadaSchool.id,
    canAccessAllCampuses: true,
  });
  await buildUser(d, {
    email: 'finance@dalriada.users.test',
    first_name: 'Finn',
    last_name: 'Dalriada',
    roles: ['finance'],
    companyIds: [w.stranger.id],
  });
  actors.strangerCompanyUser = await actorCtx(STRANGER.companyUser);
  actors.strangerSchoolMaster = await actorCtx(STRANGER.schoolUser);
  actors.secondCompanyAdmin = await actorCtx('admin@britannia.users.test');
  actors.otherSchoolMaster = await actorCtx('master@kingsbridge.users.test');
  actors.albionCompanyUser = await actorCtx(DEMO_ACCOUNTS.seniorAdmin);
  actors.oakwoodMaster = await actorCtx(DEMO_ACCOUNTS.schoolAdmin);
  const oakwood = await clientNamed('Oakwood International School');
  records.albion = {
    company: (await userByEmail(DEMO_ACCOUNTS.finance)).public_id,
    school: (await userByEmail(DEMO_ACCOUNTS.campusEmployee)).public_id,
    client: oakwood.public_id,
    session: await sessionOf(DEMO_ACCOUNTS.campusEmployee),
  };
  records.dalriada = {
    company: (await userByEmail('finance@dalriada.users.test')).public_id,
    school: (await userByEmail('staff@dalriada.users.test')).public_id,
    client: dalriadaSchool.public_id,
    session: await sessionOf('staff@dalriada.users.test'),
  };
}, SETUP_TIMEOUT_MS);

const companyInput = () =>
  companyUserSchema.parse({
    first_name: 'Taken',
    last_name: 'Over',
    email: 'taken.over@users.test',
    member_type: 'admin',
    roles: ['finance'],
    companies: ['nosuchcompany'],
  });
const schoolInput = () =>
  schoolUserSchema.parse({
    first_name: 'Taken',
    last_name: 'Over',
    email: 'taken.over@users.test',
    member_type: 'admin',
    roles: ['school_employee'],
    can_access_all_campuses: true,
  });

/** Every id-taking call of the area, against one tenant's users. */
function casesFor(target: () => { company: string; school: string; client: string; session: number }) {
  return [
    ['getUser company', (c: ActorCtx) => getUser(c, 'company', target().company)],
    ['getUser school', (c: ActorCtx) => getUser(c, 'school', target().school)],
    ['updateCompanyUser', (c: ActorCtx) => updateCompanyUser(c, target().company, companyInput())],
    ['updateSchoolUser', (c: ActorCtx) => updateSchoolUser(c, target().school, schoolInput())],
    ['archiveUser company', (c: ActorCtx) => archiveUser(c, 'company', target().company)],
    ['archiveUser school', (c: ActorCtx) => archiveUser(c, 'school', target().school)],
    ['activateUser school', (c: ActorCtx) => activateUser(c, 'school', target().school)],
    ['suspendSchoolUser', (c: ActorCtx) => suspendSchoolUser(c, target().school)],
    ['unsuspendSchoolUser', (c: ActorCtx) => unsuspendSchoolUser(c, target().school)],
    ['approveSchoolUser', (c: ActorCtx) => approveSchoolUser(c, target().school)],
    ['declineUser school', (c: ActorCtx) => declineUser(c, 'school', target().school)],
    ['declineUser company', (c: ActorCtx) => declineUser(c, 'company', target().company)],
    ['deleteUser school', (c: ActorCtx) => deleteUser(c, 'school', target().school)],
    ['deleteUser company', (c: ActorCtx) => deleteUser(c, 'company', target().company)],
    ['resendInvitation', (c: ActorCtx) => resendInvitation(c, 'school', target().school)],
    ['revokeInvitation', (c: ActorCtx) => revokeInvitation(c, 'company', target().company)],
    ['usersSummary of a client', (c: ActorCtx) => usersSummary(c, 'school', target().client)],
    [
      'listSchoolUsers of a client',
      (c: ActorCtx) => listSchoolUsers(c, schoolUserListSchema.parse({ clients: target().client })),
    ],
    // Account sessions: another user's session is not found, whatever the tenant.
    ['endOwnSession of another user', (c: ActorCtx) => endOwnSession(c, target().session)],
  ] as const;
}

/** Calls a user's permissions do not allow answer Forbidden before scope; only the rest are in the matrix. */
const SCHOOL_ONLY = new Set([
  'getUser school',
  'updateSchoolUser',
  'archiveUser school',
  'activateUser school',
  'suspendSchoolUser',
  'unsuspendSchoolUser',
  'resendInvitation',
  'usersSummary of a client',
  'listSchoolUsers of a client',
  'endOwnSession of another user',
]);

const matrix = [
  ...['strangerCompanyUser', 'secondCompanyAdmin'].flatMap((who) =>
    casesFor(() => records.albion).map(([name, run]) => ({ who, owner: 'Albion', name, run })),
  ),
  ...['strangerSchoolMaster', 'otherSchoolMaster'].flatMap((who) =>
    casesFor(() => records.albion)
      .filter(([name]) => SCHOOL_ONLY.has(name))
      .map(([name, run]) => ({ who, owner: 'Albion', name, run })),
  ),
  ...casesFor(() => records.dalriada).map(([name, run]) => ({
    who: 'albionCompanyUser',
    owner: 'Dalriada',
    name,
    run,
  })),
  ...casesFor(() => records.dalriada)
    .filter(([name]) => SCHOOL_ONLY.has(name))
    .map(([name, run]) => ({ who: 'oakwoodMaster', owner: 'Dalriada', name, run })),
];

/**
 * The support view's id-taking calls, for the actors who may open one (senior admins): a school user of a
 * tenant they cannot see is not found. Actors who may not open a view are refused before any look-up.
 */
const SUPPORT_MATRIX = [
  { who: 'albionCompanyUser', owner: 'Dalriada', target: () => records.dalriada },
  { who: 'strangerCompanyUser', owner: 'Albion', target: () => records.albion },
];

describe('users tenant isolation', () => {
  it.each(matrix)('$who gets not found from $name on a user of $owner', async ({ who, run }) => {
    await expect(run(actors[who])).rejects.toBeInstanceOf(NotFound);
  });

  it.each(SUPPORT_MATRIX)(
    '$who gets not found from the support view calls on a school user of $owner',
    async ({ who, target }) => {
      expect(mayOpenSupportView(actors[who].actor), `${who} is a senior admin`).toBe(true);
      await expect(getSupportTarget(actors[who], target().school)).rejects.toBeInstanceOf(NotFound);
      await expect(startSupportView(actors[who], target().school, 'web')).rejects.toBeInstanceOf(NotFound);
    },
  );

  it('lists only the actor’s own sessions, and a stop ends only the view it came with', async () => {
    const own = await listOwnSessions(actors.albionCompanyUser);
    expect(own.map((s) => s.id)).not.toContain(records.albion.session);
    expect(own.map((s) => s.id)).not.toContain(records.dalriada.session);
    // A stop without a view of one's own is refused.
    await expect(stopSupportView(actors.strangerCompanyUser)).rejects.toBeInstanceOf(Conflict);
    // Other users' live sessions are untouched by every call of the matrix.
    const alive = await db()
      .select({ id: sessions.id })
      .from(sessions)
      .where(inArray(sessions.id, [records.albion.session, records.dalriada.session]));
    expect(alive).toHaveLength(2);
  });

  it('school users never reach company users, whatever they hold', async () => {
    await expect(getUser(actors.oakwoodMaster, 'company', records.albion.company)).rejects.toThrow();
  });

  it('left every user as it was', async () => {
    expect((await userByEmail(DEMO_ACCOUNTS.finance)).status).toBe('active');
    const employee = await userByEmail(DEMO_ACCOUNTS.campusEmployee);
    expect(employee.status).toBe('active');
    expect(employee.suspended).toBe(false);
    expect((await userByEmail('staff@dalriada.users.test')).suspended).toBe(false);
  });
});
