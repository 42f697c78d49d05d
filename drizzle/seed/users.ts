/**
 * Demo users of the users screens (/manage-users): company and school users in every state, with open,
 * expired and revoked invitations, and several school users per demo client with their campus access.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { campuses, clients, invitations, users } from '../schema';
import type { DB } from '../../workers/platform/db';
import { randomToken, sha256Hex } from '../../workers/platform/crypto';
import { buildUser } from './builders';

const DAY = 24 * 60 * 60 * 1000;

async function invitation(db: DB, userId: number, sentDaysAgo: number, extra: { revoked?: boolean } = {}) {
  const created = new Date(Date.now() - sentDaysAgo * DAY);
  await db.insert(invitations).values({
    token_hash: await sha256Hex(randomToken()),
    user_id: userId,
    created_at: created,
    expires_at: new Date(created.getTime() + 7 * DAY),
    revoked_at: extra.revoked ? new Date(created.getTime() + DAY) : null,
  });
}

export async function seedDemoUsers(
  db: DB,
  input: { mainCompanyId: number; secondCompanyId: number; oakwoodId: number },
) {
  const company = [input.mainCompanyId];
  // The demo accounts' user type: the administrators and the school's master user are admins.
  const admins = ['senior.admin@demo.test', 'admin@demo.test', 'school.admin@demo.test'];
  await db.update(users).set({ member_type: 'admin' }).where(inArray(users.email, admins));
  await db.update(users).set({ member_type: 'employee' }).where(isNull(users.member_type));
  // Company users in each state.
  const invited = await buildUser(db, {
    email: 'new.starter@demo.test',
    first_name: 'Nina',
    last_name: 'Starter',
    roles: ['finance'],
    companyIds: company,
    status: 'invited',
    password: null,
    memberType: 'employee',
    jobTitle: 'Credit Controller',
  });
  await invitation(db, invited.id, 2);
  const lapsed = await buildUser(db, {
    email: 'late.reply@demo.test',
    first_name: 'Leo',
    last_name: 'Lately',
    roles: ['account_manager'],
    companyIds: company,
    status: 'invited',
    password: null,
    memberType: 'employee',
  });
  await invitation(db, lapsed.id, 10);
  await buildUser(db, {
    email: 'former.admin@demo.test',
    first_name: 'Fran',
    last_name: 'Former',
    roles: ['administrator'],
    companyIds: company,
    status: 'archived',
    memberType: 'admin',
  });
  await buildUser(db, {
    email: 'britannia.manager@demo.test',
    first_name: 'Bryony',
    last_name: 'Britt',
    roles: ['account_manager'],
    companyIds: [input.secondCompanyId],
    memberType: 'employee',
    jobTitle: 'Account Manager',
  });

  // School users of every demo client of the main company, with their campus access.
  const schools = await db
    .select({ id: clients.id, name: clients.name })
    .from(clients)
    .where(and(eq(clients.company_id, input.mainCompanyId)));
  for (const school of schools) {
    const slug = school.name.toLowerCase().split(' ')[0];
    const sites = await db
      .select({ id: campuses.id })
      .from(campuses)
      .where(eq(campuses.client_id, school.id));
    const first = sites[0] ? [sites[0].id] : [];
    await buildUser(db, {
      email: `registrar@${slug}.demo.test`,
      first_name: 'Rita',
      last_name: 'Registrar',
      roles: ['school_admin'],
      clientId: school.id,
      canAccessAllCampuses: true,
      memberType: 'admin',
      jobTitle: 'Registrar',
    });
    await buildUser(db, {
      email: `welfare@${slug}.demo.test`,
      first_name: 'Wes',
      last_name: 'Welfare',
      roles: ['school_employee'],
      clientId: school.id,
      campusIds: first,
      canAccessAllCampuses: first.length === 0,
      memberType: 'employee',
    });
    await buildUser(db, {
      email: `on.leave@${slug}.demo.test`,
      first_name: 'Olly',
      last_name: 'Leave',
      roles: ['school_employee'],
      clientId: school.id,
      campusIds: first,
      canAccessAllCampuses: first.length === 0,
      suspended: true,
      memberType: 'employee',
    });
    // Added by the school's master user: waits for the insurer's approval.
    await buildUser(db, {
      email: `awaiting@${slug}.demo.test`,
      first_name: 'Ava',
      last_name: 'Waiting',
      roles: ['school_employee'],
      clientId: school.id,
      campusIds: first,
      canAccessAllCampuses: first.length === 0,
      status: 'pending',
      password: null,
      memberType: 'employee',
    });
    await buildUser(db, {
      email: `declined@${slug}.demo.test`,
      first_name: 'Dex',
      last_name: 'Declined',
      roles: ['school_employee'],
      clientId: school.id,
      canAccessAllCampuses: true,
      status: 'declined',
      password: null,
      memberType: 'employee',
    });
    const revoked = await buildUser(db, {
      email: `revoked@${slug}.demo.test`,
      first_name: 'Rory',
      last_name: 'Revoked',
      roles: ['school_employee'],
      clientId: school.id,
      campusIds: first,
      canAccessAllCampuses: first.length === 0,
      status: 'invited',
      password: null,
      memberType: 'employee',
    });
    await invitation(db, revoked.id, 3, { revoked: true });
    await buildUser(db, {
      email: `alumni@${slug}.demo.test`,
      first_name: 'Al',
      last_name: 'Umni',
      roles: ['school_employee'],
      clientId: school.id,
      canAccessAllCampuses: true,
      status: 'archived',
      memberType: 'employee',
    });
  }
}
