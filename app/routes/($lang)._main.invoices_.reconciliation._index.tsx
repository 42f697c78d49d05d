/**
 * /invoices/reconciliation: finance uploads a bank statement (CSV from any bank, or ISO 20022 camt.053
 * XML) and sees the statements uploaded before. A plain multipart form (works without JavaScript): a
 * camt.053 file opens its review at once, a CSV its column matching; the same file again opens the
 * statement it made the first time.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import {
  BANK_STATEMENT_FORMATS,
  BANK_STATEMENT_STATUSES,
  MAX_STATEMENT_MB,
  READ_PERMISSION,
  RECONCILE_PERMISSION,
} from '@server/domain/reconciliation/values';
import { statementListQuerySchema, statementUploadFormSchema } from '~/lib/schemas.server';
import { uploadStatement } from '@server/domain/reconciliation/upload';
import { listStatements, type StatementListItem } from '@server/domain/reconciliation/statement-list';
import { formAction } from '~/lib/actions';
import { lenientQuery, queryOf } from '~/lib/lists.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors, Label, inputClass } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import {
  EmptyState,
  FilterDate,
  FilterSearch,
  FilterSelect,
  FiltersBar,
} from '~/components/ui/list-controls';
import { FORMAT_NAMES, StatementStatusBadge, statementHref } from '~/components/reconciliation/bits';
import { formatDateTime } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: READ_PERMISSION,
    async load({ ctx, request, context }) {
      const q = lenientQuery(statementListQuerySchema, queryOf(request));
      return {
        list: await listStatements(ctx, q),
        filtered: Boolean(q.search || q.status || q.format || q.from || q.to),
        canUpload: can(ctx.actor, RECONCILE_PERMISSION),
        title: pageTitle(context, request, 'reconciliation.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: statementUploadFormSchema,
    permission: RECONCILE_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const { statement, existing } = await uploadStatement(ctx, input.file);
      return redirect(
        statementHref(statement),
        existing ? 'reconciliation.upload.existing' : 'reconciliation.toasts.uploaded',
      );
    },
  })(args);

export default function Reconciliation() {
  const { t, i18n } = useTranslation();
  const { list, filtered, canUpload } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const errors = data?.submission?.error ?? {};
  const columns: Column<StatementListItem>[] = [
    {
      key: 'file',
      card: 'title',
      header: t('reconciliation.list.file'),
      render: (s) => (
        <Link to={to(statementHref(s))} className="font-medium text-primary-800 underline">
          {s.file_name}
        </Link>
      ),
    },
    {
      key: 'format',
      card: 'hidden',
      header: t('reconciliation.list.format'),
      render: (s) => FORMAT_NAMES[s.format],
    },
    {
      key: 'uploaded',
      card: 'figure',
      header: t('reconciliation.list.uploaded'),
      render: (s) => formatDateTime(s.created_at),
    },
    {
      key: 'status',
      card: 'status',
      header: t('reconciliation.list.status'),
      render: (s) => <StatementStatusBadge status={s.status} />,
    },
    {
      key: 'credits',
      card: 'figure',
      header: t('reconciliation.list.credits'),
      render: (s) => s.line_count,
      className: 'text-right',
    },
    {
      key: 'matched',
      card: 'figure',
      header: t('reconciliation.list.matched'),
      render: (s) => s.matched_count,
      className: 'text-right',
    },
    {
      key: 'recorded',
      card: 'hidden',
      header: t('reconciliation.list.recorded'),
      render: (s) => s.recorded_count,
      className: 'text-right',
    },
  ];
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title={t('reconciliation.title')} description={t('reconciliation.description')} />
      {canUpload ? (
        <Card>
          <h2 className="mb-3 text-base font-semibold text-slate-900">{t('reconciliation.upload.title')}</h2>
          <AppForm method="post" encType="multipart/form-data" className="space-y-4">
            <FormErrors errors={errors['']} />
            <div>
              <Label htmlFor="statement-file">{t('reconciliation.upload.file')}</Label>
              <input
                id="statement-file"
                type="file"
                name="file"
                required
                accept=".csv,.xml,.txt,text/csv,application/xml,text/xml"
                aria-invalid={errors.file?.length ? true : undefined}
                aria-describedby="statement-file-hint statement-file-errors"
                className={`${inputClass} file:mr-3 file:rounded-md file:border-0 file:bg-primary-50 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-primary-800`}
              />
              <p id="statement-file-hint" className="mt-1 text-xs text-slate-500">
                {t('reconciliation.upload.hint', { size: MAX_STATEMENT_MB })}
              </p>
              <ErrorList id="statement-file-errors" errors={errors.file} />
            </div>
            <Button type="submit" disabled={busy}>
              {t('reconciliation.upload.submit')}
            </Button>
          </AppForm>
        </Card>
      ) : null}
      <section>
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t('reconciliation.list.title')}</h2>
        <FiltersBar>
          <FilterSearch
            label={t('reconciliation.list.search')}
            placeholder={t('reconciliation.list.search_placeholder')}
          />
          <FilterSelect
            name="status"
            label={t('reconciliation.list.status')}
            any={t('reconciliation.list.all_statuses')}
            options={BANK_STATEMENT_STATUSES.map((v) => ({
              value: v,
              label: t(`reconciliation.statuses.${v}`),
            }))}
          />
          <FilterSelect
            name="format"
            label={t('reconciliation.list.format')}
            any={t('reconciliation.list.all_formats')}
            options={BANK_STATEMENT_FORMATS.map((v) => ({ value: v, label: FORMAT_NAMES[v] }))}
          />
          <FilterDate name="from" label={t('reconciliation.list.uploaded_from')} />
          <FilterDate name="to" label={t('reconciliation.list.uploaded_to')} />
        </FiltersBar>
        <DataTable
          rows={list.items}
          columns={columns}
          rowId={(s) => s.id}
          meta={list.meta}
          caption={t('reconciliation.list.title')}
          empty={
            <EmptyState
              message={t(filtered ? 'reconciliation.list.no_match' : 'reconciliation.list.empty')}
            />
          }
        />
      </section>
    </div>
  );
}
