/**
 * A product's status and a price's period as badges: kept apart from the product's form fields, so the
 * products list does not load the form kit (Conform) with them.
 */
import { useTranslation } from 'react-i18next';
import type { PricePeriod } from '@server/domain/products/schema';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';

export function ProductStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return <StatusBadge tone={statusTone(status)}>{t(`products.statuses.${status}`)}</StatusBadge>;
}

const PERIOD_TONES: Record<PricePeriod, 'green' | 'slate' | 'amber' | 'blue'> = {
  current: 'green',
  default: 'blue',
  future: 'amber',
  expired: 'slate',
};

export function PeriodBadge({ period }: { period: PricePeriod }) {
  const { t } = useTranslation();
  return <StatusBadge tone={PERIOD_TONES[period]}>{t(`products.periods.${period}`)}</StatusBadge>;
}
