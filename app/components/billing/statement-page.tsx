import { useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { StatementPageData } from '~/lib/billing.server';
import { Alert, PageHeader } from '~/components/ui/card';
import { buttonClass } from '~/components/ui/button';
import { FilterDate, FilterSelect, FiltersBar } from '~/components/ui/list-controls';
import { formatDate } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { StatementView } from './statement-view';

/**
 * A statement of account page: the period (from, to; for a school user also the campus) as a GET form,
 * the downloads (PDF, Excel) of what is shown, and the statement.
 */
export function StatementPage({
  statement,
  error,
  campuses,
}: {
  statement: StatementPageData;
  error: string | null;
  campuses: { id: string; name: string }[];
}) {
  const { t } = useTranslation();
  const m = useMessage();
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const kept = new URLSearchParams();
  for (const k of ['from', 'to', 'campus']) if (params.get(k)) kept.set(k, params.get(k)!);
  const download = (format: 'pdf' | 'xlsx') =>
    `${location.pathname.replace(/\/$/, '')}/download?${new URLSearchParams({ format, ...Object.fromEntries(kept) })}`;
  const who = [statement.client.name, statement.campus?.name].filter(Boolean).join(' — ');
  return (
    <div>
      <PageHeader
        title={t('billing.statement.title')}
        description={`${who} · ${t('billing.statement.period', { from: formatDate(statement.from), to: formatDate(statement.to) })}`}
        actions={
          <>
            <a href={download('pdf')} className={buttonClass('secondary')} download>
              {t('billing.statement.download_pdf')}
            </a>
            <a href={download('xlsx')} className={buttonClass('secondary')} download>
              {t('billing.statement.download_xlsx')}
            </a>
          </>
        }
      />
      {error ? (
        <div className="mb-4">
          <Alert>{m(error)}</Alert>
        </div>
      ) : null}
      <FiltersBar>
        <FilterDate name="from" label={t('billing.statement.from')} />
        <FilterDate name="to" label={t('billing.statement.to')} />
        {campuses.length ? (
          <FilterSelect
            name="campus"
            label={t('billing.statement.campus')}
            any={t('billing.statement.whole_client')}
            options={campuses.map((c) => ({ value: c.id, label: c.name }))}
          />
        ) : null}
      </FiltersBar>
      <StatementView statement={statement} />
    </div>
  );
}
