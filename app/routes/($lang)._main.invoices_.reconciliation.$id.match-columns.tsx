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
  type DateOrder,
} from '@server/domain/reconciliation/values';
import { todayIso } from '@server/domain/formats';
import { idSchema, statementMappingSchema } from '~/lib/schemas.server';
import { getStatement } from '@server/domain/reconciliation/service';
import { confirmStatementMapping } from '@server/domain/reconciliation/upload';
import { formAction } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Input, Label } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { ColumnMatcher } from '~/components/imports/column-matcher';
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
      return {
        statement,
        today: todayIso(new Date()),
        title: pageTitle(context, request, 'reconciliation.match.title'),
      };
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
  const { statement: s, today } = useLoaderData<typeof loader>();
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
        <ColumnMatcher
          key={posted ? JSON.stringify(posted) : 'loaded'}
          columns={s.headers.map((header, i) => ({
            index: i,
            header,
            values: s.sample
              .map((r) => r[i] ?? '')
              .filter((v) => v.trim())
              .slice(0, 3),
            target: (posted?.columns ? posted.columns[i] : s.mapping[String(i)]) || null,
          }))}
          targets={targets}
          labels={{
            column: t('reconciliation.match.column'),
            values: t('reconciliation.match.examples'),
            field: t('reconciliation.match.holds'),
            ignore: t('reconciliation.match.not_read'),
          }}
          errors={errors}
          dates={{
            targets: ['booking_date'],
            order: (DATE_ORDERS as readonly string[]).includes(posted?.date_order ?? '')
              ? (posted!.date_order as DateOrder)
              : s.date_order,
            today,
            legend: t('reconciliation.match.date_order'),
            orders: {
              dmy: t('reconciliation.date_orders.dmy'),
              mdy: t('reconciliation.date_orders.mdy'),
              ymd: t('reconciliation.date_orders.ymd'),
            },
          }}
        />
        <div className="grid gap-4 sm:grid-cols-2">
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
