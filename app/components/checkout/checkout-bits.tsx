/**
 * Pieces shared by the checkout, payment and confirmation pages: money, the invoice's status and facts,
 * the policies it bought, the company's bank details, and the card provider's form.
 */
import { useEffect, useRef } from 'react';
import type { SerializeFrom } from '@remix-run/cloudflare';
import { useTranslation } from 'react-i18next';
import { Facts } from '~/components/ui/facts';
import { InvoiceLink } from '~/components/invoices/invoice-link';
import type { InvoiceView } from '@server/domain/invoices/queries';
import type { InvoiceItemView } from '@server/domain/invoices/service';
import type { ListMeta } from '@server/domain/list-query';
import { DataTable, type Column } from '~/components/ui/data-table';
import { StatusBadge } from '~/components/ui/status-badge';
import { Alert } from '~/components/ui/card';
import { Button } from '~/components/ui/button';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';

export type Invoice = SerializeFrom<InvoiceView>;
export type InvoiceItem = SerializeFrom<InvoiceItemView>;

const INVOICE_TONES = { unpaid: 'amber', pending: 'blue', paid: 'green', refunded: 'slate' } as const;

export function InvoiceStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = INVOICE_TONES[status as keyof typeof INVOICE_TONES] ?? 'slate';
  return <StatusBadge tone={tone}>{t(`checkout.invoice_status.${status}`)}</StatusBadge>;
}

const POLICY_TONES = { active: 'green', not_started: 'blue', expired: 'slate', cancelled: 'red' } as const;

export function PolicyStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = POLICY_TONES[status as keyof typeof POLICY_TONES] ?? 'slate';
  return <StatusBadge tone={tone}>{t(`checkout.policy_status.${status}`)}</StatusBadge>;
}

