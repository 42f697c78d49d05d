/** The invoice page's action (under the client and under the campus): void, and credit notes. */
import type { ActionFunctionArgs } from '@remix-run/cloudflare';
import { z } from 'zod';
import { issueCreditNote, voidInvoice } from '@server/domain/invoices/corrections';
import { creditNoteSchema, voidInvoiceSchema } from '@server/domain/invoices/schema';
import { msg } from '@server/domain/validation';
import { findVisibleInvoice } from '@server/domain/invoices/queries';
import { intentAction } from './actions.server';
import { unreachable } from './actions';

export function invoicePageAction(args: ActionFunctionArgs, self: string) {
  const id = args.params.invoiceId ?? '';
  return intentAction({
    intents: {
      void: {
        schema: voidInvoiceSchema,
        permission: 'update_invoice',
        confirm: {
          question: async (_input, { ctx }) =>
            msg('invoices.actions.void_confirm', {
              number: (await findVisibleInvoice(ctx, id)).invoice.number ?? '',
            }),
          button: 'invoices.actions.void',
        },
      },
      credit_note: { schema: creditNoteSchema, permission: 'create_invoice' },
      credit_note_whole: {
        schema: creditNoteSchema.extend({ items: z.any().transform(() => [] as number[]) }),
        permission: 'create_invoice',
      },
    },
    async handle(input, { ctx, redirect }) {
      switch (input.intent) {
        case 'void':
          await voidInvoice(ctx, id, { reason: input.reason });
          return redirect(self, 'invoices.messages.voided');
        case 'credit_note':
        case 'credit_note_whole': {
          const note = await issueCreditNote(ctx, id, { reason: input.reason, items: input.items });
          return redirect(self, msg('invoices.messages.credited', { number: note.number ?? '' }));
        }
        default:
          return unreachable(input);
      }
    },
  })(args);
}
