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
import { zipJobLoader } from '~/lib/zip-job.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  zipJobLoader(args, {
    permission: INVOICE_ACCESS,
    back: '/invoices',
    title: 'invoices.zip.progress_title',
    status: invoicesZipStatus,
    counts: ['invoices', 'size'],
  });

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
