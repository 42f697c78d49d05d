/**
 * /insureds/{id}/insurance-card.pdf: the insured's insurance card of the policy's current version, made
 * on first request and kept in R2 (workers/domain/policy-documents). The insured page links here.
 */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import {
  downloadPolicyDocument,
  DOCUMENT_PERMISSION,
  policyDocumentResponse,
} from '~/lib/policy-documents.server';
import { requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, DOCUMENT_PERMISSION);
  return policyDocumentResponse(request, downloadPolicyDocument(ctx, params.id!, 'insurance_card'));
}
