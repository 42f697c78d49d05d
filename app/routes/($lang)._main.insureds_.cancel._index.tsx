/**
 * /insureds/cancel: the first step of cancelling insureds by spreadsheet. Upload the cancellation
 * template filled in (a policy id per row, the last name as a check), or any sheet with a policy id
 * column; the file is checked and read at once, then its columns are matched. Sheets under way are
 * listed to continue.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { CANCEL_PERMISSION, MAX_CANCEL_ROWS } from '@server/domain/cancellations/values';
import { MAX_IMPORT_MB } from '@server/domain/imports/values';
import { cancelUploadFormSchema } from '~/lib/schemas.server';
import { formAction } from '~/lib/actions';
import { recentCancellations, uploadCancellation } from '~/lib/cancellations.server';
import { localePath } from '~/i18n/config';
import { AppForm, FieldShell, FormErrors, Input } from '~/components/fields';
import { Button } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ImportStatusBadge } from '~/components/imports/import-bits';
import { CancelSteps, cancellationHref } from '~/components/cancellations/cancel-steps';
import { formatDateTime } from '~/lib/dates';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    async load({ ctx, request, context }) {
      return {
        recent: await recentCancellations(ctx, 5),
        title: pageTitle(context, request, 'cancellations.upload.title'),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: cancelUploadFormSchema,
    permission: CANCEL_PERMISSION,
    async handle(input, { ctx, redirect }) {
      const { id } = await uploadCancellation(ctx, input.file);
      return redirect(`/insureds/cancel/match-columns?import=${id}`);
    },
  })(args);

export default function CancelUpload() {
  const { t, i18n } = useTranslation();
  const { recent } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const errors = data?.submission?.error ?? {};
  return (
    <div className="mx-auto max-w-4xl">
      <CancelSteps current="upload" />
      <PageHeader
        title={t('cancellations.upload.title')}
        description={t('cancellations.upload.description')}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <AppForm method="post" encType="multipart/form-data" className="space-y-5">
            <FormErrors errors={errors['']} />
            <FieldShell
              id="cancel-file"
              label={t('cancellations.upload.file_label')}
              hint={t('cancellations.upload.file_hint', { size: MAX_IMPORT_MB, max: MAX_CANCEL_ROWS })}
              errors={errors.file}
              errorId="cancel-file-errors"
            >
              <Input
                id="cancel-file"
                type="file"
                name="file"
                required
                accept=".xlsx,.csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,text/csv"
                aria-invalid={errors.file?.length ? true : undefined}
                aria-describedby="cancel-file-errors"
                className="file:mr-3 file:rounded-md file:border-0 file:bg-primary-50 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-primary-800"
              />
            </FieldShell>
            <Button type="submit" disabled={busy}>
              {busy ? t('cancellations.upload.uploading') : t('cancellations.upload.submit')}
            </Button>
          </AppForm>
        </Card>
        <Card>
          <h2 className="text-base font-semibold text-slate-900">
            {t('cancellations.upload.template_title')}
          </h2>
          <p className="mt-2 text-sm text-slate-600">{t('cancellations.upload.template_text')}</p>
          <a
            href={to('/insureds/cancel/template.xlsx')}
            className="mt-4 inline-flex text-sm font-semibold text-primary-800 underline hover:text-primary-700"
            download
          >
            {t('cancellations.upload.template_download')}
          </a>
        </Card>
      </div>
      <section className="mt-8">
        <h2 className="mb-3 text-base font-semibold text-slate-900">{t('cancellations.upload.recent')}</h2>
        {recent.length ? (
          <Card flush>
            <ul className="divide-y divide-slate-100">
              {recent.map((i) => (
                <li
                  key={i.id}
                  className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
                >
                  <div className="min-w-0">
                    <p className="truncate font-medium text-slate-900">{i.file_name}</p>
                    <p className="text-xs text-slate-500">
                      {t('cancellations.upload.rows', { count: i.row_count })} ·{' '}
                      {formatDateTime(i.created_at)}
                    </p>
                  </div>
                  <div className="flex items-center gap-3">
                    <ImportStatusBadge status={i.amended && i.status !== 'done' ? 'review' : i.status} />
                    <Link to={to(cancellationHref(i))} className="font-semibold text-primary-800 underline">
                      {t('cancellations.upload.open')}
                    </Link>
                  </div>
                </li>
              ))}
            </ul>
          </Card>
        ) : (
          <Alert tone="info">{t('cancellations.upload.recent_empty')}</Alert>
        )}
      </section>
    </div>
  );
}
