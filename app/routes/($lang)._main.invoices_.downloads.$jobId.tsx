/**
 * /invoices/downloads/{job}: the ZIP of more than 200 invoices being prepared (a queued job renders them
 * into R2, then writes the ZIP; workers/domain/invoices/zip-job.ts). The page asks again every second
 * while it runs (without JavaScript it refreshes itself), then offers the ZIP; 'Error downloading
 * invoice(s)' when it failed. Leaving is safe: the job goes on.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { sizeText, ZipJobPage } from '~/components/ui/zip-job';
import { INVOICE_ACCESS, invoicesZipStatus } from '~/lib/invoices.server';
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: INVOICE_ACCESS,
    otherwise: '/invoices',
    params: idsSchema('jobId'),
    async load({ ctx, request, context, params }) {
      const job = await invoicesZipStatus(ctx, params.jobId);
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
    },
  })(args);

export default function InvoicesZipJob() {
  const { t } = useTranslation();
  const { job } = useLoaderData<typeof loader>();
  return (
    <ZipJobPage
      job={job}
      keys="invoices.zip"
      summary={t('invoices.zip.ready', { count: job.invoices, size: sizeText(job.size) })}
      downloadPath={`/invoices/downloads/${job.id}/zip`}
      backPath="/invoices"
    />
  );
}
