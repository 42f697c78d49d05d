/**
 * /invoices/downloads/{job}: the ZIP of more than 200 invoices being prepared (a queued job renders them
 * into R2, then writes the ZIP; workers/domain/invoices/zip-job.ts). The page asks again every second
 * while it runs (without JavaScript it refreshes itself), then offers the ZIP; 'Error downloading
 * invoice(s)' when it failed. Leaving is safe: the job goes on.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { INVOICE_ACCESS, invoicesZipStatus } from '~/lib/invoices.server';
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
  const ctx = requirePermissions(request, context, INVOICE_ACCESS, '/invoices');
  const job = await orNotFound(invoicesZipStatus(ctx, params.jobId!));
  const result = job.result as { invoices?: number; size?: number } | null;
  return {
    title: pageTitle(context, request, 'invoices.zip.progress_title'),
    job: {
      id: job.id,
      status: job.status,
      done: job.done,
      total: job.total,
      percent: job.percent,
      message: job.message,
      invoices: result?.invoices ?? 0,
      size: result?.size ?? 0,
    },
  };
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

export default function InvoicesZipJob() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { job } = useLoaderData<typeof loader>();
  const running = job.status === 'queued' || job.status === 'running';
  const to = (path: string) => localePath(i18n.language, path);
  const back = (
    <ButtonLink to={to('/invoices')} variant="secondary">
      {t('invoices.zip.back')}
    </ButtonLink>
  );
  return (
    <div className="mx-auto max-w-3xl">
      <RefreshWhile running={running} />
      <PageHeader
        title={job.status === 'done' ? t('invoices.zip.ready_title') : t('invoices.zip.progress_title')}
      />
      <Card>
        {job.status === 'done' ? (
          <div className="space-y-5">
            <p className="text-sm text-slate-700" data-testid="zip-summary">
              {t('invoices.zip.ready', { count: job.invoices, size: sizeText(job.size) })}
            </p>
            <div className="flex flex-wrap gap-3">
              <a href={to(`/invoices/downloads/${job.id}/zip`)} className={buttonClass('primary')} download>
                {t('invoices.zip.download_zip')}
              </a>
              {back}
            </div>
          </div>
        ) : job.status === 'failed' ? (
          <div className="space-y-5">
            <Alert>{m(job.message)}</Alert>
            {back}
          </div>
        ) : (
          <div className="space-y-4" aria-live="polite">
            <ProgressBar percent={job.percent} label={t('invoices.zip.progress_title')} />
            <p className="text-sm font-medium text-slate-900">
              {job.done === 0 && job.status === 'queued'
                ? t('invoices.zip.queued')
                : t('invoices.zip.progress', { done: job.done, total: job.total })}
            </p>
            <p className="text-sm text-slate-600">{t('invoices.zip.leave')}</p>
          </div>
        )}
      </Card>
    </div>
  );
}
