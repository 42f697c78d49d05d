/**
 * The support view (spec 000 s.4, the other-user token): who may open one, on whom, how long it lives,
 * what is logged, and what it may not do.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { activityLogs } from '../../drizzle/schema';
import { buildClient, buildCompany, buildUser } from '../../drizzle/seed/builders';
import { DEMO_PASSWORD } from '../../drizzle/seed/builders';
import { logActors } from '../../workers/domain/audit/activity-log';
import {
  SESSION_LIMITS,
  createSession,
  deleteSession,
  deleteUserSessions,
  resolveActor,
  resolvePageActor,
} from '../../workers/domain/auth/sessions';
import { getSupportTarget, startSupportView, stopSupportView } from '../../workers/domain/auth/support';
import { changePassword } from '../../workers/domain/auth/service';
import { createHandoverUrl } from '../../workers/domain/auth/handover';
import { updateOwnProfile } from '../../workers/domain/account/service';
import { endOtherSessions, endOwnSession, listOwnSessions } from '../../workers/domain/account/sessions';
import { mayOpenSupportView } from '../../workers/domain/access/support';
import { Conflict, Forbidden, NotFound } from '../../workers/domain/errors';
import type { ActorCtx } from '../../workers/domain/context';
import { DEMO_ACCOUNTS, ctx, db, seedUk, userByEmail, SETUP_TIMEOUT_MS } from '../support/world';

const MINUTE = 60_000;
const T0 = new Date('2026-06-01T09:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);

/** A signed-in session of a demo user, resolved as a request would: its token and its request context. */
async function signedIn(email: string, now = T0): Promise<{ token: string; ctx: ActorCtx }> {
  const user = await userByEmail(email);
  const { token } = await createSession(db(), { userId: user.id, kind: 'web', stage: 'active', now });
  const resolved = await resolveActor(db(), token, now);
  if (!resolved) throw new Error(`${email} cannot sign in`);
  return { token, ctx: ctx({ actor: resolved.actor, now }) as ActorCtx };
}

async function school(email: string) {
  return userByEmail(email);
}

let strangerPublicId = '';
let suspendedPublicId = '';

beforeAll(async () => {
  const d = await seedUk();
  // A school user of a company the demo senior admin does not belong to, and a suspended one of Oakwood.
  const company = await buildCompany(d, { name: 'Elsewhere Cover Ltd' });
  const client = await buildClient(d, { name: 'Faraway School', companyId: company.id });
  const stranger = await buildUser(d, {
    email: 'faraway.master@example.test',
    first_name: 'Far',
    last_name: 'Away',
    roles: ['school_master_user'],
    clientId: client.id,
    canAccessAllCampuses: true,
  });
  strangerPublicId = stranger.public_id;
  const oakwood = await userByEmail(DEMO_ACCOUNTS.schoolAdmin);
  const suspended = await buildUser(d, {
    email: 'suspended.school@example.test',
    first_name: 'Sus',
    last_name: 'Pended',
    roles: ['school_employee'],
    clientId: oakwood.client_id ?? undefined,
    suspended: true,
  });
  suspendedPublicId = suspended.public_id;
}, SETUP_TIMEOUT_MS);

