/** Small pieces of the invoice pages: the status badges (payment status, due state, partly paid). */
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '~/components/ui/status-badge';

const PAYMENT_TONE = {
  paid: 'green',
  refunded: 'slate',
  void: 'slate',
  pending: 'blue',
  unpaid: 'amber',
} as const;
const DUE_TONE = { open: 'slate', due: 'amber', overdue: 'red' } as const;

export function InvoiceBadges({
  invoice,
}: {
  invoice: { status: string; due_state: string | null; partly_paid: boolean };
}) {
  const { t } = useTranslation();
  return (
    <span className="flex flex-wrap gap-1">
      <StatusBadge tone={PAYMENT_TONE[invoice.status as keyof typeof PAYMENT_TONE] ?? 'slate'}>
        {t(`invoices.statuses.${invoice.status}`)}
      </StatusBadge>
      {invoice.partly_paid ? (
        <StatusBadge tone="blue">{t('invoices.statuses.partly_paid')}</StatusBadge>
      ) : null}
      {invoice.due_state ? (
        <StatusBadge tone={DUE_TONE[invoice.due_state as keyof typeof DUE_TONE] ?? 'slate'}>
          {t(`invoices.statuses.${invoice.due_state}`)}
        </StatusBadge>
      ) : null}
    </span>
  );
}
