/**
 * The generate-invoices page (spec 000 s.2), for a client or one of its campuses: the period and group
 * filters, the preview of the invoices the client's invoice rule makes (one row each), and Confirm, which
 * issues them. Loader and action: app/lib/generate-invoices.server.ts.
 */
import { useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { InvoicePreview, PlannedInvoice } from '@server/domain/invoices/periodic';
import type { ListMeta } from '@server/domain/list-query';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import { EmptyState, FilterDate, FiltersBar, FilterSearch } from '~/components/ui/list-controls';
import { Facts } from '~/components/ui/facts';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';

export function GenerateInvoicesPage({
  preview,
  meta,
  invalid,
}: {
  preview: InvoicePreview;
  meta: ListMeta;
  invalid: boolean;
}) {
  const { t, i18n } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  const rows = preview.invoices;
  const money = (minor: number, currency: string) => formatMinor(minor, currency);
  const columns: Column<PlannedInvoice>[] = [
    {
      key: 'billed',
      card: 'title',
      header: t('taxes.generate.columns.invoice'),
      render: (r) => (
        <span className="font-medium text-slate-900">
          {r.group_name ??
            (preview.invoice_rule === 'by_group' ? t('taxes.generate.no_group') : r.campus?.name)}
        </span>
      ),
    },
    {
      key: 'policies',
      card: 'figure',
      header: t('taxes.generate.columns.policies'),
      render: (r) => r.policies,
      className: 'text-right',
    },
    {
      key: 'premium',
      card: 'hidden',
      header: t('taxes.generate.columns.premium'),
      render: (r) => money(r.insurance_cost_minor, r.currency),
      className: 'text-right tabular-nums',
    },
    {
      key: 'tax',
      card: 'figure',
      header: t('taxes.generate.columns.tax'),
      render: (r) => money(r.tax_minor + r.stamp_duty_minor, r.currency),
      className: 'text-right tabular-nums',
    },
    {
      key: 'total',
      card: 'figure',
      header: t('taxes.generate.columns.total'),
      render: (r) => <span className="font-semibold">{money(r.total_minor, r.currency)}</span>,
      className: 'text-right tabular-nums',
    },
  ];
  const count = rows.length;
  const back = preview.campus
    ? `/clients/${preview.client.id}/campuses/${preview.campus.id}`
    : `/clients/${preview.client.id}`;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={t('taxes.generate.title')}
        description={
          preview.campus
            ? t('taxes.generate.intro_campus', { campus: preview.campus.name, client: preview.client.name })
            : t('taxes.generate.intro', { client: preview.client.name })
        }
        actions={
          <ButtonLink variant="secondary" to={localePath(i18n.language, back)}>
            {preview.campus ? t('taxes.generate.back_campus') : t('taxes.generate.back')}
          </ButtonLink>
        }
      />
      <Card>
        <Facts
          items={[
            {
              label: t('taxes.generate.terms'),
              value: t(`taxes.generate.payment_terms.${preview.client.payment_terms}`),
            },
            { label: t('taxes.generate.rule'), value: t(`taxes.generate.rules.${preview.invoice_rule}`) },
            {
              label: t('taxes.generate.period'),
              value: `${britishDate(preview.from)} – ${britishDate(preview.to)}`,
            },
            { label: t('taxes.generate.due_at'), value: britishDate(preview.due_at) },
          ]}
        />
      </Card>
      <FiltersBar>
        <FilterDate name="from" label={t('taxes.generate.from')} />
        <FilterDate name="to" label={t('taxes.generate.to')} />
        <FilterSearch name="group" label={t('taxes.generate.group')} />
      </FiltersBar>
      {invalid ? <Alert>{t('taxes.generate.invalid')}</Alert> : null}
      <Card flush>
        <DataTable
          rows={rows}
          columns={columns}
          rowId={(r) => r.key}
          meta={meta}
          caption={t('taxes.generate.caption')}
          empty={<EmptyState message={t('taxes.generate.empty')} />}
        />
      </Card>
      {count ? (
        <AppForm method="post" className="flex flex-wrap items-center justify-between gap-4">
          <input type="hidden" name="from" value={preview.from} />
          <input type="hidden" name="to" value={preview.to} />
          {preview.group ? <input type="hidden" name="group" value={preview.group} /> : null}
          <p className="text-sm text-slate-700">{t('taxes.generate.confirm_hint', { count })}</p>
          <Button type="submit" disabled={busy}>
            {t('taxes.generate.confirm', { count })}
          </Button>
        </AppForm>
      ) : null}
    </div>
  );
}
