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
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    params: idSchema,
    load({ ctx, request, params }) {
      return policyDocumentResponse(request, downloadPolicyDocument(ctx, params.id, 'insurance_card'));
    },
  })(args);
