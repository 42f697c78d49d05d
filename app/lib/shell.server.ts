import type { AppLoadContext } from '@remix-run/cloudflare';
import { listNotifications } from '@server/domain/notifications/service';
import { otherRegion } from '@server/domain/auth/handover';
import { isProduction } from '@server/env';
import { cartCount } from '@server/domain/enrollments/cart';
import { can } from '@server/domain/access/actor';
import { unreadCount } from '@server/domain/conversations/inbox';
import { mayOpenSupportView } from '@server/domain/access/support';
import { supportBanner } from '@server/domain/auth/support';

/** The message centre's own pages show their unread threads: the top bar's count is not fetched there. */
const MESSAGE_CENTRE = /^\/message-centre(\/|$)/;

/**
 * What the shell needs about the signed-in user; permissions go to the browser only as names. `lang` is
 * the page's language (the notifications are written in it), `path` its address without the language
 * prefix.
 */
export async function shellData(context: AppLoadContext, page: { lang: string; path: string }) {
  const { actor, env } = context;
  const base = {
    region: env.REGION,
    otherRegionUrl: env.OTHER_REGION_URL,
    appEnv: env.APP_ENV,
    showWatermark: !isProduction(env),
    productName: env.PRODUCT_NAME,
    year: context.now.getUTCFullYear(),
  };
  if (!actor)
    return { ...base, user: null, notifications: null, cartCount: 0, unreadMessages: 0, support: null };
  // Spec 000 s.4: the unread count is fetched at load for a user who holds read_message, except in
  // the message centre itself.
  const countMessages = can(actor, 'read_message') && !MESSAGE_CENTRE.test(page.path);
  const [{ items, unread }, cart, support, unreadMessages] = await Promise.all([
    listNotifications({ ...ctx(context), actor }, { lang: page.lang }),
    cartCount({ ...ctx(context), actor }),
    supportBanner({ ...ctx(context), actor }),
    countMessages ? unreadCount({ ...ctx(context), actor }) : 0,
  ]);
  return {
    ...base,
    user: {
      first_name: actor.first_name,
      last_name: actor.last_name,
      email: actor.email,
      initials: `${actor.first_name[0] ?? ''}${actor.last_name[0] ?? ''}`.toUpperCase(),
      user_type: actor.user_type,
      permissions: [...actor.permissions].sort(),
      roles: actor.roles.map((r) => r.name),
      companies: actor.companies.map((c) => ({
        id: c.public_id,
        name: c.name,
        country_name: c.country_name,
      })),
      selected_company_id: actor.companies.find((c) => c.id === actor.selected_company_id)?.public_id ?? '',
      other_region: actor.holds_other_region_token && !support ? otherRegion(env.REGION) : null,
      landing_page: actor.landing_page,
      can_support_view: mayOpenSupportView(actor),
    },
    support,
    notifications: { items, unread },
    cartCount: cart,
    unreadMessages,
  };
}

function ctx(context: AppLoadContext) {
  return { db: context.db, env: context.env, now: context.now, actor: context.actor };
}

export type ShellData = Awaited<ReturnType<typeof shellData>>;
