/**
 * /insureds/documents/{job}: the documents ZIP being prepared (a job: the missing PDFs are made, then
 * the ZIP is written to R2). The page asks again every second while it runs (without JavaScript it
 * refreshes itself), then offers the ZIP. Leaving is safe: the job goes on.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { documentsJobStatus, DOCUMENT_PERMISSION } from '~/lib/policy-documents.server';
import { RefreshWhile } from '~/components/ui/refresh-while';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { useMessage } from '~/lib/messages';
import { ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { ProgressBar } from '~/components/imports/import-bits';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, DOCUMENT_PERMISSION, '/insureds');
  const job = await orNotFound(documentsJobStatus(ctx, params.jobId!));
  const result = job.result as { insureds?: number; files?: number; size?: number } | null;
  return {
    title: pageTitle(context, request, 'policy_documents.bulk.progress_title'),
    job: {
      id: job.id,
      status: job.status,
      done: job.done,
      total: job.total,
      percent: job.percent,
      message: job.message,
      insureds: result?.insureds ?? 0,
      files: result?.files ?? 0,
      size: result?.size ?? 0,
    },
  };
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export default function DocumentsJob() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { job } = useLoaderData<typeof loader>();
  const running = job.status === 'queued' || job.status === 'running';
  const to = (path: string) => localePath(i18n.language, path);
  return (
    <div className="mx-auto max-w-3xl">
      <RefreshWhile running={running} />
      <PageHeader
        title={
          job.status === 'done'
            ? t('policy_documents.bulk.ready_title')
            : t('policy_documents.bulk.progress_title')
        }
      />
      <Card>
        {job.status === 'done' ? (
          <div className="space-y-5">
            <p className="text-sm text-slate-700" data-testid="zip-summary">
              {t('policy_documents.bulk.ready', {
                files: job.files,
                insureds: job.insureds,
                size: sizeText(job.size),
              })}
            </p>
            <div className="flex flex-wrap gap-3">
              <a
                href={to(`/insureds/documents/${job.id}/download`)}
                className={buttonClass('primary')}
                download
              >
                {t('policy_documents.bulk.download_zip')}
              </a>
              <ButtonLink to={to('/insureds')} variant="secondary">
                {t('policy_documents.bulk.back')}
              </ButtonLink>
            </div>
          </div>
        ) : job.status === 'failed' ? (
          <div className="space-y-5">
            <h2 className="text-base font-semibold text-red-800">
              {t('policy_documents.bulk.failed_title')}
            </h2>
            <Alert>{m(job.message)}</Alert>
            <ButtonLink to={to('/insureds')} variant="secondary">
              {t('policy_documents.bulk.back')}
            </ButtonLink>
          </div>
        ) : (
          <div className="space-y-4" aria-live="polite">
            <ProgressBar percent={job.percent} label={t('policy_documents.bulk.progress_title')} />
            <p className="text-sm font-medium text-slate-900">
              {job.done === 0 && job.status === 'queued'
                ? t('policy_documents.bulk.queued')
                : t('policy_documents.bulk.progress', { done: job.done, total: job.total })}
            </p>
            <p className="text-sm text-slate-600">{t('policy_documents.bulk.leave')}</p>
          </div>
        )}
      </Card>
    </div>
  );
}