/** The invoice's number, dates, status, payment method and reference, and its totals. */
export function InvoiceFacts({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const money = (minor: number) => formatMinor(minor, invoice.currency);
  return (
    <Facts
      items={[
        {
          label: t('checkout.invoice.number'),
          value: <InvoiceLink invoice={invoice} variant="value" />,
          testId: 'invoice-number',
        },
        { label: t('checkout.invoice.status'), value: <InvoiceStatusBadge status={invoice.status} /> },
        { label: t('checkout.invoice.client'), value: invoice.client.name },
        { label: t('checkout.invoice.date'), value: britishDate(invoice.date) },
        { label: t('checkout.invoice.due_at'), value: britishDate(invoice.due_at) },
        {
          label: t('checkout.invoice.payment_method'),
          value: t(`checkout.methods.${invoice.payment_method}`),
        },
        { label: t('checkout.invoice.payment_reference'), value: invoice.payment_reference },
        { label: t('checkout.invoice.policies'), value: String(invoice.policy_count) },
        ...(invoice.paid_at
          ? [{ label: t('checkout.invoice.paid_at'), value: britishDate(invoice.paid_at) }]
          : []),
        { label: t('checkout.invoice.insurance_cost'), value: money(invoice.insurance_cost_minor) },
        { label: t('checkout.invoice.tax'), value: money(invoice.tax_minor) },
        ...(invoice.stamp_duty_minor
          ? [
              {
                label: t('taxes.lines.stamp_duty'),
                value: money(invoice.stamp_duty_minor),
                testId: 'invoice-stamp-duty',
              },
            ]
          : []),
        {
          label: t('checkout.invoice.total'),
          value: <span className="text-base">{money(invoice.total_minor)}</span>,
          testId: 'invoice-total',
        },
      ]}
    />
  );
}

/** One page of the policies an invoice bought, 25 a page, with their numbers, names, dates and fees. */
export function PoliciesTable({
  items,
  meta,
  currency,
}: {
  items: InvoiceItem[];
  meta: ListMeta;
  currency: string;
}) {
  const { t } = useTranslation();
  const columns: Column<InvoiceItem>[] = [
    {
      key: 'policy_number',
      card: 'figure',
      header: t('checkout.policies.policy_number'),
      render: (i) => <span className="font-mono text-sm font-semibold">{i.policy?.policy_number}</span>,
    },
    {
      key: 'name',
      card: 'title',
      header: t('checkout.policies.name'),
      render: (i) => (
        <div>
          <p className="font-medium text-slate-900">{i.policy?.full_name}</p>
          <p className="text-xs text-slate-500">{i.policy ? t(`checkout.types.${i.policy.type}`) : ''}</p>
        </div>
      ),
    },
    {
      key: 'dates',
      card: 'figure',
      header: t('checkout.policies.dates'),
      render: (i) => (
        <span className="whitespace-nowrap">
          {britishDate(i.policy?.start_date)} – {britishDate(i.policy?.end_date)}
        </span>
      ),
    },
    {
      key: 'product',
      card: 'hidden',
      header: t('checkout.policies.product'),
      render: (i) => (
        <div>
          <p>{i.policy?.product}</p>
          <p className="text-xs text-slate-500">{i.policy?.campus}</p>
        </div>
      ),
    },
    {
      key: 'status',
      card: 'status',
      header: t('checkout.policies.status'),
      render: (i) => (i.policy ? <PolicyStatusBadge status={i.policy.status} /> : null),
    },
    {
      key: 'fee',
      card: 'figure',
      header: t('checkout.policies.fee'),
      className: 'text-right',
      render: (i) => (
        <div className="text-right tabular-nums">
          <p className="font-medium">{formatMinor(i.total_minor, currency)}</p>
          {i.tax_minor ? (
            <p className="text-xs text-slate-500">
              {t('checkout.policies.incl_tax', { tax: formatMinor(i.tax_minor, currency) })}
            </p>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <DataTable
      rows={items}
      columns={columns}
      rowId={(i) => String(i.id)}
      meta={meta}
      caption={t('checkout.policies.caption')}
      empty={t('checkout.policies.empty')}
    />
  );
}

/** Where to send a bank transfer: the company's bank details and the reference to quote. */
export function BankDetails({
  details,
  reference,
  amount,
}: {
  details: {
    company_name: string;
    bank_name: string | null;
    bic: string | null;
    iban: string | null;
    branch_code: string | null;
    account_number: string | null;
  } | null;
  reference: string;
  amount: string;
}) {
  const { t } = useTranslation();
  const rows = [
    { label: t('checkout.bank.amount'), value: amount, testId: 'bank-amount' },
    { label: t('checkout.bank.reference'), value: reference, testId: 'bank-reference' },
    { label: t('checkout.bank.account_name'), value: details?.company_name ?? '—' },
    { label: t('checkout.bank.bank_name'), value: details?.bank_name || '—' },
    { label: t('checkout.bank.iban'), value: details?.iban || '—', testId: 'bank-iban' },
    { label: t('checkout.bank.bic'), value: details?.bic || '—' },
    { label: t('checkout.bank.branch_code'), value: details?.branch_code || '—' },
    { label: t('checkout.bank.account_number'), value: details?.account_number || '—' },
  ];
  const missing = !details?.iban && !details?.account_number;
  return (
    <div className="space-y-4">
      <dl className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
        {rows.map((r) => (
          <div key={r.label} className="grid gap-1 px-4 py-3 text-sm sm:grid-cols-3 sm:gap-4">
            <dt className="text-slate-500">{r.label}</dt>
            <dd className="break-all font-medium text-slate-900 sm:col-span-2" data-testid={r.testId}>
              {r.value}
            </dd>
          </div>
        ))}
      </dl>
      {missing ? <Alert tone="info">{t('checkout.bank.missing')}</Alert> : null}
    </div>
  );
}

/**
 * The card provider's hosted page is reached by posting this signed form to it. With JavaScript the form
 * submits itself; without, the visible button does it. It carries no CSRF token: it goes to another site.
 */
export function HostedPaymentForm({
  action,
  fields,
  auto = true,
}: {
  action: string;
  fields: Record<string, string>;
  auto?: boolean;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (!auto || sent.current || !ref.current) return;
    sent.current = true;
    ref.current.submit();
  }, [auto]);
  return (
    <form ref={ref} method="post" action={action} acceptCharset="utf-8" data-testid="hosted-payment-form">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit">{t('checkout.pay.continue')}</Button>
    </form>
  );
}

/** What became of a card payment, after the card provider sent the user back. */
export function PaymentOutcome({ outcome }: { outcome: string | null }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  const tone = outcome === 'succeeded' ? 'success' : outcome === 'pending' ? 'info' : 'error';
  const key = ['succeeded', 'pending', 'cancelled', 'failed'].includes(outcome) ? outcome : 'failed';
  return (
    <div data-testid="payment-outcome">
      <Alert tone={tone}>{t(`checkout.outcome.${key}`)}</Alert>
    </div>
  );
}
