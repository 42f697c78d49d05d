/**
 * Test world of the configuration area (countries, insurers, companies): the UK demo seed plus a
 * stranger company with its own insurer, client, company user and school user, so isolation can be
 * checked from both sides. Built with the same builders as the demo seed.
 */
import { eq } from 'drizzle-orm';
import { companies, insurers, users } from '../../drizzle/schema';
import { buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { publicId } from '../../workers/platform/crypto';
import type { DB } from '../../workers/platform/db';
import { db, seedUk } from './world';

export const STRANGER = {
  company: 'Dalriada Cover Ltd',
  companyUser: 'stranger.admin@dalriada.test',
  schoolUser: 'stranger.school@dalriada.test',
} as const;

export async function buildInsurer(
  d: DB,
  input: { companyId: number; name: string; code?: string; status?: 'active' | 'archived' },
) {
  const [row] = await d
    .insert(insurers)
    .values({
      public_id: publicId(),
      company_id: input.companyId,
      name: input.name,
      code: input.code ?? null,
      status: input.status ?? 'active',
    })
    .returning();
  return row;
}

export interface ConfigWorld {
  albion: typeof companies.$inferSelect;
  britannia: typeof companies.$inferSelect;
  stranger: typeof companies.$inferSelect;
  albionInsurer: typeof insurers.$inferSelect;
  strangerInsurer: typeof insurers.$inferSelect;
}

/** Seeds the demo data and the stranger company (once per test file). */
export async function seedConfigWorld(): Promise<ConfigWorld> {
  const d = await seedUk();
  const all = await d.select().from(companies);
  const albion = all.find((c) => c.name.startsWith('Albion'))!;
  const britannia = all.find((c) => c.name.startsWith('Britannia'))!;
  let stranger = all.find((c) => c.name === STRANGER.company);
  if (!stranger) {
    stranger = await buildCompany(d, { name: STRANGER.company, country: 'IE', currency: 'EUR' });
    const school = await buildClient(d, { name: 'Dalriada Language School', companyId: stranger.id });
    await buildUser(d, {
      email: STRANGER.companyUser,
      first_name: 'Stella',
      last_name: 'Stranger',
      roles: ['senior_admin'],
      companyIds: [stranger.id],
    });
    await buildUser(d, {
      email: STRANGER.schoolUser,
      first_name: 'Sean',
      last_name: 'Stranger',
      roles: ['school_master_user'],
      clientId: school.id,
      canAccessAllCampuses: true,
      isMasterUser: true,
    });
    await buildInsurer(d, { companyId: stranger.id, name: 'Dalriada Mutual', code: 'DALMUT' });
    await buildInsurer(d, { companyId: albion.id, name: 'Albion Underwriting', code: 'ALBUW' });
  }
  const [albionInsurer] = await d.select().from(insurers).where(eq(insurers.code, 'ALBUW'));
  const [strangerInsurer] = await d.select().from(insurers).where(eq(insurers.code, 'DALMUT'));
  return { albion, britannia, stranger, albionInsurer, strangerInsurer };
}

/** Sets the top-bar company of a user (0 = all companies), as the company switcher does. */
export async function chooseCompany(email: string, companyId: number | null) {
  await db().update(users).set({ selected_company_id: companyId }).where(eq(users.email, email));
}
