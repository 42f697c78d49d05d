import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { landingPath } from '@server/domain/account/service';
import { acknowledgeNotice, pendingNotices } from '@server/domain/notices/recipients';
import { idSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { NoticeCards } from '~/components/notices/notice-cards';
import { localePath } from '~/i18n/config';
import { BUILT_PAGES, isGroup, visibleMenu } from '~/lib/navigation';
import { Card, PageHeader } from '~/components/ui/card';
import { ButtonLink } from '~/components/ui/button';
import { NotificationItem } from '~/components/notifications/notification-item';
import { useRootData } from '~/root';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

/**
 * /home, where signing in lands. Notices the user has still to acknowledge are shown here first, each
 * with its one button; once none is pending, /home sends the user to their landing page (until that
 * page ships, it shows the home overview).
 */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: null,
    async load({ ctx, request, context, lang }) {
      const target = landingPath(ctx.actor.landing_page);
      const pending = await pendingNotices(ctx);
      if (!pending.length && BUILT_PAGES.has(target)) throw redirect(localePath(lang, target));
      return {
        landing: ctx.actor.landing_page,
        target: BUILT_PAGES.has(target) ? target : null,
        pending,
        title: pageTitle(context, request, pending.length ? 'notices.pending_title' : 'home.title'),
      };
    },
  })(args);

/** Acknowledges one pending notice and comes back here (the next one, or on to the landing page). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: idSchema,
    permission: null,
    async handle(input, { ctx, redirect: to }) {
      await acknowledgeNotice(ctx, input.id);
      return to('/home', 'notices.acknowledged');
    },
  })(args);

function PendingNotices() {
  const { t, i18n } = useTranslation();
  const { pending, target } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title={t('notices.pending_title')}
        description={t('notices.pending_intro', { count: pending.length })}
      />
      <NoticeCards notices={pending} action={localePath(i18n.language, '/home')} />
      {target ? (
        <p className="mt-6 text-sm">
          <Link
            className="text-primary-700 underline hover:no-underline"
            to={localePath(i18n.language, target)}
          >
            {t('notices.later')}
          </Link>
        </p>
      ) : null}
    </div>
  );
}

export default function Home() {
  const { t, i18n } = useTranslation();
  const { landing, pending } = useLoaderData<typeof loader>();
  const { user, notifications } = useRootData();
  if (!user) return null;
  if (pending.length) return <PendingNotices />;
  const shortcuts = visibleMenu(user.permissions)
    .flatMap((e) => (isGroup(e) ? e.children : [e]))
    .filter((l) => BUILT_PAGES.has(l.to));
  // Ordering has no menu entry of its own in the spec (it starts from the insureds list): a card here too.
  const canOrder = user.permissions.includes('create_insured') || user.permissions.includes('create_policy');
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={t('home.welcome', { name: user.first_name })} description={t('home.intro')} />
      <div className="grid gap-6 md:grid-cols-2">
        {canOrder ? (
          <Card className="md:col-span-2">
            <h2 className="text-base font-semibold">{t('order.title')}</h2>
            <p className="mt-1 text-sm text-slate-600">{t('order.description')}</p>
            <div className="mt-4 flex flex-wrap gap-3">
              <ButtonLink to={localePath(i18n.language, '/insureds/order')}>
                {t('order.new_order')}
              </ButtonLink>
              <ButtonLink to={localePath(i18n.language, '/cart')} variant="secondary">
                {t('cart.title')}
              </ButtonLink>
            </div>
          </Card>
        ) : null}
        <Card>
          <h2 className="text-base font-semibold">{t('home.your_account')}</h2>
          <dl className="mt-4 space-y-3 text-sm">
            <div>
              <dt className="text-slate-500">{t('home.roles')}</dt>
              <dd className="font-medium">{user.roles.join(', ')}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('home.companies')}</dt>
              <dd className="font-medium">{user.companies.map((c) => c.name).join(', ')}</dd>
            </div>
            <div>
              <dt className="text-slate-500">{t('home.landing_page')}</dt>
              <dd className="font-medium">
                {t(`account.landing.${landing}`)} ·{' '}
                <Link
                  className="text-primary-700 underline hover:no-underline"
                  to={localePath(i18n.language, '/account-details')}
                >
                  {t('home.change')}
                </Link>
              </dd>
            </div>
          </dl>
          {shortcuts.length ? (
            <ul className="mt-5 flex flex-wrap gap-2">
              {shortcuts.map((s) => (
                <li key={s.key}>
                  <Link
                    to={localePath(i18n.language, s.to)}
                    className="inline-block rounded-full bg-primary-50 px-3 py-1 text-sm font-medium text-primary-800 hover:bg-primary-100"
                  >
                    {t(`nav.${s.key}`)}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
        <Card flush>
          <h2 className="border-b border-slate-200 px-6 py-4 text-base font-semibold">
            {t('home.recent_notifications')}
          </h2>
          <ul className="divide-y divide-slate-100">
            {notifications?.items.length ? (
              notifications.items.slice(0, 5).map((n) => <NotificationItem key={n.id} notification={n} />)
            ) : (
              <li className="px-6 py-8 text-center text-sm text-slate-500">{t('notifications.empty')}</li>
            )}
          </ul>
        </Card>
      </div>
    </div>
  );
}
