/**
 * /insureds/match-columns?import={id}: which applicant detail each column of the uploaded sheet holds.
 * The suggestion (this client's previous choice, the template headers and their variants, near misses)
 * is preselected; the user changes or ignores any column and confirms the day/month order of the dates.
 * Confirming starts the staging job and goes to its progress page.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { DATE_TARGETS, IMPORT_TARGETS } from '@server/domain/imports/values';
import { importIdSchema, mappingFormSchema } from '~/lib/schemas.server';
import { todayIso } from '@server/domain/formats';
import { confirmMapping, importStep } from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { ColumnMatcher, type MatcherColumn } from '~/components/imports/column-matcher';
import { ImportSteps } from '~/components/imports/import-bits';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { view } = await importStep(kit, 'match');
      const columns: MatcherColumn[] = view.headers.map((header, index) => ({
        index,
        header,
        values: view.sample
          .map((row) => row[index] ?? '')
          .filter((v) => v.trim())
          .slice(0, 3),
        target: view.mapping[String(index)] ?? null,
        source: view.sources[index] ?? 'none',
      }));
      return {
        import: {
          id: view.id,
          status: view.status,
          file_name: view.file_name,
          row_count: view.row_count,
          date_order: view.date_order,
          campus: view.campus,
          contract: view.contract,
          message: view.message,
        },
        columns,
        today: todayIso(new Date()),
        title: pageTitle(context, request, 'imports.match.title'),
      };
    },
  })(args);

/** The columns as posted: what the page shows again after a preview or a refusal. */
interface Posted {
  columns?: string[];
  date_order?: string;
}

/**
 * Confirm the matching (the staging job starts; its progress page follows), or, without JavaScript,
 * preview how the dates are read in the chosen order (the page shows the choices again).
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      confirm: { schema: mappingFormSchema, permission: ORDER_PERMISSION },
      preview: { schema: importIdSchema, permission: ORDER_PERMISSION },
    },
    async handle(input, { ctx, formData, redirect }) {
      switch (input.intent) {
        case 'confirm': {
          const view = await confirmMapping(ctx, input.import, input);
          return redirect(`/insureds/format-data?import=${view.id}`);
        }
        case 'preview': {
          const columns: string[] = [];
          for (let i = 0; formData.has(`columns[${i}]`); i++)
            columns.push(String(formData.get(`columns[${i}]`)));
          const posted: Posted = { columns, date_order: String(formData.get('date_order') ?? '') };
          return { data: posted };
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function MatchColumns() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const imp = data.import;
  const posted: Posted | undefined =
    answer?.intent === 'preview' ? (answer.data ?? undefined) : (answer?.submission?.initialValue as Posted);
  const columns = posted?.columns
    ? data.columns.map((c, i) => ({ ...c, target: posted.columns?.[i] || null }))
    : data.columns;
  const dateOrder =
    posted?.date_order === 'mdy' || posted?.date_order === 'ymd' ? posted.date_order : imp.date_order;
  const errors = answer?.intent === 'confirm' ? (answer.submission?.error ?? {}) : {};
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-5xl">
      <ImportSteps current="match" />
      <PageHeader
        title={t('imports.match.title')}
        description={t('imports.match.description', { file: imp.file_name })}
        actions={
          <ButtonLink
            to={to(`/insureds/new/import?campus=${imp.campus.id}&contract=${imp.contract.id}`)}
            variant="secondary"
          >
            {t('imports.progress.upload_again')}
          </ButtonLink>
        }
      />
      <div className="mb-4 space-y-3">
        <p className="text-sm text-slate-700">
          {t('imports.match.rows', { count: imp.row_count })} {imp.campus.name} · {imp.contract.product_name}
        </p>
        {imp.status === 'failed' && imp.message ? <Alert>{m(imp.message)}</Alert> : null}
        {imp.status === 'review' ? <Alert tone="info">{t('imports.review.rematch_hint')}</Alert> : null}
        <p className="text-xs text-slate-500">
          {t('imports.match.required')}
          {imp.campus.country_name
            ? ` ${t('imports.match.destination_default', { country: imp.campus.country_name })}`
            : ''}
        </p>
      </div>
      <AppForm method="post" className="space-y-6">
        <input type="hidden" name="import" value={imp.id} />
        <FormErrors errors={errors['']} />
        {errors.columns?.length ? (
          <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 ring-1 ring-red-200">
            <ErrorList errors={errors.columns} />
          </div>
        ) : null}
        <ColumnMatcher
          key={posted ? JSON.stringify(posted) : 'loaded'}
          columns={columns}
          targets={IMPORT_TARGETS.map((f) => ({ value: f, label: t(`imports.fields.${f}`) }))}
          labels={{
            column: t('imports.match.column'),
            values: t('imports.match.values'),
            field: t('imports.match.field'),
            ignore: t('imports.match.ignore'),
          }}
          errors={errors}
          dates={{
            targets: DATE_TARGETS,
            order: dateOrder,
            today: data.today,
            legend: t('imports.match.date_order'),
            hint: t('imports.match.date_order_hint'),
            orders: {
              dmy: t('imports.match.date_orders.dmy'),
              mdy: t('imports.match.date_orders.mdy'),
              ymd: t('imports.match.date_orders.ymd'),
            },
          }}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="confirm" disabled={busy}>
            {t('imports.match.submit')}
          </Button>
          <noscript>
            <Button type="submit" name="intent" value="preview" variant="secondary">
              {t('imports.match.preview')}
            </Button>
          </noscript>
        </div>
      </AppForm>
    </div>
  );
}
