/**
 * An invoice's state as a person reads it: one badge (unpaid, part paid, payment pending, paid,
 * refunded, void, or a credit note), and how it stands against its due date as a note beside it
 * ("Overdue by 12 days", "Due 3 Dec 2026"), never a second badge that seems to contradict the first.
 */
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '~/components/ui/status-badge';
import { formatDate } from '~/lib/dates';

type Tone = Parameters<typeof StatusBadge>[0]['tone'];

interface InvoiceStateFields {
  type: string;
  status: string;
  due_state: string | null;
  due_at: string;
  days_overdue: number;
  partly_paid: boolean;
}

/** The one badge of an invoice: its label key and tone. */
function badgeOf(i: InvoiceStateFields): [key: string, tone: Tone] {
  if (i.type === 'credit_note') return ['invoices.types.credit_note', 'slate'];
  if (i.status === 'void') return ['invoices.statuses.void', 'slate'];
  if (i.status === 'refunded') return ['invoices.statuses.refunded', 'slate'];
  if (i.status === 'paid') return ['invoices.statuses.paid', 'green'];
  if (i.status === 'pending') return ['invoices.statuses.pending', 'blue'];
  if (i.partly_paid) return ['invoices.statuses.partly_paid', 'blue'];
  return ['invoices.statuses.unpaid', i.due_state === 'overdue' ? 'red' : 'amber'];
}

export function InvoiceState({ invoice }: { invoice: InvoiceStateFields }) {
  const { t } = useTranslation();
  const [key, tone] = badgeOf(invoice);
  const note =
    invoice.due_state === 'overdue'
      ? t('invoices.due_note.overdue', { count: invoice.days_overdue })
      : invoice.due_state === 'due'
        ? t('invoices.due_note.due', { date: formatDate(invoice.due_at) })
        : null;
  return (
    <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
      <StatusBadge tone={tone}>{t(key)}</StatusBadge>
      {note ? (
        <span
          className={`whitespace-nowrap text-xs ${invoice.due_state === 'overdue' ? 'font-medium text-red-700' : 'text-slate-600'}`}
        >
          {note}
        </span>
      ) : null}
    </span>
  );
}
