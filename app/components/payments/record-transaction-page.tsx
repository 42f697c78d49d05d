/**
 * The page of /invoices/{invoiceId}/record-payment and /record-refund (app/lib/record-transaction.server.ts):
 * the invoice's money, then the form (amount, date, how the money moved, note, receipt), or why nothing
 * can be recorded now.
 */
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { recordAction, recordLoader } from '~/lib/record-transaction.server';
import { useMessage } from '~/lib/messages';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';
import { invoicePagePath } from '~/lib/payments';
import { localePath } from '~/i18n/config';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { InvoiceMoneyFacts, TransactionForm } from '~/components/payments/transaction-form';

export function RecordTransactionPage() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { kind, invoice, money, blocked, form_key, today, back, constraint } =
    useLoaderData<typeof recordLoader>();
  const answer = useActionData<typeof recordAction>();
  const cancelTo = localePath(i18n.language, back ?? invoicePagePath(invoice));
  const suggested = kind === 'payment' ? money.balance : money.refundable;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader
        title={t(`payments.record.${kind}_title`)}
        description={t(`payments.record.${kind}_intro`, { number: invoice.number })}
      />
      <Card>
        <InvoiceMoneyFacts invoice={invoice} money={money} />
      </Card>
      {blocked ? (
        <Alert tone="info">{m(blocked)}</Alert>
      ) : (
        <Card>
          <TransactionForm
            id={`record-${kind}`}
            schema={() => import('@server/domain/payments/schema').then((m) => m.recordPageSchema)}
            constraint={constraint}
            lastResult={answer?.submission}
            currency={invoice.currency}
            defaults={{ amount: (suggested / 100).toFixed(2), paid_on: today, method: 'bank_transfer' }}
            submitLabel={t(`payments.record.${kind}_submit`)}
            cancelTo={cancelTo}
            hidden={{ idempotency_key: form_key, ...(back ? { back } : {}) }}
            confirm={(form) => {
              const typed = new FormData(form);
              const amount = Math.round(
                Number(String(typed.get('amount') ?? '').replace(/[,\s]/g, '')) * 100,
              );
              return t(`payments.record.${kind}_confirm`, {
                amount: Number.isFinite(amount)
                  ? formatMinor(amount, invoice.currency)
                  : String(typed.get('amount')),
                date: britishDate(String(typed.get('paid_on') ?? '')),
                number: invoice.number,
              });
            }}
          />
        </Card>
      )}
    </div>
  );
}
