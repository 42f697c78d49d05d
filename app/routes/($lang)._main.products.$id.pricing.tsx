/** A product's pricing tab: its prices by period, the add form, and the edit form of one (`?price=`). */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigation,
  useSearchParams,
} from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import type { ZodTypeAny } from 'zod';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { activeCountries } from '@server/domain/countries/service';
import { PRICE_PERIODS } from '@server/domain/products/values';
import { addPrice, deletePrice, listPrices, updatePrice } from '@server/domain/products/prices';
import { pageLoader } from '~/lib/loaders.server';
import {
  constraintsOf,
  idSchema,
  priceAddSchema,
  priceIdSchema,
  pricePeriodQuerySchema,
  priceUpdateSchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { formatDate } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { useMessage } from '~/lib/messages';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { PeriodBadge, PriceFields } from '~/components/products/product-fields';
import { DeleteRowButton, str, useProduct } from '~/components/products/product-page';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    params: idSchema,
    query: pricePeriodQuerySchema,
    async load({ ctx, params, query }) {
      const [prices, countries] = await Promise.all([
        listPrices(ctx, params.id, query.period),
        can(ctx.actor, 'update_product') ? activeCountries(ctx.db) : [],
      ]);
      return json({
        prices,
        countries: countries.map((c) => ({ id: c.id, name: c.name })),
        constraints: { add: constraintsOf(priceAddSchema), update: constraintsOf(priceUpdateSchema) },
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      price_add: { schema: priceAddSchema, permission: 'update_product' },
      price_update: { schema: priceUpdateSchema, permission: 'update_product' },
      price_delete: {
        schema: priceIdSchema,
        permission: 'update_product',
        confirm: { question: 'products.prices.delete_confirm', button: 'products.delete' },
      },
    },
    async handle(input, { ctx, params: { id }, redirect }) {
      switch (input.intent) {
        case 'price_add': {
          const { intent: _intent, ...price } = input;
          await addPrice(ctx, id, price);
          return redirect(`/products/${id}/pricing`, 'products.messages.price_added');
        }
        case 'price_update': {
          const { intent: _intent, price_id, ...price } = input;
          await updatePrice(ctx, id, price_id, price);
          return redirect(`/products/${id}/pricing`, 'products.messages.price_updated');
        }
        case 'price_delete':
          await deletePrice(ctx, id, input.price_id);
          return { toast: 'products.messages.price_deleted' };
        default:
          return unreachable(input);
      }
    },
  })(args);

type PriceRow = ReturnType<typeof useLoaderData<typeof loader>>['prices']['items'][number];
const th =
  'whitespace-nowrap px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-600';

export default function ProductPricingTab() {
  const { t } = useTranslation();
  const m = useMessage();
  const location = useLocation();
  const [params] = useSearchParams();
  const { product, canUpdate } = useProduct();
  const { prices } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const editingId = Number(params.get('price'));
  const editing = prices.items.find((p) => p.id === editingId);
  const period = params.get('period') ?? '';
  const deleteError = data?.intent === 'price_delete' ? data.error : null;
  const destination = (p: PriceRow) =>
    p.region_code
      ? t(`products.regions.${p.region_code}`)
      : p.destination_countries.length
        ? p.destination_countries.map((c) => c.name).join(', ')
        : t('products.prices.anywhere');
  const periodLabel = (p: PriceRow) =>
    p.from_date || p.to_date
      ? `${p.from_date ? formatDate(p.from_date) : '…'} – ${p.to_date ? formatDate(p.to_date) : '…'}`
      : t('products.prices.no_dates');
  return (
    <div className="space-y-6">
      <nav className="flex flex-wrap gap-2" aria-label={t('products.prices.periods_filter')}>
        {['', ...PRICE_PERIODS].map((p) => (
          <Link
            key={p || 'all'}
            to={p ? `${location.pathname}?period=${p}` : location.pathname}
            preventScrollReset
            aria-current={period === p ? 'page' : undefined}
            className={`rounded-full px-3 py-1 text-sm font-medium ring-1 ring-inset ${
              period === p
                ? 'bg-primary-800 text-white ring-primary-800'
                : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'
            }`}
          >
            {p ? t(`products.periods.${p}`) : t('products.periods.all')}
          </Link>
        ))}
      </nav>
      {deleteError ? <Alert>{m(deleteError)}</Alert> : null}
      <div className="overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
        <div className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <caption className="sr-only">{t('products.tabs.pricing')}</caption>
            <thead className="bg-slate-50">
              <tr>
                <th className={th}>{t('products.prices.days')}</th>
                <th className={`${th} text-right`}>{t('products.prices.net')}</th>
                <th className={`${th} text-right`}>{t('products.prices.sale')}</th>
                <th className={`${th} text-right`}>{t('products.prices.custom')}</th>
                <th className={th}>{t('products.prices.period')}</th>
                <th className={th}>{t('products.prices.destination')}</th>
                <th className={th}>
                  <span className="sr-only">{t('products.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {prices.items.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-4 py-10 text-center text-slate-500">
                    {t('products.prices.empty')}
                  </td>
                </tr>
              ) : (
                prices.items.map((p) => (
                  <tr
                    key={p.id}
                    data-testid="price-row"
                    className={p.id === editingId ? 'bg-primary-50/50' : undefined}
                  >
                    <td className="whitespace-nowrap px-4 py-3">
                      {t('products.prices.days_range', { min: p.min_days, max: p.max_days })}
                      {p.flat ? (
                        <span className="ml-2 text-xs text-slate-500">{t('products.prices.flat_short')}</span>
                      ) : null}
                    </td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.net, p.currency)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.sale, p.currency)}</td>
                    <td className="px-4 py-3 text-right tabular-nums">{formatMoney(p.custom, p.currency)}</td>
                    <td className="px-4 py-3">
                      <div className="flex flex-col gap-1">
                        <PeriodBadge period={p.period} />
                        <span className="text-xs text-slate-500">{periodLabel(p)}</span>
                      </div>
                    </td>
                    <td className="px-4 py-3">{destination(p)}</td>
                    <td className="px-4 py-3">
                      {canUpdate ? (
                        <div className="flex justify-end gap-3">
                          <Link
                            to={`${location.pathname}?price=${p.id}`}
                            preventScrollReset
                            className="font-medium text-primary-800 hover:underline"
                          >
                            {t('products.edit')}
                          </Link>
                          <DeleteRowButton
                            intent="price_delete"
                            idName="price_id"
                            id={p.id}
                            label={t('products.delete')}
                            confirm={t('products.prices.delete_confirm')}
                          />
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {/* A new address (after a save) starts the add form again empty. */}
      {canUpdate ? <PriceForm key={editing?.id ?? `new-${location.key}`} editing={editing} /> : null}
      <p className="text-xs text-slate-500">
        {t('products.prices.rules', { days: product.min_purchase_days, currency: product.currency })}
      </p>
    </div>
  );
}

function priceDefaults(p?: PriceRow) {
  if (!p) return { flat: '', destination_country_ids: [] as string[] };
  return {
    min_days: String(p.min_days),
    max_days: String(p.max_days),
    net: p.net?.toFixed(2) ?? '',
    sale: p.sale?.toFixed(2) ?? '',
    custom: p.custom == null ? '' : p.custom.toFixed(2),
    flat: p.flat ? 'on' : '',
    from_date: str(p.from_date),
    to_date: str(p.to_date),
    region_code: str(p.region_code),
    destination_country_ids: p.destination_country_ids.map(String),
  };
}

function PriceForm({ editing }: { editing?: PriceRow }) {
  const { t } = useTranslation();
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const { product } = useProduct();
  const { countries, constraints } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  const intent = editing ? 'price_update' : 'price_add';
  const [form, fields] = useSchemaForm({
    // Either form's schema, by whether a row is edited (Conform types the fields loosely, as before).
    schema: (): Promise<ZodTypeAny> =>
      import('@server/domain/products/tabs').then((m) => (editing ? m.priceUpdateSchema : m.priceAddSchema)),
    id: editing ? `price-${editing.id}` : 'price-new',
    lastResult: data?.intent === intent ? data.submission : undefined,
    defaultValue: priceDefaults(editing),
    constraint: editing ? constraints.update : constraints.add,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">
        {editing
          ? t('products.prices.edit_title', { min: editing.min_days, max: editing.max_days })
          : t('products.prices.add_title')}
      </h2>
      <AppForm method="post" {...getFormProps(form)} className="space-y-6" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        {editing ? <input type="hidden" name="price_id" value={editing.id} /> : null}
        <FormErrors errors={form.errors} />
        <PriceFields fields={fields} countries={countries} currency={product.currency} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={busy}>
            {editing ? t('common.save') : t('products.prices.add')}
          </Button>
          {editing ? (
            <ButtonLink to={location.pathname} variant="secondary">
              {t('common.cancel')}
            </ButtonLink>
          ) : null}
        </div>
      </AppForm>
    </Card>
  );
}
