import { seedDemoUsers } from './users';
import { eq, sql } from 'drizzle-orm';
import { clients, users } from '../schema';
import type { DB } from '../../workers/platform/db';
import {
  buildCampus,
  buildClient,
  buildCompany,
  buildUser,
  seedAccessControl,
  seedCountries,
  seedUnits,
  setCompanyBankDetails,
  buildTaxRate,
  DEMO_BANK_DETAILS,
} from './builders';
import { seedDemoClients } from './clients';
import { seedDemoRoles } from './roles';
import { seedDemoContracts } from './contracts';
import { seedBilling } from './billing';
import { seedInvoiceVolume } from './invoice-volume';
import { seedReconciliation } from './reconciliation';
import { seedOnAccountPolicies, seedRegionTaxes } from './issuing';
import { seedDemoPolicies } from './policies';
import { seedIrelandDemo } from './ireland';
import { seedDemoClientDocuments } from './client-documents';
import { seedDemoMessages } from './messages';
import { seedDemoMfaActivity } from './mfa';
import { seedDemoSessions } from './sessions';
import { seedPartners } from './partners';
import { seedPartnerApplicants } from './applicants';
import { seedDemoProductGroups } from './product-groups';
import { seedDemoNotices } from './notices';
import { notify } from '../../workers/domain/notifications/service';
import { createInvitation } from '../../workers/domain/auth/service';
import { runBatch } from '../../workers/platform/db';
import type { Env } from '../../workers/env';

/** The demo accounts (README lists them). All use the password Demo-Passw0rd!. */
export const DEMO_ACCOUNTS = {
  seniorAdmin: 'senior.admin@demo.test',
  admin: 'admin@demo.test',
  finance: 'finance@demo.test',
  accountManager: 'account.manager@demo.test',
  executive: 'executive@demo.test',
  external: 'external@demo.test',
  schoolAdmin: 'school.admin@demo.test',
  campusEmployee: 'campus.employee@demo.test',
  financeReadOnly: 'finance.readonly@demo.test',
} as const;

