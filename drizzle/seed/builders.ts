/**
 * Builders shared by the demo seed and the tests, so demo data and test data look alike.
 * Each returns the row it wrote.
 */
import { eq, inArray, sql } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  contracts,
  countries,
  taxRates,
  enrollments,
  policyBatches,
  permissions,
  rolePermissions,
  roles,
  userCampuses,
  userCompanies,
  userRoles,
  units,
  users,
} from '../schema';
import type { DB } from '../../workers/platform/db';
import { bulkInsert, chunk, runBatch, type Statement } from '../../workers/platform/db';
import { publicId } from '../../workers/platform/crypto';
import { hashPassword } from '../../workers/platform/auth/password';
import { ALL_PERMISSIONS, groupOf } from '../../workers/domain/access/permissions';
import { DEFAULT_ROLES } from '../../workers/domain/access/default-roles';
import { BASE_COUNTRIES } from './countries';
import { DEFAULT_UNITS } from '../../workers/domain/products/units';

export const DEMO_PASSWORD = 'Demo-Passw0rd!';

const hashCache = new Map<string, Promise<string>>();
/** Hashing is deliberately slow; builders hash each distinct password once per process. */
export function cachedHash(password: string): Promise<string> {
  let hash = hashCache.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashCache.set(password, hash);
  }
  return hash;
}

/** Permissions and the default roles with their permissions. Safe to run twice. */
export async function seedAccessControl(db: DB): Promise<void> {
  const existing = await db.select({ name: permissions.name }).from(permissions);
  const have = new Set(existing.map((p) => p.name));
  await runBatch(
    db,
    bulkInsert(
      db,
      permissions,
      ALL_PERMISSIONS.filter((p) => !have.has(p)).map((name) => ({ name, group: groupOf(name) })),
    ),
  );
  const allPerms = await db.select().from(permissions);
  const permId = new Map(allPerms.map((p) => [p.name, p.id]));
  for (const role of DEFAULT_ROLES) {
    const [found] = await db.select().from(roles).where(eq(roles.slug, role.slug)).limit(1);
    if (found) continue;
    const [row] = await db
      .insert(roles)
      .values({ slug: role.slug, name: role.name, family: role.family })
      .returning();
    await runBatch(
      db,
      bulkInsert(
        db,
        rolePermissions,
        role.permissions.map((p) => ({ role_id: row.id, permission_id: permId.get(p)! })),
      ),
    );
  }
}

/** The shipped country list; adds the countries a database lacks (by alpha-2), so it is safe to run twice. */
export async function seedCountries(db: DB): Promise<void> {
  const existing = await db.select({ abbreviation: countries.abbreviation }).from(countries);
  const have = new Set(existing.map((c) => c.abbreviation));
  await runBatch(
    db,
    bulkInsert(
      db,
      countries,
      BASE_COUNTRIES.filter((c) => !have.has(c.abbreviation)).map((c) => ({ ...c })),
    ),
  );
}

/** The units of a product's term (day, week, month, year); adds the ones missing, so safe to run twice. */
export async function seedUnits(db: DB): Promise<void> {
  const existing = await db.select({ name: units.name }).from(units);
  const have = new Set(existing.map((u) => u.name));
  await runBatch(
    db,
    bulkInsert(
      db,
      units,
      DEFAULT_UNITS.filter((u) => !have.has(u.name)).map((u) => ({ name: u.name, days: u.days })),
    ),
  );
}

export async function countryId(db: DB, abbreviation: string): Promise<number> {
  const [row] = await db
    .select({ id: countries.id })
    .from(countries)
    .where(eq(countries.abbreviation, abbreviation))
    .limit(1);
  if (!row) throw new Error(`Country ${abbreviation} is not seeded`);
  return row.id;
}

export async function buildCompany(db: DB, input: { name: string; country?: string; currency?: string }) {
  const [row] = await db
    .insert(companies)
    .values({
      public_id: publicId(),
      name: input.name,
      country_id: await countryId(db, input.country ?? 'GB'),
      currency: input.currency ?? 'GBP',
    })
    .returning();
  return row;
}

export async function buildClient(
  db: DB,
  input: { name: string; companyId: number; type?: 'school' | 'agency' | 'guardianship' | 'other' },
) {
  const [row] = await db
    .insert(clients)
    .values({
      public_id: publicId(),
      name: input.name,
      company_id: input.companyId,
      type: input.type ?? 'school',
    })
    .returning();
  return row;
}

export async function buildCampus(db: DB, input: { name: string; clientId: number; country?: string }) {
  const [row] = await db
    .insert(campuses)
    .values({
      public_id: publicId(),
      name: input.name,
      client_id: input.clientId,
      country_id: await countryId(db, input.country ?? 'GB'),
    })
    .returning();
  return row;
}

