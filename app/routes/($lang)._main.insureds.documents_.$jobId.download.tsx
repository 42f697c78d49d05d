/** /insureds/documents/{job}/download: the finished documents ZIP of a job the user started, from R2. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadDocumentsZip, DOCUMENT_PERMISSION } from '~/lib/policy-documents.server';
import { orNotFound, requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, DOCUMENT_PERMISSION);
  return orNotFound(downloadDocumentsZip(ctx, params.jobId!));
}
