/**
 * POST /invoices/{invoiceId}/overdue-email: "Send overdue reminder" on the invoice's page. Emails the
 * client's accounting contact about this invoice now (logged on the invoice) and goes back to the page
 * (or the `back` address) saying to whom it went, or why nothing was sent. Nothing to show by GET.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare';
import { findVisibleInvoice, presentInvoice } from '@server/domain/invoices/queries';
import { OVERDUE_PERMISSION, sendOverdueEmailFromPage } from '@server/domain/reminders/overdue';
import { formAction } from '~/lib/actions';
import { invoicePagePath } from '~/lib/payments';
import { backField } from '~/lib/schemas.server';

export function loader(_args: LoaderFunctionArgs) {
  throw new Response('Method Not Allowed', { status: 405, headers: { allow: 'POST' } });
}

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: backField,
    permission: OVERDUE_PERMISSION,
    async handle(input, { ctx, params, redirect }) {
      const invoice = presentInvoice(await findVisibleInvoice(ctx, params.invoiceId ?? ''));
      const outcome = await sendOverdueEmailFromPage(ctx, invoice.id);
      return redirect(input.back ?? invoicePagePath(invoice), outcome.toast, {
        type: outcome.ok ? 'success' : 'error',
      });
    },
  })(args);