export interface UserInput {
  email: string;
  first_name: string;
  last_name: string;
  roles: string[];
  user_type?: 'company' | 'school' | 'student';
  password?: string | null;
  companyIds?: number[];
  clientId?: number;
  campusIds?: number[];
  canAccessAllCampuses?: boolean;
  isMasterUser?: boolean;
  status?: 'active' | 'invited' | 'archived' | 'pending' | 'declined';
  suspended?: boolean;
  memberType?: 'admin' | 'employee';
  jobTitle?: string;
  otherRegionAccess?: boolean;
  landingPage?: 'dashboard' | 'insureds' | 'clients' | 'products';
  phoneCountry?: string;
  phoneNumber?: string;
}

export async function buildUser(db: DB, input: UserInput) {
  const roleRows = await db.select().from(roles).where(inArray(roles.slug, input.roles));
  if (roleRows.length !== input.roles.length) throw new Error(`Unknown role in ${input.roles.join(', ')}`);
  const password = input.password === undefined ? DEMO_PASSWORD : input.password;
  const [user] = await db
    .insert(users)
    .values({
      public_id: publicId(),
      email: input.email.toLowerCase(),
      password_hash: password ? await cachedHash(password) : null,
      first_name: input.first_name,
      last_name: input.last_name,
      user_type: input.user_type ?? roleRows[0].family,
      status: input.status ?? 'active',
      suspended: input.suspended ?? false,
      client_id: input.clientId ?? null,
      can_access_all_campuses: input.canAccessAllCampuses ?? false,
      is_master_user: input.isMasterUser ?? false,
      member_type: input.memberType ?? null,
      job_title: input.jobTitle ?? null,
      other_region_access: input.otherRegionAccess ?? false,
      landing_page: input.landingPage ?? 'insureds',
      phone_country: input.phoneCountry ?? null,
      phone_number: input.phoneNumber ?? null,
      email_verified_at:
        input.status && input.status !== 'active' && input.status !== 'archived' ? null : new Date(),
    })
    .returning();
  await runBatch(db, [
    ...bulkInsert(
      db,
      userRoles,
      roleRows.map((r) => ({ user_id: user.id, role_id: r.id })),
    ),
    ...bulkInsert(
      db,
      userCompanies,
      (input.companyIds ?? []).map((company_id) => ({ user_id: user.id, company_id })),
    ),
    ...bulkInsert(
      db,
      userCampuses,
      (input.campusIds ?? []).map((campus_id) => ({ user_id: user.id, campus_id })),
    ),
  ]);
  return user;
}

// ================================================================ ordering: policy batches and enrollments
// Test and demo builders for the cart and checkout. They write rows directly (no rules run), so a test can
// put a batch in any state; applicants that should pass checkout must be valid as the rules see them.

export interface ApplicantSeed {
  first_name?: string;
  last_name?: string;
  type?: 'student' | 'immediate_family' | 'group_leader';
  date_of_birth?: string;
  email?: string | null;
  start_date: string;
  end_date: string;
  /** Country abbreviations; default FR (residence) and GB (destination). */
  residence?: string;
  destination?: string;
  /** Stored as the enrollment's errors (an enrollment with errors cannot be checked out). */
  errors?: { field: string; message: string }[];
  /** Index (in this list) of the student a family member depends on, and of the group leader. */
  dependency_index?: number;
  group_leader_index?: number;
}

const SEED_FIRST_NAMES = ['Ana', 'Ben', 'Chloe', 'Dara', 'Emil', 'Farah', 'Goran', 'Hana', 'Ivo', 'Jade'];
const SEED_LAST_NAMES = ['Silva', 'Okafor', 'Novak', 'Moreau', 'Kowalski', 'Lindqvist', 'Rossi', 'Tanaka'];

/** Applicants with valid, distinct names and the given trip dates (for bulk tests and benchmarks). */
export function seedApplicants(
  count: number,
  trip: { start_date: string; end_date: string },
): ApplicantSeed[] {
  return Array.from({ length: count }, (_, i) => ({
    first_name: `${SEED_FIRST_NAMES[i % SEED_FIRST_NAMES.length]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 10) % 26]}`,
    last_name: `${SEED_LAST_NAMES[i % SEED_LAST_NAMES.length]}-${'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 260) % 26]}${'abcdefghijklmnopqrstuvwxyz'[Math.floor(i / 6760) % 26]}`,
    email: `applicant.${i + 1}@example.test`,
    ...trip,
  }));
}

/**
 * A policy batch of a campus under a contract with its enrollments (default: open, in the creator's
 * cart). The stored fee is the contract's price for the trip (no tax); checkout recomputes it anyway.
 */
