/**
 * An invoice's page, the same under the client (/clients/{id}/invoices/{invoiceId}) and under
 * the campus (/campuses/{id}/invoices/{invoiceId}): the header (number, dates, status and due state,
 * client, campus, order number, payment reference), the billing address or 'Billing address has not been
 * specified.', the lines 25 at a time, the tax lines and totals, payments and refunds, the credit notes
 * against it, the overdue reminders sent, and the actions the reader may take.
 */
import { Link, useActionData, useNavigation } from '@remix-run/react';
import type { SerializeFrom } from '@remix-run/cloudflare';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { InvoiceDetailView } from '@server/domain/invoices/detail';
import { answerOf } from '~/lib/actions';
import { localePath } from '~/i18n/config';
import { formatDate } from '~/lib/dates';
import { formatMinor } from '~/lib/money';
import { useMessage } from '~/lib/messages';
import { AppForm, Checkbox, FieldShell, TextArea } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { ConfirmButton } from '~/components/ui/confirm';
import { DataTable, type Column } from '~/components/ui/data-table';
import { Facts } from '~/components/ui/facts';
import { useAnswerError } from '~/components/ui/snackbar';
import { InvoiceState } from './invoice-bits';
import { InvoiceLink } from './invoice-link';

export type InvoicePageData = SerializeFrom<InvoiceDetailView>;
type Item = InvoicePageData['items'][number];

const rate = (bp: number | null) => (bp == null ? '' : `${(bp / 100).toFixed(bp % 100 ? 2 : 0)} %`);

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold text-slate-900">{title}</h2>
      {children}
    </Card>
  );
}