describe('who may open a support view, and on whom', () => {
  it('a senior admin views the portal as a school user of their company: the token resolves to that user', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const target = await school(DEMO_ACCOUNTS.campusEmployee);
    const view = await startSupportView(admin.ctx, target.public_id, 'web');
    expect(view.expires_at).toBe(at(5).toISOString());
    const resolved = await resolveActor(db(), view.token, at(1));
    expect(resolved?.actor.email).toBe(DEMO_ACCOUNTS.campusEmployee);
    expect(resolved?.actor.user_type).toBe('school');
    expect(resolved?.actor.support_admin_id).toBe(admin.ctx.actor.user_id);
    expect(resolved?.supportAdmin?.email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    // The user's own permissions, not the admin's: the menu is the school user's.
    expect(resolved?.actor.permissions.has('read_company')).toBe(false);
    expect(resolved?.actor.permissions.has('read_insured')).toBe(true);
  });

  it('never reaches a company-family user: refused in the domain', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    for (const email of [DEMO_ACCOUNTS.admin, DEMO_ACCOUNTS.finance, DEMO_ACCOUNTS.seniorAdmin]) {
      const target = await userByEmail(email);
      await expect(startSupportView(admin.ctx, target.public_id, 'web')).rejects.toBeInstanceOf(Forbidden);
      expect((await getSupportTarget(admin.ctx, target.public_id)).refusal).toBe('support.school_users_only');
    }
  });

  it('is for senior admins only: an administrator, a school master user and a support view itself are refused', async () => {
    const target = await school(DEMO_ACCOUNTS.campusEmployee);
    const administrator = await signedIn(DEMO_ACCOUNTS.admin);
    expect(mayOpenSupportView(administrator.ctx.actor)).toBe(false);
    await expect(startSupportView(administrator.ctx, target.public_id, 'web')).rejects.toBeInstanceOf(
      Forbidden,
    );
    const master = await signedIn(DEMO_ACCOUNTS.schoolAdmin);
    await expect(startSupportView(master.ctx, target.public_id, 'web')).rejects.toBeInstanceOf(Forbidden);
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const view = await startSupportView(
      admin.ctx,
      (await school(DEMO_ACCOUNTS.schoolAdmin)).public_id,
      'web',
    );
    const inside = (await resolveActor(db(), view.token, at(1)))!.actor;
    await expect(
      startSupportView(ctx({ actor: inside, now: at(1) }) as ActorCtx, target.public_id, 'web'),
    ).rejects.toBeInstanceOf(Forbidden);
  });

  it('a school user of another company does not exist for the admin; a suspended one cannot be viewed', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    await expect(startSupportView(admin.ctx, strangerPublicId, 'web')).rejects.toBeInstanceOf(NotFound);
    await expect(getSupportTarget(admin.ctx, strangerPublicId)).rejects.toBeInstanceOf(NotFound);
    await expect(startSupportView(admin.ctx, suspendedPublicId, 'web')).rejects.toBeInstanceOf(Conflict);
    expect((await getSupportTarget(admin.ctx, suspendedPublicId)).refusal).toBe('support.cannot_sign_in');
  });
});

describe('how long a support view lives', () => {
  it('ends 5 minutes after its last use, and is refreshed while in use', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const { token } = await startSupportView(
      admin.ctx,
      (await school(DEMO_ACCOUNTS.schoolAdmin)).public_id,
      'api',
    );
    expect(await resolveActor(db(), token, at(4))).not.toBeNull();
    expect(await resolveActor(db(), token, at(8))).not.toBeNull();
    // Each use refreshes it: last used at minute 12, it lives until 17 and is gone a second later.
    expect(await resolveActor(db(), token, at(12))).not.toBeNull();
    expect(await resolveActor(db(), token, new Date(at(17).getTime() + 1000))).toBeNull();
    expect(SESSION_LIMITS.supportMs).toBe(5 * MINUTE);
  });

  it('ends with the admin’s own session and when the viewed user is suspended', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const target = await school(DEMO_ACCOUNTS.schoolAdmin);
    const first = await startSupportView(admin.ctx, target.public_id, 'web');
    await deleteSession(db(), admin.token);
    expect(await resolveActor(db(), first.token, at(1))).toBeNull();

    const again = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const second = await startSupportView(again.ctx, target.public_id, 'web');
    const other = await signedIn(DEMO_ACCOUNTS.schoolAdmin);
    await deleteUserSessions(db(), target.id);
    expect(await resolveActor(db(), second.token, at(1))).toBeNull();
    expect(await resolveActor(db(), other.token, at(1))).toBeNull();
    expect(await resolveActor(db(), again.token, at(1))).not.toBeNull();
  });

  it('in a browser it counts only with the session it was opened from; one view at a time', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const target = await school(DEMO_ACCOUNTS.campusEmployee);
    const view = await startSupportView(admin.ctx, target.public_id, 'web');
    const page = await resolvePageActor(db(), admin.token, view.token, at(1));
    expect(page?.actor.email).toBe(DEMO_ACCOUNTS.campusEmployee);
    expect(page?.viewEnded).toBeUndefined();
    // Another session of the same admin presenting this view's token sees their own portal.
    const elsewhere = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const foreign = await resolvePageActor(db(), elsewhere.token, view.token, at(1));
    expect(foreign?.actor.email).toBe(DEMO_ACCOUNTS.seniorAdmin);
    expect(foreign?.viewEnded).toBe(true);
    // A second view from the same session replaces the first.
    const next = await startSupportView(
      admin.ctx,
      (await school(DEMO_ACCOUNTS.schoolAdmin)).public_id,
      'web',
    );
    expect(await resolveActor(db(), view.token, at(1))).toBeNull();
    expect((await resolveActor(db(), next.token, at(1)))?.actor.email).toBe(DEMO_ACCOUNTS.schoolAdmin);
  });
});

