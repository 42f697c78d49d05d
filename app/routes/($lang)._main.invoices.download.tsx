/**
 * POST /invoices/download (the list's bulk "Download as PDF" / "Download as Excel", a plain document
 * post): the selected invoices, or all matching the filters, as one ZIP; 'Error downloading invoice(s)'
 * back on the page it came from when it cannot be made.
 */
import type { ActionFunctionArgs, TypedResponse } from '@remix-run/cloudflare';
import { intentAction } from '~/lib/actions.server';
import { unreachable } from '~/lib/actions';
import { bulkSchema } from '~/lib/lists.server';
import { INVOICE_ACCESS, invoiceZipResponse } from '~/lib/invoices.server';

/** The page to go back to on failure: the referring page of ours, else the list. */
function backOf(request: Request): string {
  const referer = request.headers.get('referer');
  if (!referer) return '/invoices';
  const url = new URL(referer);
  return url.origin === new URL(request.url).origin
    ? `${url.pathname.replace(/^\/(ca|cn|de|es|fr|it|pt)(?=\/)/, '')}${url.search}`
    : '/invoices';
}

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      pdf: { schema: bulkSchema, permission: INVOICE_ACCESS },
      excel: { schema: bulkSchema, permission: INVOICE_ACCESS },
    },
    async handle(input, { ctx, context, lang, request }) {
      switch (input.intent) {
        case 'pdf':
        case 'excel':
          return (await invoiceZipResponse(
            ctx,
            context,
            lang,
            input.intent,
            input.selection,
            input.filters,
            backOf(request),
          )) as TypedResponse<never>;
        default:
          return unreachable(input);
      }
    },
  })(args);