export async function isEmpty(db: DB): Promise<boolean> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)` }).from(users);
  return n === 0;
}

/**
 * Demo data of a region. UK: two companies (so "all companies" shows), a user per role, a school client
 * with two campuses. Ireland: one company, the senior admin (who may hand over between the regions) and an
 * English-language school with campuses in Dublin and Galway, its orders, invoices with the levy and stamp
 * duty, payments and a cancellation (drizzle/seed/ireland.ts).
 */
export async function seedDemo(db: DB, region: 'uk' | 'ie', env?: Env): Promise<{ seeded: boolean }> {
  await seedUnits(db);
  if (!(await isEmpty(db))) {
    // Only when serving: the demo users' sessions on other devices, renewed (drizzle/seed/sessions.ts).
    if (env) await seedDemoSessions(db, Object.values(DEMO_ACCOUNTS), DEMO_ACCOUNTS.seniorAdmin);
    return { seeded: false };
  }
  await seedCountries(db);
  await seedAccessControl(db);

  const seedEnv =
    env ??
    ({ PUBLIC_URL: '', PRODUCT_NAME: 'Enrolment', JOBS: { sendBatch: async () => {} } } as unknown as Env);

  if (region === 'ie') {
    // Ireland's taxes, its school with two campuses, orders, invoices, payments and a cancellation.
    const ie = await seedIrelandDemo(db, {
      env: seedEnv,
      seniorEmail: DEMO_ACCOUNTS.seniorAdmin,
      schoolEmail: DEMO_ACCOUNTS.schoolAdmin,
    });
    await welcome(db, ie.seniorId);
    await welcome(db, ie.schoolAdminId);
    return { seeded: true };
  }

  const main = await buildCompany(db, { name: 'Albion Student Insurance Ltd', country: 'GB' });
  // Where the demo school's bank transfers go (the bank-transfer payment page shows them).
  await setCompanyBankDetails(db, main.id, DEMO_BANK_DETAILS);
  // UK Insurance Premium Tax at its standard rate (12 % since June 2017), so fees show their tax.
  await buildTaxRate(db, { country: 'GB', rateBp: 1200, startDate: '2017-06-01' });
  const second = await buildCompany(db, { name: 'Britannia Travel Cover Ltd', country: 'GB' });
  const school = await buildClient(db, { name: 'Oakwood International School', companyId: main.id });
  const north = await buildCampus(db, { name: 'Oakwood North Campus', clientId: school.id });
  const south = await buildCampus(db, { name: 'Oakwood South Campus', clientId: school.id });

  const company = [main.id];
  const senior = await buildUser(db, {
    email: DEMO_ACCOUNTS.seniorAdmin,
    first_name: 'Sarah',
    last_name: 'Senior',
    roles: ['senior_admin'],
    companyIds: [main.id, second.id],
    otherRegionAccess: true,
    landingPage: 'dashboard',
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.admin,
    first_name: 'Adam',
    last_name: 'Admin',
    roles: ['administrator'],
    companyIds: company,
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.finance,
    first_name: 'Fiona',
    last_name: 'Finance',
    roles: ['finance'],
    companyIds: company,
  });
  const accountManager = await buildUser(db, {
    email: DEMO_ACCOUNTS.accountManager,
    first_name: 'Mark',
    last_name: 'Manager',
    roles: ['account_manager'],
    companyIds: company,
    landingPage: 'clients',
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.executive,
    first_name: 'Eve',
    last_name: 'Executive',
    roles: ['executive'],
    companyIds: [main.id, second.id],
    landingPage: 'dashboard',
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.external,
    first_name: 'Ed',
    last_name: 'External',
    roles: ['external'],
    companyIds: company,
  });
  const schoolAdmin = await buildUser(db, {
    email: DEMO_ACCOUNTS.schoolAdmin,
    first_name: 'Susan',
    last_name: 'School',
    roles: ['school_master_user'],
    clientId: school.id,
    canAccessAllCampuses: true,
    isMasterUser: true,
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.campusEmployee,
    first_name: 'Carl',
    last_name: 'Campus',
    roles: ['school_employee'],
    clientId: school.id,
    campusIds: [north.id],
  });
  // An invited user, so the invitation sign-up can be tried: the invitation email is in the dev mailbox.
  // Tests seed without bindings; then the email stays pending in the outbox and the link is only logged.
  const invited = await buildUser(db, {
    email: 'invited.user@demo.test',
    first_name: 'Ivy',
    last_name: 'Invited',
    roles: ['school_employee'],
    clientId: school.id,
    status: 'invited',
    password: null,
  });
  const token = await createInvitation({ db, env: seedEnv, now: new Date(), actor: null }, invited.id);
  if (env)
    console.log(`Invitation for invited.user@demo.test: ${env.PUBLIC_URL}/invite/sign-up?token=${token}`);
  await seedDemoMfaActivity(db, {
    master: DEMO_ACCOUNTS.schoolAdmin,
    employee: DEMO_ACCOUNTS.campusEmployee,
  });
  await seedDemoClients(db, {
    mainCompanyId: main.id,
    secondCompanyId: second.id,
    oakwoodId: school.id,
    accountManagerId: accountManager.id,
  });
  // Custom roles made on the privileges page, and a demo account holding "Finance (read only)".
  const { financeReadOnlySlug } = await seedDemoRoles(db, {
    seniorAdminId: senior.id,
    secondCompanyId: second.id,
  });
  await buildUser(db, {
    email: DEMO_ACCOUNTS.financeReadOnly,
    first_name: 'Rita',
    last_name: 'Readonly',
    roles: [financeReadOnlySlug],
    companyIds: company,
  });
  // Only when serving: the users screens' demo users in every state (drizzle/seed/users.ts).
  if (env)
    await seedDemoUsers(db, { mainCompanyId: main.id, secondCompanyId: second.id, oakwoodId: school.id });
  // Only when serving: the regions' taxes as the demo's policies are priced (UK IPT 20 %, Irish levy 3 %
  // and stamp duty; drizzle/seed/issuing.ts).
  if (env) await seedRegionTaxes(db);
  // Only when serving: tests seed without bindings and build the contracts they need themselves.
  if (env)
    await seedDemoContracts(db, {
      companyId: main.id,
      clientPublicId: school.public_id,
      campusPublicIds: [north.public_id, south.public_id],
      actingUserId: senior.id,
    });
  // Only when serving (files go to R2): Oakwood's return policy, agreement terms and a note's file.
  if (env)
    await seedDemoClientDocuments(db, env, {
      companyId: main.id,
      clientId: school.id,
      clientPublicId: school.public_id,
      actingUserId: senior.id,
    });
  // Only when serving, as the contracts: the insureds list of both demo schools (drizzle/seed/policies.ts).
  if (env) {
    const [kingsbridge] = await db
      .select({ id: clients.id })
      .from(clients)
      .where(eq(clients.name, 'Kingsbridge Language Academy'));
    await seedDemoPolicies(db, {
      companyId: main.id,
      oakwoodCampusIds: [north.id, south.id],
      kingsbridgeClientId: kingsbridge.id,
      seniorAdminId: senior.id,
    });
    // Their invoices over the last twelve months, paid, part paid, overdue, refunded, credited, voided.
    await seedBilling(db, { userId: senior.id });
    // Oakwood is on monthly terms: four policies ordered today on account, for the period's invoice.
    await seedOnAccountPolicies(db, env);
    // A bank statement in review, built from what is still unpaid.
    await seedReconciliation(db);
    // Kingsbridge's 220 small fortnightly invoices: enough to download more than 200 as a ZIP job.
    await seedInvoiceVolume(db, { clientId: kingsbridge.id, companyId: main.id, userId: senior.id });
    // API keys (no key shown anywhere) and Oakwood's webhook endpoint on the local test receiver.
    await seedPartners(db, {
      publicUrl: env.PUBLIC_URL,
      companyId: main.id,
      seniorAdminId: senior.id,
      school: {
        clientId: school.id,
        userId: schoolAdmin.id,
        permissions: ['create_insured', 'create_policy', 'read_insured', 'read_invoice', 'read_policy'],
      },
    });
    // The health-insurance partner's applicants, one of them enrolled (drizzle/seed/applicants.ts).
    await seedPartnerApplicants(db, { companyId: main.id });
    // Conversations between the insurer and both schools in every state (drizzle/seed/messages.ts).
    await seedDemoMessages(db, env, {
      companyId: main.id,
      emails: {
        staff: DEMO_ACCOUNTS.admin,
        school: DEMO_ACCOUNTS.schoolAdmin,
        campus: DEMO_ACCOUNTS.campusEmployee,
      },
    });
    // The catalogue's product groups, with the products they gather (drizzle/seed/product-groups.ts).
    await seedDemoProductGroups(db, {
      mainCompanyId: main.id,
      secondCompanyId: second.id,
      actingUserId: senior.id,
    });
    // A notice to Oakwood, acknowledged by the demo school accounts and pending for its other users.
    await seedDemoNotices(db, {
      companyId: main.id,
      clientPublicId: school.public_id,
      seniorAdminId: senior.id,
      acknowledgedBy: [DEMO_ACCOUNTS.schoolAdmin, DEMO_ACCOUNTS.campusEmployee],
    });
  }
  await welcome(db, senior.id);
  await welcome(db, schoolAdmin.id);
  if (env) await seedDemoSessions(db, Object.values(DEMO_ACCOUNTS), DEMO_ACCOUNTS.seniorAdmin);
  return { seeded: true };
}

async function welcome(db: DB, userId: number) {
  const now = new Date();
  await runBatch(db, [
    ...notify(
      { db, now },
      {
        user_ids: [userId],
        key: 'welcome',
        to: '/account-details',
      },
    ),
  ]);
}
