import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { canArchive } from '@server/domain/access/archiving';
import {
  activateTaxRate,
  addTaxRate,
  countryActivity,
  deleteTaxRate,
  getCountry,
  updateCountry,
  updateCountryStatus,
  updateTaxRate,
} from '@server/domain/countries/service';
import { translate } from '@server/platform/i18n';
import { useSchemaForm } from '~/lib/schema-form';
import {
  constraintsOf,
  countrySchema,
  countryStatusSchema,
  pageQuerySchema,
  rowIdSchema,
  taxRateIdSchema,
  updateTaxRateSchema,
} from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { CountryFields, taxLabel } from '~/components/countries/country-bits';
import { ActivityLog } from '~/components/activity/activity-log';
import { ConfirmButton } from '~/components/ui/confirm';

/** What the region's tax is (the UK's IPT at the higher rate, Ireland's levy and stamp duty), if known. */
function regionTaxNote(abbreviation: string): string | null {
  if (abbreviation === 'GB') return 'taxes.notes.gb';
  if (abbreviation === 'IE') return 'taxes.notes.ie';
  return null;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_country',
    params: rowIdSchema,
    query: pageQuerySchema,
    async load({ ctx, params: { id }, query, lang, context }) {
      const [country, logs] = await Promise.all([getCountry(ctx, id), countryActivity(ctx, id, query.page)]);
      return json({
        countryConstraint: constraintsOf(countrySchema),
        updateTaxRateConstraint: constraintsOf(updateTaxRateSchema),
        country,
        logs,
        canUpdate: can(ctx.actor, 'update_country'),
        canArchive: canArchive(ctx.actor, 'country'),
        title: translate(lang, 'app.title_template', {
          title: country.name,
          product: context.env.PRODUCT_NAME,
        }),
      });
    },
  })(args);

/** Failure headings of each intent. */
const FAILED: Record<string, string> = {
  update: 'countries.update_failed',
  status: 'countries.status_failed',
  add_rate: 'countries.tax_rate_add_failed',
  update_rate: 'countries.tax_rate_update_failed',
  activate_rate: 'countries.tax_rate_activate_failed',
  delete_rate: 'countries.tax_rate_delete_failed',
};

