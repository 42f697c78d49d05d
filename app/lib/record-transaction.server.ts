/**
 * The loader and action of the two pages that record money on an invoice, /invoices/{id}/record-payment
 * and /record-refund: the same form, rules and answer, told apart by the kind of transaction.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { RECORD_PERMISSION, recordTransaction, transactionFormView } from '@server/domain/payments/record';
import { britishDate, todayIso } from '@server/domain/formats';
import { msg } from '@server/domain/messages';
import { formatMinor } from '~/lib/money';
import { formAction } from '~/lib/actions.server';
import { pageLoader } from '~/lib/loaders.server';
import { pageTitle } from '~/lib/meta';
import { backOf, invoicePagePath } from '~/lib/payments';
import { constraintsOf, idsSchema, recordPageSchema } from '~/lib/schemas.server';

export type RecordKind = 'payment' | 'refund';

export const recordLoader = (kind: RecordKind, args: LoaderFunctionArgs) =>
  pageLoader({
    permission: RECORD_PERMISSION,
    params: idsSchema('invoiceId'),
    async load({ ctx, request, context, params }) {
      const view = await transactionFormView(ctx, params.invoiceId, kind);
      return json({
        ...view,
        kind,
        today: todayIso(ctx.now),
        back: backOf(request),
        constraint: constraintsOf(recordPageSchema),
        title: pageTitle(context, request, `payments.record.${kind}_title`),
      });
    },
  })(args);

export function recordAction(kind: RecordKind, args: ActionFunctionArgs) {
  return formAction({
    schema: recordPageSchema,
    permission: RECORD_PERMISSION,
    // Money moved as typed: the amount, the date and the invoice are read back before they are recorded.
    confirm: {
      question: async (input, { ctx, params }) => {
        const { invoice } = await transactionFormView(ctx, params.invoiceId ?? '', kind);
        return msg(`payments.record.${kind}_confirm`, {
          amount: formatMinor(input.amount, invoice.currency),
          date: britishDate(input.paid_on),
          number: invoice.number ?? '',
        });
      },
      button: `payments.record.${kind}_submit`,
      tone: 'primary',
    },
    async handle(input, { ctx, params, formData, redirect }) {
      const { back, ...fields } = input;
      const result = await recordTransaction(
        ctx,
        params.invoiceId ?? '',
        kind,
        fields,
        formData.get('receipt'),
      );
      return redirect(
        back ?? invoicePagePath(result.invoice),
        result.duplicate ? 'payments.toasts.already_recorded' : `payments.toasts.${kind}_recorded`,
      );
    },
  })(args);
}
