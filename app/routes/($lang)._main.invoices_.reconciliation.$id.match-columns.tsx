/**
 * /invoices/reconciliation/{id}/match-columns: what each column of an uploaded CSV statement holds (the
 * suggestion from its headers is preselected), the day/month order of its dates and, when no column
 * gives it, the file's currency. Confirming reads the credits and matches them, then opens the review; a
 * row that cannot be read is named with what is wrong.
 */
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import {
  CSV_TARGETS,
  DATE_ORDERS,
  READ_PERMISSION,
  RECONCILE_PERMISSION,
} from '@server/domain/reconciliation/values';
import { statementMappingSchema, idSchema } from '~/lib/schemas.server';
import { confirmStatementMapping, getStatement } from '@server/domain/reconciliation/service';
import { formAction } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Input, Label, Select } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ScrollBox } from '~/components/ui/data-table';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: READ_PERMISSION,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      const statement = await getStatement(ctx, params.id);
      if (statement.format !== 'csv' || statement.status === 'confirmed')
        throw redirect(localePath(ctx.lang ?? 'en', `/invoices/reconciliation/${statement.id}`));
      return { statement, title: pageTitle(context, request, 'reconciliation.match.title') };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    params: idSchema,
    schema: statementMappingSchema,
    permission: RECONCILE_PERMISSION,
    async handle(input, { ctx, params, redirect }) {
      const view = await confirmStatementMapping(ctx, params.id, input);
      return redirect(`/invoices/reconciliation/${view.id}`, 'reconciliation.toasts.mapped');
    },
  })(args);

export default function MatchStatementColumns() {
  const { t, i18n } = useTranslation();
  const { statement: s } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const errors = data?.submission?.error ?? {};
  const posted = data?.submission?.initialValue as
    { columns?: string[]; date_order?: string; currency?: string } | undefined;
  const to = (path: string) => localePath(i18n.language, path);
  const targets = CSV_TARGETS.map((v) => ({ value: v, label: t(`reconciliation.targets.${v}`) }));
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={t('reconciliation.match.title')}
        description={t('reconciliation.match.description', { file: s.file_name })}
        actions={
          <ButtonLink to={to('/invoices/reconciliation')} variant="secondary">
            {t('reconciliation.title')}
          </ButtonLink>
        }
      />
      <AppForm method="post" className="space-y-6">
        <FormErrors errors={[...(errors[''] ?? []), ...(errors.columns ?? [])]} />
        <Card flush>
          <ScrollBox label={t('reconciliation.match.title')}>
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-semibold uppercase text-slate-600">
                <tr>
                  <th scope="col" className="px-4 py-2">
                    {t('reconciliation.match.column')}
                  </th>
                  <th scope="col" className="px-4 py-2">
                    {t('reconciliation.match.examples')}
                  </th>
                  <th scope="col" className="px-4 py-2">
                    {t('reconciliation.match.holds')}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {s.headers.map((header, i) => (
                  <tr key={i}>
                    <th scope="row" className="px-4 py-2 text-left font-medium text-slate-900">
                      {header || `#${i + 1}`}
                    </th>
                    <td className="max-w-xs px-4 py-2 text-slate-600">
                      {s.sample
                        .map((r) => r[i] ?? '')
                        .filter((v) => v.trim())
                        .slice(0, 3)
                        .join(' · ')}
                    </td>
                    <td className="px-4 py-2">
                      <label className="sr-only" htmlFor={`column-${i}`}>
                        {t('reconciliation.match.holds')}: {header}
                      </label>
                      <Select
                        id={`column-${i}`}
                        name={`columns[${i}]`}
                        defaultValue={posted?.columns?.[i] ?? s.mapping[String(i)] ?? ''}
                        placeholder={t('reconciliation.match.not_read')}
                        options={targets}
                        aria-invalid={errors[`columns[${i}]`]?.length ? true : undefined}
                      />
                      <ErrorList errors={errors[`columns[${i}]`]} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollBox>
        </Card>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <Label htmlFor="date-order">{t('reconciliation.match.date_order')}</Label>
            <Select
              id="date-order"
              name="date_order"
              defaultValue={posted?.date_order ?? s.date_order}
              options={DATE_ORDERS.map((o) => ({ value: o, label: t(`reconciliation.date_orders.${o}`) }))}
            />
            <ErrorList errors={errors.date_order} />
          </div>
          <div>
            <Label htmlFor="file-currency">{t('reconciliation.match.currency')}</Label>
            <Input
              id="file-currency"
              name="currency"
              maxLength={3}
              defaultValue={posted?.currency ?? s.file_currency ?? ''}
              autoComplete="off"
              aria-invalid={errors.currency?.length ? true : undefined}
            />
            <ErrorList errors={errors.currency} />
          </div>
        </div>
        <p className="text-xs text-slate-500">{t('reconciliation.match.required')}</p>
        <Button type="submit" disabled={busy}>
          {t('reconciliation.match.submit')}
        </Button>
      </AppForm>
    </div>
  );
}
