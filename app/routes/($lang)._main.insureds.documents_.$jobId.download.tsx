/** /insureds/documents/{job}/download: the finished documents ZIP of a job the user started, from R2. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadDocumentsZip, DOCUMENT_PERMISSION } from '~/lib/policy-documents.server';
import { pageLoader } from '~/lib/loaders.server';
import { idsSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    params: idsSchema('jobId'),
    load({ ctx, params }) {
      return downloadDocumentsZip(ctx, params.jobId);
    },
  })(args);