describe('what a support view does and may not do', () => {
  it('is logged as done by the admin on behalf of the user, and stopping it ends it', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const target = await school(DEMO_ACCOUNTS.schoolAdmin);
    const view = await startSupportView(admin.ctx, target.public_id, 'web');
    const inside = (await resolveActor(db(), view.token, at(1)))!.actor;
    expect(logActors(inside)).toEqual({
      actor_user_id: admin.ctx.actor.user_id,
      on_behalf_of_user_id: target.id,
    });
    expect(logActors(admin.ctx.actor)).toEqual({
      actor_user_id: admin.ctx.actor.user_id,
      on_behalf_of_user_id: null,
    });
    const { user_id } = await stopSupportView(ctx({ actor: inside, now: at(1) }) as ActorCtx);
    expect(user_id).toBe(target.public_id);
    expect(await resolveActor(db(), view.token, at(1))).toBeNull();
    const [row] = await db()
      .select()
      .from(activityLogs)
      .where(and(eq(activityLogs.action, 'support_view_ended'), eq(activityLogs.entity_id, target.id)));
    expect([row.actor_user_id, row.on_behalf_of_user_id]).toEqual([admin.ctx.actor.user_id, target.id]);
    await expect(stopSupportView(admin.ctx)).rejects.toBeInstanceOf(Conflict);
  });

  it('may not change the user’s password, profile or sessions, nor hand over to the other region', async () => {
    const admin = await signedIn(DEMO_ACCOUNTS.seniorAdmin);
    const target = await school(DEMO_ACCOUNTS.schoolAdmin);
    const own = await signedIn(DEMO_ACCOUNTS.schoolAdmin);
    const view = await startSupportView(admin.ctx, target.public_id, 'web');
    const c = ctx({ actor: (await resolveActor(db(), view.token, at(1)))!.actor, now: at(1) }) as ActorCtx;
    const refusals = [
      changePassword(c, {
        current_password: DEMO_PASSWORD,
        password: 'Taken-0ver!',
        sign_out_other_sessions: true,
      }),
      updateOwnProfile(c, { first_name: 'Taken', last_name: 'Over', landing_page: 'insureds' }),
      endOwnSession(c, own.ctx.actor.session_id!),
      endOtherSessions(c),
      createHandoverUrl(c, '/home'),
    ];
    for (const refused of refusals) await expect(refused).rejects.toBeInstanceOf(Forbidden);
    expect(await resolveActor(db(), own.token, at(1))).not.toBeNull();
    // It may look: the user's sessions list shows the view itself as "this device", named for the admin.
    const listed = await listOwnSessions(c);
    const me = listed.find((s) => s.current);
    expect(me?.support_admin).toBe('Sarah Senior');
  });
});
