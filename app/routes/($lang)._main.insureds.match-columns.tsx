/**
 * /insureds/match-columns?import={id}: which applicant detail each column of the uploaded sheet holds.
 * The suggestion (this client's previous choice, the template headers and their variants, near misses)
 * is preselected; the user changes or ignores any column and confirms the day/month order of the dates.
 * Confirming starts the staging job and goes to its progress page.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { DateOrder, ImportTarget } from '@server/domain/imports/schema';
import { mappingSchema, parseWithZod } from '~/lib/schemas.server';
import { todayIso } from '@server/domain/formats';
import { confirmMapping, importFromRequest, withErrors } from '~/lib/imports.server';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { ColumnMatcher, type MatcherColumn } from '~/components/imports/column-matcher';
import { ImportSteps } from '~/components/imports/import-bits';
import { useMessage } from '~/lib/messages';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { view, lang } = await importFromRequest(request, context);
  if (view.status === 'staging') throw redirect(localePath(lang, `/insureds/format-data?import=${view.id}`));
  if (view.status === 'done')
    throw redirect(localePath(lang, `/insureds/review-applicants?import=${view.id}`));
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
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const { ctx, view, lang } = await importFromRequest(request, context, formData);
  const submission = parseWithZod(formData, { schema: mappingSchema });
  const posted = (): { targets: (ImportTarget | null)[]; date_order: DateOrder } => ({
    targets: view.headers.map((_, i) => {
      const v = String(formData.get(`columns[${i}]`) ?? '');
      return (v || null) as ImportTarget | null;
    }),
    date_order: (['dmy', 'mdy', 'ymd'].includes(String(formData.get('date_order')))
      ? formData.get('date_order')
      : view.date_order) as DateOrder,
  });
  if (formData.get('intent') === 'preview')
    return json({ posted: posted(), errors: {} as Record<string, string[]> });
  if (submission.status !== 'success') {
    const errors: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(submission.error ?? {})) if (v) errors[k] = v;
    return json({ posted: posted(), errors }, { status: 400 });
  }
  const r = await withErrors(() => confirmMapping(ctx, view.id, submission.value));
  if (!r.ok) return json({ posted: posted(), errors: r.errors }, { status: 400 });
  return redirect(localePath(lang, `/insureds/format-data?import=${view.id}`));
}

export default function MatchColumns() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const data = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const imp = data.import;
  const columns = answer?.posted
    ? data.columns.map((c, i) => ({ ...c, target: answer.posted.targets[i] ?? null }))
    : data.columns;
  const errors = answer?.errors ?? {};
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
        <FormErrors errors={errors.form} />
        {errors.columns?.length ? (
          <div role="alert" className="rounded-lg bg-red-50 px-4 py-3 ring-1 ring-red-200">
            <ErrorList errors={errors.columns} />
          </div>
        ) : null}
        <ColumnMatcher
          key={answer ? JSON.stringify(answer.posted) : 'loaded'}
          columns={columns}
          dateOrder={answer?.posted.date_order ?? imp.date_order}
          today={data.today}
          errors={errors}
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
