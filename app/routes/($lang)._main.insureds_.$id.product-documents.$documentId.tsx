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
import { idSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: DOCUMENT_PERMISSION,
    params: idSchema.extend({ documentId: rowNumber }),
    load({ ctx, request, params }) {
      return policyDocumentResponse(request, downloadDocumentOfPolicy(ctx, params.id, params.documentId));
    },
  })(args);
