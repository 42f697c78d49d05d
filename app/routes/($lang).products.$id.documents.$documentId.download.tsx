import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadDocument, PRODUCT_DOCUMENT_ACCESS } from '@server/domain/products/documents';
import { idSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** A product document, streamed from R2 as an attachment (the product's documents tab and My Documents link here). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: PRODUCT_DOCUMENT_ACCESS,
    params: idSchema.extend({ documentId: rowNumber }),
    load({ ctx, params }) {
      return downloadDocument(ctx, params.id, params.documentId);
    },
  })(args);
