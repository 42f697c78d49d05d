/**
 * /api-keys: the header and tab bar of the partner access page around the open tab. Each tab is a nested
 * route with its own loader and action: api-keys._tabs._index (the keys), .webhooks (the endpoints)
 * and .deliveries (the delivery log). The layout is pathless (`_tabs`) so a delivery's own page,
 * /api-keys/deliveries/{id}, stays a page of its own.
 */
import { json, redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Outlet, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { API_KEY_TABS, oldLogAddress } from '@server/domain/api-keys/tabs';
import { langOf } from '~/lib/guards.server';
import { redirectTabParam, tabSegment } from '~/lib/tabs.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MANAGE_PARTNER_ACCESS,
    async load({ request, context }) {
      const url = new URL(request.url);
      const log = url.pathname.endsWith('/api-keys') ? oldLogAddress(url.searchParams) : null;
      if (log)
        throw redirect(localePath(langOf(request), `/api-keys/deliveries${log.size ? `?${log}` : ''}`));
      redirectTabParam(request, '/api-keys', API_KEY_TABS, 'keys');
      return json({
        tabs: API_KEY_TABS.map((tab) => ({ key: tab, segment: tab === 'keys' ? '' : tabSegment(tab) })),
        title: pageTitle(context, request, 'api_keys.title'),
      });
    },
  })(args);

export default function ApiKeysLayout() {
  const { t, i18n } = useTranslation();
  const { tabs } = useLoaderData<typeof loader>();
  const base = localePath(i18n.language, '/api-keys');
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('api_keys.title')} description={t('api_keys.intro')} />
      <RouteTabs
        label={t('api_keys.title')}
        tabs={tabs.map((tab) => ({
          key: tab.key,
          label: t(`api_keys.tabs.${tab.key}`),
          to: tab.segment ? `${base}/${tab.segment}` : base,
          index: !tab.segment,
        }))}
      />
      <Outlet />
    </div>
  );
}
