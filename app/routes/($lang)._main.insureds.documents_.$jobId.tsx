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
import { pageTitle } from '~/lib/meta';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    otherwise: '/insureds',
    params: idsSchema('jobId'),
    async load({ ctx, request, context, params }) {
      const job = await documentsJobStatus(ctx, params.jobId);
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
    },
  })(args);

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
