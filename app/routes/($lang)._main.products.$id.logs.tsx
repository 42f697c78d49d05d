/** A product's logs tab: every change of the product, its prices and its documents. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { productActivities } from '@server/domain/products/service';
import { PRODUCT_CLAIM_KEYS, PRODUCT_DETAIL_KEYS } from '@server/domain/products/values';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema, pageQuerySchema } from '~/lib/schemas.server';
import { ActivityLog } from '~/components/activity/activity-log';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    params: idSchema,
    query: pageQuerySchema,
    async load({ ctx, params, query }) {
      return json({ logs: await productActivities(ctx, params.id, { page: query.page, items: 25 }) });
    },
  })(args);

const LOG_ACTIONS = [
  'created',
  'updated',
  'activated',
  'archived',
  'price_added',
  'price_updated',
  'price_deleted',
  'document_added',
  'document_updated',
  'document_replaced',
  'document_deleted',
] as const;

/** The names the log gives the fields of products, prices and documents. */
function useLogFieldLabels(): Record<string, string> {
  const { t } = useTranslation();
  const product = [...PRODUCT_DETAIL_KEYS, ...PRODUCT_CLAIM_KEYS, 'insurer', 'unit', 'status'].map((k) => [
    k,
    t(`products.fields.${k === 'insurer_id' ? 'insurer' : k === 'unit_id' ? 'unit' : k}`),
  ]);
  const price = ['min_days', 'max_days', 'net', 'sale', 'custom', 'flat', 'from_date', 'to_date'].map((k) => [
    k,
    t(`products.prices.${k}`),
  ]);
  const document = ['language', 'title', 'visibility', 'valid_from', 'valid_to'].map((k) => [
    k,
    t(`products.documents.${k}`),
  ]);
  return Object.fromEntries([
    ...product,
    ...price,
    ...document,
    ['region_code', t('products.prices.region')],
    ['destination_countries', t('products.prices.countries')],
    ['coverage_limits', t('products.tabs.limits')],
    ['file_name', t('products.documents.file')],
  ]);
}

export default function ProductLogsTab() {
  const { t } = useTranslation();
  const { logs } = useLoaderData<typeof loader>();
  const fieldLabels = useLogFieldLabels();
  return (
    <ActivityLog
      rows={logs.items}
      meta={logs.meta}
      fieldLabels={fieldLabels}
      actionLabels={Object.fromEntries(LOG_ACTIONS.map((a) => [a, t(`products.log_actions.${a}`)]))}
    />
  );
}
