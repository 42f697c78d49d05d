/** /insureds/cancel/summary.xlsx?import={id}: the summary of a cancellation sheet, in the reader's language. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import { cancellationSummary } from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';
import { importRefQuerySchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    query: importRefQuerySchema,
    async load({ ctx, lang, query }) {
      const { filename, body } = await cancellationSummary(ctx, query.import ?? '', lang);
      return new Response(body, {
        headers: {
          'content-type': XLSX_CONTENT_TYPE,
          'content-disposition': `attachment; filename="${filename.replace(/[^\w.-]+/g, '_')}"`,
          'cache-control': 'no-store',
        },
      });
    },
  })(args);
