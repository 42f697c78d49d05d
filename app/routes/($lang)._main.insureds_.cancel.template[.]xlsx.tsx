/** /insureds/cancel/template.xlsx: the cancellation template, its headers in the reader's language. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import { cancellationTemplate } from '~/lib/cancellations.server';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: CANCEL_PERMISSION,
    async load({ lang }) {
      return new Response(await cancellationTemplate(lang), {
        headers: {
          'content-type': XLSX_CONTENT_TYPE,
          'content-disposition': 'attachment; filename="cancellation-template.xlsx"',
          'cache-control': 'no-store',
        },
      });
    },
  })(args);
