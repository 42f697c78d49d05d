/**
 * The form of a recorded payment or refund (record-payment, record-refund, and editing one): amount,
 * payment date, how the money came, a note and the receipt (PDF, JPG or PNG). The pages' schemas are
 * the domain's (workers/domain/payments/schema.ts); the receipt is checked by the service.
 */
import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { ZodTypeAny } from 'zod';
import { RECEIVED_VIA } from '@db/schema/billing-enums';
import { AppForm, ErrorList, Field, FormErrors, Label, SelectField, TextAreaField } from '~/components/forms';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { ConfirmButton } from '~/components/ui/confirm';
import { Facts } from '~/components/ui/facts';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import { formatMinor } from '~/lib/money';
import { useSchemaForm, type Constraints } from '~/lib/schema-form';

export interface InvoiceMoneyView {
  total: number;
  paid: number;
  refunded: number;
  credited: number;
  balance: number;
  refundable: number;
}

/** The invoice's figures above the form, its number a link to its page. */
export function InvoiceMoneyFacts({
  invoice,
  money,
}: {
  invoice: { id: string; number: string; currency: string; client: { id: string; name: string } };
  money: InvoiceMoneyView;
}) {
  const { t } = useTranslation();
  const f = (n: number) => formatMinor(n, invoice.currency);
  return (
    <Facts
      items={[
        {
          label: t('payments.facts.invoice'),
          value: <InvoiceLink invoice={invoice} variant="value" />,
        },
        { label: t('payments.facts.client'), value: invoice.client.name },
        { label: t('payments.facts.total'), value: f(money.total) },
        { label: t('payments.facts.paid'), value: f(money.paid) },
        { label: t('payments.facts.refunded'), value: f(money.refunded) },
        { label: t('payments.facts.balance'), value: f(money.balance), testId: 'invoice-balance' },
      ]}
    />
  );
}

export function TransactionForm({
  id,
  schema,
  constraint,
  lastResult,
  currency,
  defaults,
  submitLabel,
  cancelTo,
  hidden,
  currentReceipt,
  confirm,
}: {
  id: string;
  /** Loads the form's schema: `() => import('@server/domain/payments/schema').then((m) => m.x)`. */
  schema: () => Promise<ZodTypeAny>;
  /** Its browser checks, `constraintsOf(schema)` from the loader. */
  constraint: Constraints;
  lastResult: SubmissionResult<string[]> | null | undefined;
  currency: string;
  defaults?: Record<string, string>;
  submitLabel: string;
  cancelTo: string;
  /** Hidden fields: the one-time key, the transaction id, where to go back to. */
  hidden: Record<string, string>;
  currentReceipt?: string | null;
  /** The question asked before recording (money moved as typed), made from the form as filled in. */
  confirm?: (form: HTMLFormElement) => string;
}) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id,
    schema,
    lastResult,
    defaultValue: defaults,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const receiptErrors = form.allErrors.receipt;
  return (
    <AppForm method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-5">
      <FormErrors errors={form.errors} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label={t('payments.fields.amount', { currency })}
          field={fields.amount}
          inputProps={{ inputMode: 'decimal', autoComplete: 'off' }}
        />
        <Field label={t('payments.fields.paid_on')} field={fields.paid_on} type="date" />
        <SelectField
          label={t('payments.fields.method')}
          field={fields.method}
          options={RECEIVED_VIA.map((v) => ({ value: v, label: t(`payments.methods.${v}`) }))}
        />
        <div>
          <Label htmlFor={`${form.id}-receipt`}>{t('payments.fields.receipt')}</Label>
          <input
            id={`${form.id}-receipt`}
            type="file"
            name="receipt"
            accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png"
            aria-invalid={receiptErrors?.length ? true : undefined}
            aria-describedby={`${form.id}-receipt-hint`}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-primary-50 file:px-3 file:py-2 file:font-semibold file:text-primary-800"
          />
          <p id={`${form.id}-receipt-hint`} className="mt-1 text-xs text-slate-500">
            {currentReceipt
              ? t('payments.fields.receipt_current', { name: currentReceipt })
              : t('payments.fields.receipt_hint')}
          </p>
          <ErrorList errors={receiptErrors} />
        </div>
        <div className="sm:col-span-2">
          <TextAreaField label={t('payments.fields.note')} field={fields.note} rows={3} />
        </div>
      </div>
      <div className="flex flex-wrap gap-3">
        {confirm ? (
          <ConfirmButton className={buttonClass('primary')} disabled={busy} question={confirm} tone="primary">
            {submitLabel}
          </ConfirmButton>
        ) : (
          <Button type="submit" disabled={busy}>
            {submitLabel}
          </Button>
        )}
        <ButtonLink to={cancelTo} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
      </div>
    </AppForm>
  );
}
