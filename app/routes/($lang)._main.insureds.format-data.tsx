/**
 * /insureds/format-data?import={id}: the staging job's progress (rows done, errors so far). The page
 * asks the server again every second while the job runs (without JavaScript the page refreshes itself)
 * and goes on to the review when the applicants are ready. Leaving is safe: the job goes on, and the
 * order and upload pages link back here.
 */
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { importStep, importProgress } from '~/lib/imports.server';
import { pageLoader } from '~/lib/loaders.server';
import { ORDER_PERMISSION } from '@server/domain/enrollments/batches';
import { RefreshWhile } from '~/components/ui/refresh-while';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ImportSteps, ProgressBar } from '~/components/imports/import-bits';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: ORDER_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, view } = await importStep(kit, 'format');
      return {
        import: {
          id: view.id,
          file_name: view.file_name,
          campus: view.campus,
          contract: view.contract,
        },
        progress: await importProgress(ctx, view.id),
        title: pageTitle(context, request, 'imports.progress.title'),
      };
    },
  })(args);

export default function FormatData() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { import: imp, progress } = useLoaderData<typeof loader>();
  const running = progress.status === 'staging';
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl">
      <RefreshWhile running={running} />
      <ImportSteps current="prepare" links={{ match: `/insureds/match-columns?import=${imp.id}` }} />
      <PageHeader
        title={t('imports.progress.title')}
        description={t('imports.progress.description', { file: imp.file_name })}
      />
      {progress.status === 'failed' ? (
        <Card>
          <h2 className="text-base font-semibold text-red-800">{t('imports.progress.failed_title')}</h2>
          <div className="mt-3">
            <Alert>{m(progress.message ?? 'imports.errors.staging_failed')}</Alert>
          </div>
          <div className="mt-5 flex flex-wrap gap-3">
            <ButtonLink to={to(`/insureds/match-columns?import=${imp.id}`)}>
              {t('imports.progress.rematch')}
            </ButtonLink>
            <ButtonLink
              to={to(`/insureds/new/import?campus=${imp.campus.id}&contract=${imp.contract.id}`)}
              variant="secondary"
            >
              {t('imports.progress.upload_again')}
            </ButtonLink>
          </div>
        </Card>
      ) : (
        <Card>
          <div className="space-y-4" aria-live="polite">
            <ProgressBar percent={progress.percent} label={t('imports.progress.title')} />
            <div className="flex flex-wrap justify-between gap-2 text-sm">
              <p className="font-medium text-slate-900" data-testid="rows-done">
                {progress.done === 0 && progress.percent === 0
                  ? t('imports.progress.queued')
                  : t('imports.progress.rows', { done: progress.done, total: progress.total })}
              </p>
              <p className={progress.errors ? 'text-amber-700' : 'text-slate-500'} data-testid="rows-errors">
                {t('imports.progress.errors', { count: progress.errors })}
              </p>
            </div>
            <p className="text-sm text-slate-600">{t('imports.progress.leave')}</p>
          </div>
        </Card>
      )}
    </div>
  );
}
