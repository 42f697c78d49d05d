import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { downloadDocument } from '@server/domain/products/documents';
import { idSchema, rowNumber } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';

/** A product document, streamed from R2 as an attachment (the documents tab links here). */
export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_product',
    params: idSchema.extend({ documentId: rowNumber }),
    load({ ctx, params }) {
      return downloadDocument(ctx, params.id, params.documentId);
    },
  })(args);