export function InvoicePage({
  invoice: inv,
  back,
  creditNoteHref,
  children,
}: {
  invoice: InvoicePageData;
  /** The list this page belongs to. */
  back: { to: string; label: string };
  /** The address of a credit note's page. */
  creditNoteHref: (id: string) => string;
  /** More about the invoice, below it (its conversations). */
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const to = (path: string) => localePath(i18n.language, path);
  const answer = answerOf(useActionData());
  useAnswerError(answer);
  const busy = useNavigation().state !== 'idle';
  const money = (minor: number) => formatMinor(minor, inv.currency);
  const credit = inv.type === 'credit_note';
  /** This document's own figures: a credit note's are credits, shown negative (as on its PDF). */
  const amount = (minor: number) => money(credit && minor ? -minor : minor);
  const reasonErrors = (intent: string) =>
    answer?.intent === intent ? (answer.submission?.error?.reason ?? null) : null;
  const credited = new Set(inv.credited_item_ids);

  const columns: Column<Item>[] = [
    ...(inv.can.credit_note
      ? [
          {
            key: 'pick',
            card: 'status' as const,
            header: <span className="sr-only">{t('invoices.actions.credit_note')}</span>,
            render: (r: Item) =>
              credited.has(r.id) ? (
                <span className="text-xs text-slate-500">{t('invoices.credited_line')}</span>
              ) : (
                <Checkbox
                  form="credit-note-form"
                  name="items"
                  value={String(r.id)}
                  aria-label={t('invoices.credit_line_label', { number: r.policy?.policy_number ?? r.id })}
                />
              ),
          },
        ]
      : []),
    {
      key: 'policy',
      card: 'figure',
      header: t('invoices.pdf.col_policy'),
      render: (r) => <span className="font-mono text-xs">{r.policy?.policy_number ?? '—'}</span>,
    },
    {
      key: 'insured',
      card: 'title',
      header: t('invoices.pdf.col_insured'),
      render: (r) => r.policy?.full_name ?? '—',
    },
    {
      key: 'description',
      card: 'hidden',
      header: t('invoices.pdf.col_description'),
      // Wide enough to read on a phone (the table scrolls sideways rather than squeeze it to a word a line).
      render: (r) => <span className="block min-w-48">{r.description}</span>,
    },
    {
      key: 'premium',
      card: 'figure',
      header: t('invoices.pdf.col_premium'),
      className: 'text-right',
      render: (r) => amount(r.unit_minor * r.quantity),
    },
    {
      key: 'tax',
      card: 'figure',
      header: t('invoices.pdf.col_tax'),
      className: 'text-right',
      render: (r) => amount(r.tax_minor),
    },
    // Line totals include their stamp duty: shown beside premium and tax so each line adds up.
    ...(inv.stamp_duty_minor
      ? [
          {
            key: 'stamp_duty',
            card: 'hidden' as const,
            header: t('taxes.lines.stamp_duty'),
            className: 'text-right',
            render: (r: Item) => amount(r.stamp_duty_minor),
          },
        ]
      : []),
    {
      key: 'total',
      card: 'figure',
      header: t('invoices.pdf.col_total'),
      className: 'text-right',
      render: (r) => <span className="font-medium">{amount(r.total_minor)}</span>,
    },
  ];

  const totals: [ReactNode, string, boolean?][] = [
    [t('invoices.totals.premium'), amount(inv.insurance_cost_minor)],
  ];
  for (const line of inv.tax_lines)
    totals.push([
      line.kind === 'tax'
        ? `${t(line.label)}${line.rate_bp != null ? ` (${rate(line.rate_bp)})` : ''}`
        : `${t(line.label)} (${line.count})`,
      amount(line.amount_minor),
    ]);
  if (inv.admin_fee_minor) totals.push([t('invoices.totals.admin_fee'), amount(inv.admin_fee_minor)]);
  totals.push([t('invoices.totals.total'), amount(inv.total_minor), true]);
  if (!credit) {
    if (inv.credited_minor) totals.push([t('invoices.totals.credited'), money(-inv.credited_minor)]);
    if (inv.paid_minor) totals.push([t('invoices.totals.paid'), money(-inv.paid_minor)]);
    if (inv.refunded_minor) totals.push([t('invoices.totals.refunded'), money(inv.refunded_minor)]);
    totals.push([t('invoices.totals.balance'), money(inv.balance_minor), true]);
    if (inv.account_credit_minor)
      totals.push([t('invoices.totals.account_credit'), money(inv.account_credit_minor)]);
  } else if (inv.credited_invoice) {
    const { id, number } = inv.credited_invoice;
    /** A line about the corrected invoice, its number a link to it. */
    const about = (key: string): ReactNode => (
      <InvoiceLink number={number} href={creditNoteHref(id)} sentence={t(key, { number })} />
    );
    totals.push([about('invoices.totals.invoice_balance'), money(inv.credited_invoice.balance_minor)]);
    if (inv.credited_invoice.account_credit_minor)
      totals.push([
        about('invoices.totals.invoice_credit'),
        money(inv.credited_invoice.account_credit_minor),
      ]);
    if (inv.credited_invoice.refunded_minor)
      totals.push([about('invoices.totals.invoice_refunded'), money(inv.credited_invoice.refunded_minor)]);
  }

  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <p>
        <Link to={to(back.to)} className="text-sm font-medium text-primary-800 hover:underline">
          ← {back.label}
        </Link>
      </p>
      <PageHeader
        title={`${t(`invoices.types.${inv.type}`)} ${inv.number}`}
        description={inv.client.name}
        actions={
          <>
            <a href={to(`/invoices/${inv.id}/pdf`)} className={buttonClass('secondary')} download>
              {t('invoices.actions.pdf')}
            </a>
            <a href={to(`/invoices/${inv.id}/excel`)} className={buttonClass('secondary')} download>
              {t('invoices.actions.excel')}
            </a>
            {inv.statement_href ? (
              <ButtonLink to={to(inv.statement_href)} variant="secondary">
                {t('billing.statement.link')}
              </ButtonLink>
            ) : null}
          </>
        }
      />
      {inv.voided_at ? (
        <Alert tone="info">
          {t('invoices.sections.void', {
            date: formatDate(String(inv.voided_at)),
            reason: inv.void_reason ?? '',
          })}
        </Alert>
      ) : null}
      <Card>
        <div className="mb-4">
          <InvoiceState invoice={inv} />
        </div>
        <Facts
          items={[
            { label: t('invoices.fields.number'), value: inv.number, testId: 'invoice-number' },
            { label: t('invoices.fields.date'), value: formatDate(inv.date) },
            ...(credit ? [] : [{ label: t('invoices.fields.due_at'), value: formatDate(inv.due_at) }]),
            { label: t('invoices.fields.client'), value: inv.client.name },
            { label: t('invoices.fields.campus'), value: inv.campus?.name },
            { label: t('invoices.fields.order_number'), value: inv.order_number },
            // Nobody pays a credit note: no reference to quote (as on its PDF).
            ...(credit
              ? []
              : [{ label: t('invoices.fields.payment_reference'), value: inv.payment_reference }]),
            {
              label: t('invoices.fields.payment_method'),
              value: t(`invoices.methods.${inv.payment_method}`),
            },
            ...(inv.credit_for
              ? [
                  {
                    label: t('invoices.fields.credit_for'),
                    value: (
                      <InvoiceLink
                        number={inv.credit_for.number ?? ''}
                        href={creditNoteHref(inv.credit_for.id)}
                        variant="value"
                      />
                    ),
                    testId: 'credit-for',
                  },
                ]
              : []),
          ]}
        />
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t('invoices.sections.bill_to')}>
          {inv.billing_address ? (
            <address className="text-sm not-italic text-slate-800" data-testid="billing-address">
              {[
                inv.billing_address.name,
                inv.billing_address.address,
                inv.billing_address.address2,
                [inv.billing_address.city, inv.billing_address.province, inv.billing_address.postal_code]
                  .filter(Boolean)
                  .join(', '),
                inv.billing_address.country,
              ]
                .filter(Boolean)
                .map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
            </address>
          ) : (
            <p className="text-sm text-slate-600" data-testid="billing-address">
              {t('invoices.no_billing_address')}
            </p>
          )}
        </Section>
        <Section title={t('invoices.sections.totals')}>
          <dl className="space-y-1 text-sm" data-testid="invoice-totals">
            {totals.map(([label, value, strong], n) => (
              <div
                key={n}
                className={`flex justify-between gap-4 ${strong ? 'border-t border-slate-200 pt-1 font-semibold' : ''}`}
              >
                <dt className="text-slate-600">{label}</dt>
                <dd className="whitespace-nowrap text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
          {inv.stamp_duty_not_refunded ? (
            <p className="mt-3 text-sm text-slate-700" data-testid="stamp-duty-not-refunded">
              {t('taxes.stamp_duty_not_refunded', {
                count: inv.stamp_duty_not_refunded.count,
                amount: money(inv.stamp_duty_not_refunded.amount_minor),
              })}
            </p>
          ) : null}
        </Section>
      </div>

      <Actions
        inv={inv}
        busy={busy}
        reasonErrors={reasonErrors}
        formError={answer?.error ? m(answer.error) : null}
      />

      <Section title={t('invoices.sections.items')}>
        <DataTable
          rows={inv.items}
          columns={columns}
          rowId={(r) => String(r.id)}
          meta={inv.meta}
          caption={t('invoices.sections.items')}
          empty={<p className="text-sm text-slate-600">{t('invoices.no_items')}</p>}
        />
      </Section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section title={t('invoices.sections.payments')}>
          {inv.transactions.length ? (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="invoice-payments">
              {inv.transactions.map((x) => (
                <li key={x.id} className="flex flex-wrap justify-between gap-2 py-2">
                  <span>
                    {formatDate(x.paid_on ?? String(x.created_at))} ·{' '}
                    {t(`invoices.transaction_kinds.${x.kind}`)} · {t(`invoices.gateways.${x.gateway}`)} ·{' '}
                    {t(`invoices.transaction_statuses.${x.status}`)}
                  </span>
                  <span className="flex items-center gap-3">
                    {x.receipt ? (
                      <a
                        href={to(`/invoices/${inv.id}/transactions/${x.id}/receipt`)}
                        className="text-primary-800 hover:underline"
                        download
                      >
                        {t('payments.list.receipt')}
                      </a>
                    ) : null}
                    {inv.can.edit_transactions && x.editable ? (
                      <Link
                        to={to(`/invoices/${inv.id}/transactions/${x.id}/edit`)}
                        className="text-primary-800 hover:underline"
                      >
                        {t('payments.list.edit')}
                      </Link>
                    ) : null}
                    <span className="font-medium">
                      {money(x.kind === 'refund' ? -x.amount_minor : x.amount_minor)}
                    </span>
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('invoices.sections.none_payments')}</p>
          )}
        </Section>
        <Section title={t('invoices.sections.credit_notes')}>
          {inv.credit_notes.length ? (
            <ul className="divide-y divide-slate-100 text-sm" data-testid="credit-notes">
              {inv.credit_notes.map((c) => (
                <li key={c.id} className="flex justify-between gap-2 py-2">
                  <InvoiceLink number={c.number ?? ''} href={creditNoteHref(c.id)} variant="value" />
                  <span>{formatDate(c.date)}</span>
                  <span className="font-medium">{formatMinor(c.total_minor, c.currency)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('invoices.sections.none_credit_notes')}</p>
          )}
        </Section>
      </div>
      {!credit ? (
        <Section title={t('invoices.sections.reminders')}>
          {inv.reminders.length ? (
            <ul className="divide-y divide-slate-100 text-sm">
              {inv.reminders.map((r, n) => (
                <li key={n} className="flex flex-wrap justify-between gap-2 py-2">
                  <span>
                    {r.kind === 'scheduled'
                      ? t('invoices.reminder_kinds.scheduled', { days: r.step_days })
                      : t('invoices.reminder_kinds.manual')}
                  </span>
                  <span>{r.recipient}</span>
                  <span>{formatDate(String(r.created_at))}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('invoices.sections.none_reminders')}</p>
          )}
        </Section>
      ) : null}
      {children}
    </div>
  );
}

/** What the reader may do: pay, record, remind, void, credit. */
function Actions({
  inv,
  busy,
  reasonErrors,
  formError,
}: {
  inv: InvoicePageData;
  busy: boolean;
  reasonErrors: (intent: string) => string[] | null;
  formError: string | null;
}) {
  const { t, i18n } = useTranslation();
  const to = (path: string) => localePath(i18n.language, path);
  const c = inv.can;
  const links = [
    c.pay
      ? {
          to: `/cart/checkout?invoice=${inv.id}&pay=card`,
          label: t('invoices.actions.pay_card'),
          primary: true,
        }
      : null,
    c.pay
      ? { to: `/payment/bank-transfer/pay-invoice/${inv.id}/start`, label: t('invoices.actions.pay_bank') }
      : null,
    c.record_payment
      ? { to: `/invoices/${inv.id}/record-payment`, label: t('invoices.actions.record_payment') }
      : null,
    c.record_refund
      ? { to: `/invoices/${inv.id}/record-refund`, label: t('invoices.actions.record_refund') }
      : null,
    c.approve_bank_transfer
      ? {
          to: `/invoices/${inv.id}/approve-bank-transfer`,
          label: t('invoices.actions.approve_bank_transfer'),
        }
      : null,
  ].filter((l): l is { to: string; label: string; primary?: boolean } => !!l);
  if (!links.length && !c.overdue_email && !c.void && !c.credit_note) return null;
  return (
    <Card>
      <div className="flex flex-wrap gap-3">
        {links.map((l) => (
          <ButtonLink key={l.to} to={to(l.to)} variant={l.primary ? 'primary' : 'secondary'}>
            {l.label}
          </ButtonLink>
        ))}
        {c.overdue_email ? (
          <AppForm method="post" action={to(`/invoices/${inv.id}/overdue-email`)}>
            <Button type="submit" variant="secondary" disabled={busy}>
              {t('invoices.actions.overdue_email')}
            </Button>
          </AppForm>
        ) : null}
      </div>
      {formError ? (
        <div className="mt-4">
          <Alert tone="error">{formError}</Alert>
        </div>
      ) : null}
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        {c.credit_note ? (
          <details
            className="rounded-lg ring-1 ring-slate-200"
            open={!!reasonErrors('credit_note') || undefined}
          >
            <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-primary-800">
              {t('invoices.actions.credit_note')}
            </summary>
            <AppForm method="post" id="credit-note-form" className="space-y-3 px-4 pb-4">
              <p className="text-sm text-slate-600">{t('invoices.actions.credit_intro')}</p>
              <FieldShell
                id="credit-reason"
                label={t('invoices.fields.reason')}
                errors={reasonErrors('credit_note')}
              >
                <TextArea id="credit-reason" name="reason" rows={2} maxLength={500} required />
              </FieldShell>
              <div className="flex flex-wrap gap-2">
                <Button type="submit" name="intent" value="credit_note" disabled={busy}>
                  {t('invoices.actions.credit_lines')}
                </Button>
                <Button
                  type="submit"
                  name="intent"
                  value="credit_note_whole"
                  variant="secondary"
                  disabled={busy}
                >
                  {t('invoices.actions.credit_whole')}
                </Button>
              </div>
            </AppForm>
          </details>
        ) : null}
        {c.void ? (
          <details className="rounded-lg ring-1 ring-slate-200" open={!!reasonErrors('void') || undefined}>
            <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-red-800">
              {t('invoices.actions.void_title')}
            </summary>
            <AppForm method="post" className="space-y-3 px-4 pb-4">
              <p className="text-sm text-slate-600">{t('invoices.actions.void_intro')}</p>
              <FieldShell id="void-reason" label={t('invoices.fields.reason')} errors={reasonErrors('void')}>
                <TextArea id="void-reason" name="reason" rows={2} maxLength={500} required />
              </FieldShell>
              <ConfirmButton
                name="intent"
                value="void"
                className={buttonClass('danger')}
                disabled={busy}
                question={t('invoices.actions.void_confirm', { number: inv.number ?? '' })}
              >
                {t('invoices.actions.void')}
              </ConfirmButton>
            </AppForm>
          </details>
        ) : null}
      </div>
    </Card>
  );
}
