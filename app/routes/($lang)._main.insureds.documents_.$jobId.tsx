/**
 * /insureds/documents/{job}: the documents ZIP being prepared (a job: the missing PDFs are made, then
 * the ZIP is written to R2). The page asks again every second while it runs (without JavaScript it
 * refreshes itself), then offers the ZIP. Leaving is safe: the job goes on.
 */
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { sizeText, ZipJobPage } from '~/components/ui/zip-job';
import { documentsJobStatus, DOCUMENT_PERMISSION } from '~/lib/policy-documents.server';
import { zipJobLoader } from '~/lib/zip-job.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  zipJobLoader(args, {
    permission: DOCUMENT_PERMISSION,
    back: '/insureds',
    title: 'policy_documents.bulk.progress_title',
    status: documentsJobStatus,
    counts: ['insureds', 'files', 'size'],
  });

export default function DocumentsJob() {
  const { t } = useTranslation();
  const { job } = useLoaderData<typeof loader>();
  return (
    <ZipJobPage
      job={job}
      keys="policy_documents.bulk"
      summary={t('policy_documents.bulk.ready', {
        files: job.files,
        insureds: job.insureds,
        size: sizeText(job.size),
      })}
      downloadPath={`/insureds/documents/${job.id}/download`}
      backPath="/insureds"
    />
  );
}
