/** Small pieces of the bank reconciliation pages: status badges and where a statement opens. */
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '~/components/ui/status-badge';

type StatementStatus = 'mapping' | 'matching' | 'review' | 'confirmed' | 'failed';
type LineStatus = 'unmatched' | 'matched' | 'allocated' | 'ignored' | 'recorded';

const STATEMENT_TONES = {
  mapping: 'amber',
  matching: 'blue',
  review: 'blue',
  confirmed: 'green',
  failed: 'red',
} as const;

const LINE_TONES = {
  unmatched: 'amber',
  matched: 'blue',
  allocated: 'blue',
  ignored: 'slate',
  recorded: 'green',
} as const;

export function StatementStatusBadge({ status }: { status: StatementStatus }) {
  const { t } = useTranslation();
  return <StatusBadge tone={STATEMENT_TONES[status]}>{t(`reconciliation.statuses.${status}`)}</StatusBadge>;
}

export function LineStatusBadge({ status }: { status: LineStatus }) {
  const { t } = useTranslation();
  return <StatusBadge tone={LINE_TONES[status]}>{t(`reconciliation.line_statuses.${status}`)}</StatusBadge>;
}

/** A statement opens on its column matching until its credits are read, then on its review. */
export function statementHref(s: { id: string; status: StatementStatus }): string {
  return s.status === 'mapping'
    ? `/invoices/reconciliation/${s.id}/match-columns`
    : `/invoices/reconciliation/${s.id}`;
}

/** The file formats by their own names (the same in every language). */
export const FORMAT_NAMES = { csv: 'CSV', camt053: 'camt.053' } as const;
