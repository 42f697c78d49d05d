import { eq } from 'drizzle-orm';
import { permissions, rolePermissions, roles, sessions, userRoles, users } from '../../../drizzle/schema';
import { runBatch } from '../../platform/db';
import { requireActor } from '../access/actor';
import { inSupportView, refuseInSupportView } from '../access/support';
import { logActivity } from '../audit/activity-log';
import type { ActorCtx } from '../context';
import { NotFound } from '../errors';

/** The signed-in user's own profile (account details page, GET auth/get). */
export async function getOwnProfile(ctx: ActorCtx) {
  const actor = requireActor(ctx.actor);
  const [[user], held] = await ctx.db.batch([
    ctx.db.select().from(users).where(eq(users.id, actor.user_id)).limit(1),
    // Each role lists its own permissions, not the union of all the user's roles.
    ctx.db
      .select({ slug: roles.slug, name: permissions.name })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.role_id))
      .innerJoin(rolePermissions, eq(rolePermissions.role_id, userRoles.role_id))
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
      .where(eq(userRoles.user_id, actor.user_id)),
  ]);
  if (!user) throw new NotFound();
  return {
    id: user.public_id,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    full_name: `${user.first_name} ${user.last_name}`,
    phone_country: user.phone_country,
    phone_number: user.phone_number,
    user_type: user.user_type,
    landing_page: user.landing_page,
    preferred_lang: user.preferred_lang,
    message_emails: user.message_emails,
    job_title: user.job_title,
    department: user.department,
    last_login_at: user.last_login_at?.toISOString() ?? null,
    companies: actor.companies.map((c) => ({
      id: c.public_id,
      name: c.name,
      country_id: c.country_id,
      country_name: c.country_name,
    })),
    selected_company_id: actor.companies.find((c) => c.id === actor.selected_company_id)?.public_id ?? null,
    roles: actor.roles.map((r) => ({
      name: r.name,
      slug: r.slug,
      permissions: held
        .filter((p) => p.slug === r.slug)
        .map((p) => p.name)
        .sort()
        .map((name) => ({ name })),
    })),
  };
}

export async function updateOwnProfile(
  ctx: ActorCtx,
  input: {
    first_name: string;
    last_name: string;
    landing_page: 'dashboard' | 'insureds' | 'clients' | 'products';
    message_emails?: boolean;
  },
) {
  const actor = requireActor(ctx.actor);
  refuseInSupportView(actor);
  const [before] = await ctx.db.select().from(users).where(eq(users.id, actor.user_id)).limit(1);
  const after = { ...before, ...input, updated_at: ctx.now };
  await runBatch(ctx.db, [
    ctx.db
      .update(users)
      .set({ ...input, updated_at: ctx.now })
      .where(eq(users.id, actor.user_id)),
    logActivity(ctx, {
      entity_type: 'user',
      entity_id: actor.user_id,
      action: 'profile_updated',
      before,
      after,
    }),
  ]);
}

/** Remembers the interface language the user chose. */
export async function setPreferredLanguage(
  ctx: ActorCtx,
  lang: (typeof users.$inferSelect)['preferred_lang'],
) {
  const actor = requireActor(ctx.actor);
  // A support view reads the portal in the admin's language without changing the user's choice.
  if (inSupportView(actor)) return;
  await ctx.db.update(users).set({ preferred_lang: lang }).where(eq(users.id, actor.user_id));
}

/**
 * The top-bar company choice: a company public id of the user's, or null for "all companies".
 * Stored on the session, which alone reads it (another browser or API client of the same account keeps
 * its own), and on the user as the choice the next sign-in starts with.
 */
export async function selectCompany(ctx: ActorCtx, companyPublicId: string | null) {
  const actor = requireActor(ctx.actor);
  // 0 stores "all companies"; see loadActor.
  let companyId = 0;
  if (companyPublicId) {
    const company = actor.companies.find((c) => c.public_id === companyPublicId);
    if (!company) throw new NotFound();
    companyId = company.id;
  }
  await runBatch(ctx.db, [
    ...(actor.session_id
      ? [
          ctx.db
            .update(sessions)
            .set({ selected_company_id: companyId })
            .where(eq(sessions.id, actor.session_id)),
        ]
      : []),
    ctx.db.update(users).set({ selected_company_id: companyId }).where(eq(users.id, actor.user_id)),
  ]);
  return companyId || null;
}

/** Where /home sends a user. */
export function landingPath(landing: string): string {
  switch (landing) {
    case 'dashboard':
      return '/dashboard';
    case 'clients':
      return '/clients';
    case 'products':
      return '/products';
    default:
      return '/insureds';
  }
}