/**
 * The country's operations behind an `intent`: its details, its status, and its tax rates (add, update,
 * activate, delete); the success messages are the spec's texts for the tax-rate ones.
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: rowIdSchema,
    intents: {
      update: { schema: countrySchema, permission: 'update_country' },
      status: { schema: countryStatusSchema, permission: 'archive_country|update_country' },
      add_rate: { schema: updateTaxRateSchema, permission: 'update_country' },
      update_rate: { schema: taxRateIdSchema.and(updateTaxRateSchema), permission: 'update_country' },
      activate_rate: { schema: taxRateIdSchema, permission: 'update_country' },
      delete_rate: {
        schema: taxRateIdSchema,
        permission: 'update_country',
        confirm: { question: 'countries.tax_rate_delete_confirm', button: 'countries.delete' },
      },
    },
    async handle(input, { ctx, params: { id }, request, redirect }) {
      switch (input.intent) {
        case 'update':
          await updateCountry(ctx, id, input);
          return { toast: 'countries.updated' };
        case 'status':
          await updateCountryStatus(ctx, id, input.status);
          return { toast: input.status === 'active' ? 'countries.activated' : 'countries.archived' };
        case 'add_rate':
          await addTaxRate(ctx, { ...input, country_id: id });
          return { toast: 'countries.tax_rate_added' };
        case 'update_rate': {
          await updateTaxRate(ctx, input.rate_id, input);
          // Back to the country without the rate being edited.
          const query = new URL(request.url).searchParams;
          query.delete('rate');
          query.delete('index');
          return redirect(`/manage-countries/${id}?${query}`, 'countries.tax_rate_updated');
        }
        case 'activate_rate':
          await activateTaxRate(ctx, input.rate_id);
          return { toast: 'countries.tax_rate_activated' };
        case 'delete_rate':
          await deleteTaxRate(ctx, input.rate_id);
          return { toast: 'countries.tax_rate_deleted' };
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function CountryDetail() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { country, logs, canUpdate, canArchive, countryConstraint, updateTaxRateConstraint } =
    useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const editingId = Number(params.get('rate')) || null;
  const editing = country.tax_rates.find((r) => r.id === editingId) ?? null;

  const [countryForm, countryFields] = useSchemaForm({
    schema: () => import('@server/domain/countries/schema').then((m) => m.countrySchema),
    id: 'country',
    lastResult: data?.intent === 'update' ? data.submission : undefined,
    defaultValue: {
      ...country,
      dial_code: country.dial_code ?? '',
      capital: country.capital ?? '',
      region_code: country.region_code ?? '',
      currency_code: country.currency_code ?? '',
      currency_name: country.currency_name ?? '',
      currency_symbol: country.currency_symbol ?? '',
      language: country.language ?? '',
      age_min: country.age_min == null ? '' : String(country.age_min),
      age_max: country.age_max == null ? '' : String(country.age_max),
      travel_restriction_notes: country.travel_restriction_notes ?? '',
      stamp_duty_applicable: country.stamp_duty_applicable ? 'on' : undefined,
      requires_passport_number: country.requires_passport_number ? 'on' : undefined,
    },
    constraint: countryConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const rateFormId = editing ? `rate-${editing.id}` : 'rate-new';
  const [rateForm, rateFields] = useSchemaForm({
    schema: () => import('@server/domain/countries/schema').then((m) => m.updateTaxRateSchema),
    id: rateFormId,
    lastResult: data?.intent === 'add_rate' || data?.intent === 'update_rate' ? data.submission : undefined,
    defaultValue: editing
      ? {
          tax_rate: editing.tax_rate == null ? '' : editing.tax_rate.toFixed(2),
          tax_amount: editing.tax_amount == null ? '' : editing.tax_amount.toFixed(2),
          currency: editing.currency ?? '',
          start_date: editing.start_date,
          end_date: editing.end_date ?? '',
        }
      : { currency: country.currency_code ?? '' },
    constraint: updateTaxRateConstraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });

  const failure = data && !data.ok && data.error ? data : null;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {country.name}
            <StatusBadge tone={statusTone(country.status)}>
              {t(`countries.statuses.${country.status}`)}
            </StatusBadge>
          </span>
        }
        description={`${country.abbreviation} · ${country.code}${country.region_code ? ` · ${t(`countries.regions.${country.region_code}`)}` : ''}`}
        actions={
          <>
            <ButtonLink to={to('/manage-countries')} variant="secondary">
              {t('countries.back_to_list')}
            </ButtonLink>
            {canArchive ? (
              <AppForm method="post">
                <input type="hidden" name="intent" value="status" />
                <input
                  type="hidden"
                  name="status"
                  value={country.status === 'active' ? 'archived' : 'active'}
                />
                <Button
                  type="submit"
                  variant={country.status === 'active' ? 'danger' : 'primary'}
                  disabled={busy}
                >
                  {t(country.status === 'active' ? 'countries.archive' : 'countries.activate')}
                </Button>
              </AppForm>
            ) : null}
          </>
        }
      />
      {failure ? (
        <Alert>
          <p className="font-semibold">{t((failure.intent && FAILED[failure.intent]) ?? 'errors.generic')}</p>
          <p>{m(failure.error)}</p>
        </Alert>
      ) : null}

      <Card>
        <h2 className="mb-1 text-lg font-semibold text-slate-900">{t('countries.tax_rates')}</h2>
        <p className="mb-4 text-sm text-slate-600">{t('countries.tax_rates_intro')}</p>
        {regionTaxNote(country.abbreviation) ? (
          <p className="mb-4 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700" data-testid="tax-note">
            {t(regionTaxNote(country.abbreviation)!)}
          </p>
        ) : null}
        {country.tax_rates.length ? (
          <div className="mb-6 overflow-x-auto rounded-lg ring-1 ring-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <caption className="sr-only">{t('countries.tax_rates')}</caption>
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    {t('countries.tax')}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {t('countries.start_date')}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {t('countries.end_date')}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {t('countries.status')}
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    <span className="sr-only">{t('countries.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {country.tax_rates.map((r) => (
                  <tr
                    key={r.id}
                    data-testid="tax-rate-row"
                    className={r.id === editingId ? 'bg-primary-50/50' : undefined}
                  >
                    <td className="px-4 py-3 font-medium text-slate-900">{taxLabel(r)}</td>
                    <td className="px-4 py-3">{formatDate(r.start_date)}</td>
                    <td className="px-4 py-3">
                      {r.end_date ? formatDate(r.end_date) : t('countries.open_ended')}
                    </td>
                    <td className="px-4 py-3">
                      <StatusBadge tone={r.active ? 'green' : 'slate'}>
                        {t(`countries.rate_statuses.${r.status}`)}
                      </StatusBadge>
                    </td>
                    <td className="px-4 py-3">
                      {canUpdate ? (
                        <div className="flex flex-wrap justify-end gap-3">
                          <Link
                            to={`?rate=${r.id}`}
                            preventScrollReset
                            className="font-medium text-primary-800 hover:underline"
                          >
                            {t('countries.edit')}
                          </Link>
                          {!r.active ? (
                            <AppForm method="post" preventScrollReset>
                              <input type="hidden" name="intent" value="activate_rate" />
                              <input type="hidden" name="rate_id" value={r.id} />
                              <button
                                type="submit"
                                disabled={busy}
                                className="font-medium text-green-800 hover:underline"
                              >
                                {t('countries.activate')}
                              </button>
                            </AppForm>
                          ) : null}
                          <AppForm method="post" preventScrollReset>
                            <input type="hidden" name="intent" value="delete_rate" />
                            <input type="hidden" name="rate_id" value={r.id} />
                            <ConfirmButton
                              disabled={busy}
                              className="font-medium text-red-700 hover:underline"
                              question={t('countries.tax_rate_delete_confirm')}
                            >
                              {t('countries.delete')}
                            </ConfirmButton>
                          </AppForm>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="mb-6 rounded-lg bg-slate-50 px-4 py-6 text-center text-sm text-slate-500">
            {t('countries.no_tax_rates')}
          </p>
        )}
        {canUpdate ? (
          <AppForm
            method="post"
            {...getFormProps(rateForm)}
            // A rate added starts the form again empty.
            key={`${rateFormId}-${country.tax_rates.length}`}
            className="space-y-4"
            preventScrollReset
          >
            <h3 className="text-base font-semibold text-slate-900">
              {editing ? t('countries.edit_tax_rate') : t('countries.add_tax_rate')}
            </h3>
            <p className="text-sm text-slate-600">{t('countries.rate_or_amount_hint')}</p>
            <FormErrors errors={rateForm.errors} />
            {editing ? <input type="hidden" name="rate_id" value={editing.id} /> : null}
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
              <Field
                label={t('countries.tax_rate_percent')}
                field={rateFields.tax_rate}
                inputProps={{ inputMode: 'decimal' }}
              />
              <Field
                label={t('countries.tax_amount')}
                field={rateFields.tax_amount}
                inputProps={{ inputMode: 'decimal' }}
              />
              <Field
                label={t('countries.currency_code')}
                field={rateFields.currency}
                inputProps={{ maxLength: 3 }}
              />
              <Field label={t('countries.start_date')} field={rateFields.start_date} type="date" />
              <Field label={t('countries.end_date')} field={rateFields.end_date} type="date" />
            </div>
            <div className="flex flex-wrap gap-3">
              <Button
                type="submit"
                name="intent"
                value={editing ? 'update_rate' : 'add_rate'}
                disabled={busy}
              >
                {editing ? t('countries.save_tax_rate') : t('countries.add_tax_rate')}
              </Button>
              {editing ? (
                <Link to="?" preventScrollReset className={buttonClass('secondary')}>
                  {t('common.cancel')}
                </Link>
              ) : null}
            </div>
          </AppForm>
        ) : null}
      </Card>

      <Card>
        <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('countries.settings')}</h2>
        {canUpdate ? (
          <AppForm method="post" {...getFormProps(countryForm)} className="space-y-6">
            <FormErrors errors={countryForm.errors} />
            <CountryFields fields={countryFields} />
            <Button type="submit" name="intent" value="update" disabled={busy}>
              {t('common.save')}
            </Button>
          </AppForm>
        ) : (
          <CountrySummary country={country} />
        )}
      </Card>

      <section>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('countries.logs')}</h2>
        <ActivityLog
          rows={logs.items}
          meta={logs.meta}
          fieldLabels={{
            rate_bp: t('countries.tax_rate_percent'),
            amount_minor: t('countries.tax_amount'),
            tax_rate: t('countries.tax_rate_percent'),
            tax_amount: t('countries.tax_amount'),
          }}
        />
      </section>
    </div>
  );
}

/** Read-only view for those who may read but not change countries. */
function CountrySummary({
  country,
}: {
  country: ReturnType<typeof useLoaderData<typeof loader>>['country'];
}) {
  const { t } = useTranslation();
  const yesNo = (v: boolean) => t(v ? 'countries.yes' : 'countries.no');
  const rows: [string, string][] = [
    [t('countries.capital'), country.capital ?? '—'],
    [t('countries.dial_code'), country.dial_code ? `+${country.dial_code}` : '—'],
    [
      t('countries.currency'),
      [country.currency_code, country.currency_name, country.currency_symbol].filter(Boolean).join(' · ') ||
        '—',
    ],
    [t('countries.language'), country.language ?? '—'],
    [t('countries.age_min'), country.age_min == null ? '—' : String(country.age_min)],
    [t('countries.age_max'), country.age_max == null ? '—' : String(country.age_max)],
    [t('countries.travel_restriction_notes'), country.travel_restriction_notes ?? '—'],
    [t('countries.stamp_duty_applicable'), yesNo(country.stamp_duty_applicable)],
    [t('countries.requires_passport_number'), yesNo(country.requires_passport_number)],
  ];
  return (
    <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-3">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt className="text-slate-500">{label}</dt>
          <dd className="font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
