/**
 * /insureds/cancel/format-data?import={id}: the matching job's progress (rows matched, errors so far).
 * The page asks again every second while the job runs (without JavaScript it refreshes itself) and goes
 * on to the review when the rows are matched. Leaving is safe: the job goes on.
 */
import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { cancellationStep, cancellationProgress } from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import { RefreshWhile } from '~/components/ui/refresh-while';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ProgressBar } from '~/components/imports/import-bits';
import { CancelSteps } from '~/components/cancellations/cancel-steps';
import { pageTitle } from '~/lib/meta';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    async load(kit) {
      const { request, context } = kit;
      const { ctx, view } = await cancellationStep(kit, 'format');
      return {
        import: { id: view.id, file_name: view.file_name },
        progress: await cancellationProgress(ctx, view.id),
        title: pageTitle(context, request, 'cancellations.progress.title'),
      };
    },
  })(args);

export default function CancelFormatData() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { import: imp, progress } = useLoaderData<typeof loader>();
  const running = progress.status === 'staging';
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl">
      <RefreshWhile running={running} />
      <CancelSteps current="prepare" id={imp.id} />
      <PageHeader
        title={t('cancellations.progress.title')}
        description={t('cancellations.progress.description', { file: imp.file_name })}
      />
      {progress.status === 'failed' ? (
        <Card>
          <h2 className="text-base font-semibold text-red-800">{t('cancellations.progress.failed_title')}</h2>
          <div className="mt-3">
            <Alert>{m(progress.message ?? 'cancellations.errors.staging_failed')}</Alert>
          </div>
          <div className="mt-5 flex flex-wrap gap-3">
            <ButtonLink to={to(`/insureds/cancel/match-columns?import=${imp.id}`)}>
              {t('cancellations.progress.rematch')}
            </ButtonLink>
            <ButtonLink to={to('/insureds/cancel')} variant="secondary">
              {t('cancellations.match.upload_again')}
            </ButtonLink>
          </div>
        </Card>
      ) : (
        <Card>
          <div className="space-y-4" aria-live="polite">
            <ProgressBar percent={progress.percent} label={t('cancellations.progress.title')} />
            <div className="flex flex-wrap justify-between gap-2 text-sm">
              <p className="font-medium text-slate-900" data-testid="rows-done">
                {progress.done === 0 && progress.percent === 0
                  ? t('cancellations.progress.queued')
                  : t('cancellations.progress.rows', { done: progress.done, total: progress.total })}
              </p>
              <p className={progress.errors ? 'text-amber-700' : 'text-slate-500'}>
                {t('cancellations.progress.errors', { count: progress.errors })}
              </p>
            </div>
            <p className="text-sm text-slate-600">{t('cancellations.progress.leave')}</p>
          </div>
        </Card>
      )}
    </div>
  );
}
