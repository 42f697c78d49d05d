/**
 * /insureds/{id}/product-documents/{documentId}: a document of the insured's product (its wording, say),
 * as listed on the insured's Documents tab, streamed from R2.
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import {
  downloadDocumentOfPolicy,
  DOCUMENT_PERMISSION,
  policyDocumentResponse,
} from '~/lib/policy-documents.server';
import { requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, DOCUMENT_PERMISSION);
  const id = Number(params.documentId);
  if (!Number.isSafeInteger(id) || id < 1) throw new Response('Not Found', { status: 404 });
  return policyDocumentResponse(request, downloadDocumentOfPolicy(ctx, params.id!, id));
}