export async function buildPolicyBatch(
  db: DB,
  input: {
    campusId: number;
    contractId: number;
    createdBy: number;
    applicants: ApplicantSeed[];
    status?: 'draft' | 'open' | 'confirmed' | 'cleared';
    openedAt?: Date;
    updatedAt?: Date;
    sendWelcomeEmail?: boolean;
  },
) {
  const [campus] = await db
    .select({ client_id: campuses.client_id, company_id: clients.company_id })
    .from(campuses)
    .innerJoin(clients, eq(clients.id, campuses.client_id))
    .where(eq(campuses.id, input.campusId));
  const [contract] = await db.select().from(contracts).where(eq(contracts.id, input.contractId));
  const status = input.status ?? 'open';
  const now = new Date();
  const [batch] = await db
    .insert(policyBatches)
    .values({
      public_id: publicId(),
      company_id: campus.company_id,
      client_id: campus.client_id,
      campus_id: input.campusId,
      contract_id: input.contractId,
      status,
      created_by: input.createdBy,
      send_welcome_email: input.sendWelcomeEmail ?? false,
      opened_at: status === 'draft' ? null : (input.openedAt ?? now),
      created_at: input.updatedAt ?? now,
      updated_at: input.updatedAt ?? now,
    })
    .returning();
  const codes = [...new Set(input.applicants.flatMap((a) => [a.residence ?? 'FR', a.destination ?? 'GB']))];
  const countryOf = new Map<string, number>();
  for (const code of codes) countryOf.set(code, await countryId(db, code));
  const fee = contract.custom_minor ?? contract.sale_minor;
  const rows = input.applicants.map((a, i) => ({
    public_id: publicId(),
    position: i + 1,
    type: a.type ?? 'student',
    first_name: a.first_name ?? SEED_FIRST_NAMES[i % SEED_FIRST_NAMES.length],
    last_name: a.last_name ?? SEED_LAST_NAMES[i % SEED_LAST_NAMES.length],
    date_of_birth: a.date_of_birth ?? '2005-04-12',
    email: a.email === undefined ? `applicant.${i + 1}@example.test` : a.email,
    residence_country_id: countryOf.get(a.residence ?? 'FR'),
    destination_country_id: countryOf.get(a.destination ?? 'GB'),
    start_date: a.start_date,
    end_date: a.end_date,
    errors: a.errors ?? [],
    error_count: a.errors?.length ?? 0,
    fee_minor: a.errors?.length ? null : fee,
    tax_minor: a.errors?.length ? null : 0,
  }));
  // JSON row sets: one bound parameter per thousand applicants (D1 binds at most 100 per statement).
  const statements: Statement[] = [];
  for (const part of chunk(rows, 1000)) {
    const set = JSON.stringify(part);
    statements.push(
      db.run(sql`INSERT INTO enrollments (public_id, batch_id, position, type, first_name, last_name, date_of_birth,
          email, residence_country_id, destination_country_id, start_date, end_date, errors, error_count,
          fee_minor, tax_minor, created_at, updated_at)
        SELECT value->>'public_id', ${batch.id}, value->>'position', value->>'type', value->>'first_name',
          value->>'last_name', value->>'date_of_birth', value->>'email', value->>'residence_country_id',
          value->>'destination_country_id', value->>'start_date', value->>'end_date', value->'errors',
          value->>'error_count', value->>'fee_minor', value->>'tax_minor', ${now.getTime()}, ${now.getTime()}
        FROM json_each(${set})`) as never,
    );
  }
  const links = input.applicants
    .map((a, i) => ({ pos: i + 1, dep: a.dependency_index, lead: a.group_leader_index }))
    .filter((l) => l.dep !== undefined || l.lead !== undefined)
    .map((l) => ({
      pos: l.pos,
      dep: l.dep === undefined ? null : l.dep + 1,
      lead: l.lead === undefined ? null : l.lead + 1,
    }));
  if (links.length)
    statements.push(
      db.run(sql`UPDATE enrollments SET
          dependency_id = (SELECT d.id FROM enrollments d WHERE d.batch_id = ${batch.id} AND d.position = j.value->>'dep'),
          group_leader_id = (SELECT g.id FROM enrollments g WHERE g.batch_id = ${batch.id} AND g.position = j.value->>'lead')
        FROM json_each(${JSON.stringify(links)}) AS j
        WHERE enrollments.batch_id = ${batch.id} AND enrollments.position = j.value->>'pos'`) as never,
    );
  await runBatch(db, statements);
  const stored = await db
    .select()
    .from(enrollments)
    .where(eq(enrollments.batch_id, batch.id))
    .orderBy(enrollments.position);
  return { batch, enrollments: stored };
}

/** Example bank details (the well-known valid example IBAN), for the demo company and tests. */
export const DEMO_BANK_DETAILS = {
  bank_name: 'Barclays Bank UK',
  bic: 'BUKBGB22',
  iban: 'GB33BUKB20201555555555',
  branch_code: '20-20-15',
  account_number: '55555555',
};

/** Sets a company's bank details (where bank transfers for its invoices go). */
export async function setCompanyBankDetails(db: DB, companyId: number, details: typeof DEMO_BANK_DETAILS) {
  await db.update(companies).set(details).where(eq(companies.id, companyId));
}

/** An active percentage tax rate (basis points: 1200 = 12 %) for a country from `startDate`. */
export async function buildTaxRate(db: DB, input: { country: string; rateBp: number; startDate: string }) {
  const [row] = await db
    .insert(taxRates)
    .values({
      country_id: await countryId(db, input.country),
      rate_bp: input.rateBp,
      start_date: input.startDate,
      active: true,
    })
    .returning();
  return row;
}
