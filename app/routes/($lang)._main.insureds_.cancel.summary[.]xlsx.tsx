/** /insureds/cancel/summary.xlsx?import={id}: the summary of a cancellation sheet, in the reader's language. */
import type { LoaderFunctionArgs } from '@remix-run/cloudflare';
import { CANCEL_PERMISSION } from '@server/domain/cancellations/values';
import { XLSX_CONTENT_TYPE } from '@server/platform/xlsx';
import { cancellationSummary } from '~/lib/cancellations.server';
import { langOf, orNotFound, requirePermissions } from '~/lib/guards.server';

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, CANCEL_PERMISSION);
  const id = new URL(request.url).searchParams.get('import') ?? '';
  const { filename, body } = await orNotFound(cancellationSummary(ctx, id, langOf(request)));
  return new Response(body, {
    headers: {
      'content-type': XLSX_CONTENT_TYPE,
      'content-disposition': `attachment; filename="${filename.replace(/[^\w.-]+/g, '_')}"`,
      'cache-control': 'no-store',
    },
  });
}
