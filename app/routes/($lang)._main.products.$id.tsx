/**
 * A product (spec 001 s.2): the header, the tab bar and the open tab. Each tab is a nested route with
 * its own loader and action (products.$id._index = details, .claim, .limits, .company, .pricing,
 * .documents, .logs); this layout loads the product they all show and archives or activates it.
 */
import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Outlet, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { canArchive } from '@server/domain/access/archiving';
import { getProduct, setProductStatus } from '@server/domain/products/service';
import { PRODUCT_TABS } from '@server/domain/products/values';
import { idSchema, productStatusSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction } from '~/lib/actions.server';
import { unreachable } from '~/lib/actions';
import { redirectTabParam, tabSegment } from '~/lib/tabs.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { RouteTabs } from '~/components/ui/tabs';
import { ProductStatusBadge } from '~/components/products/product-badges';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    params: idSchema,
    async load({ ctx, params: { id }, request, context }) {
      redirectTabParam(request, `/products/${id}`, PRODUCT_TABS, 'details');
      const product = await getProduct(ctx, id);
      return json({
        product,
        tabs: PRODUCT_TABS.map((tab) => ({ key: tab, segment: tab === 'details' ? '' : tabSegment(tab) })),
        canUpdate: can(ctx.actor, 'update_product'),
        canArchive: canArchive(ctx.actor, 'product'),
        title: pageTitle(context, request, 'products.title'),
      });
    },
  })(args);

/** The header's archive / activate button (posted to this layout's address, whichever tab is open). */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      status: { schema: productStatusSchema, permission: 'archive_product' },
    },
    async handle(input, { ctx, params }) {
      switch (input.intent) {
        case 'status':
          await setProductStatus(ctx, params.id ?? '', input.status);
          return {
            toast: input.status === 'active' ? 'products.messages.activated' : 'products.messages.archived',
          };
        default:
          return unreachable(input.intent);
      }
    },
  })(args);

export default function ProductLayout() {
  const { t, i18n } = useTranslation();
  const { product, tabs, canArchive } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const base = localePath(i18n.language, `/products/${product.id}`);
  const next = product.status === 'active' ? 'archived' : 'active';
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {product.name}
            <ProductStatusBadge status={product.status} />
          </span>
        }
        description={`${product.code} · ${product.company.name}${product.insurer ? ` · ${product.insurer.name}` : ''}`}
        actions={
          <>
            <ButtonLink to={localePath(i18n.language, '/products')} variant="secondary">
              {t('products.back_to_list')}
            </ButtonLink>
            {canArchive ? (
              <AppForm method="post" action={base} preventScrollReset>
                <input type="hidden" name="intent" value="status" />
                <input type="hidden" name="status" value={next} />
                <Button type="submit" variant={next === 'archived' ? 'secondary' : 'primary'} disabled={busy}>
                  {t(next === 'archived' ? 'products.archive' : 'products.activate')}
                </Button>
              </AppForm>
            ) : null}
          </>
        }
      />
      <RouteTabs
        label={product.name}
        tabs={tabs.map((tab) => ({
          key: tab.key,
          label: t(`products.tabs.${tab.key}`),
          to: tab.segment ? `${base}/${tab.segment}` : base,
          index: !tab.segment,
        }))}
      />
      <Outlet />
    </div>
  );
}
