/**
 * Builders shared by the demo seed and the tests, so demo data and test data look alike.
 * Each returns the row it wrote.
 */
import { eq, inArray } from 'drizzle-orm';
import {
  campuses,
  clients,
  companies,
  countries,
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
import { bulkInsert, runBatch } from '../../workers/platform/db';
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
  status?: 'active' | 'invited' | 'archived';
  suspended?: boolean;
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
      other_region_access: input.otherRegionAccess ?? false,
      landing_page: input.landingPage ?? 'insureds',
      phone_country: input.phoneCountry ?? null,
      phone_number: input.phoneNumber ?? null,
      email_verified_at: input.status === 'invited' ? null : new Date(),
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
