/**
 * /clients/{id}/generate-invoices: finance invoices a client's policies on account (periodic terms) on
 * demand. The filters (from, to, group; by default the current period of the client's terms) preview
 * what will be invoiced, one row per invoice the client's invoice rule makes; Confirm issues them
 * (clients/{id}/generate-invoices), once: what is invoiced leaves the preview. The daily task does the
 * same for every period that has ended.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { findClient } from '@server/domain/access/finders';
import {
  GENERATE_PERMISSION,
  generateInvoices,
  isPeriodic,
  periodOf,
  previewInvoices,
  type PlannedInvoice,
} from '@server/domain/invoices/periodic';
import { generateInvoicesSchema } from '~/lib/schemas.server';
import { todayIso } from '@server/domain/formats';
import { formAction } from '~/lib/actions.server';
import { orNotFound, requirePermissions } from '~/lib/guards.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/fields';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { Button, ButtonLink } from '~/components/ui/button';
import { DataTable, type Column } from '~/components/ui/data-table';
import { EmptyState, FilterDate, FiltersBar, FilterSearch } from '~/components/ui/list-controls';
import { Facts } from '~/components/ui/facts';
import { formatMinor } from '~/lib/money';
import { britishDate } from '~/lib/dates';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, GENERATE_PERMISSION);
  const client = await orNotFound(findClient(ctx, params.id ?? '', GENERATE_PERMISSION));
  const url = new URL(request.url);
  const today = todayIso(ctx.now);
  const period = isPeriodic(client.payment_terms)
    ? periodOf(client.payment_terms, today)
    : { from: `${today.slice(0, 8)}01`, to: today };
  // The period in the address, so the filters show it and a reload keeps it.
  if (!url.searchParams.get('from') || !url.searchParams.get('to')) {
    url.searchParams.set('from', url.searchParams.get('from') || period.from);
    url.searchParams.set('to', url.searchParams.get('to') || period.to);
    throw redirect(`${url.pathname}?${url.searchParams}`);
  }
  const parsed = generateInvoicesSchema.safeParse({
    from: url.searchParams.get('from') || period.from,
    to: url.searchParams.get('to') || period.to,
    group: url.searchParams.get('group') ?? undefined,
  });
  const input = parsed.success ? parsed.data : { from: period.from, to: period.to };
  const preview = await orNotFound(previewInvoices(ctx, { client: client.public_id }, input));
  return json({
    preview,
    invalid: !parsed.success,
    title: pageTitle(context, request, 'taxes.generate.title'),
  });
}

export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: generateInvoicesSchema,
    permission: GENERATE_PERMISSION,
    async handle(input, { ctx, params, redirect }) {
      const { invoices } = await generateInvoices(ctx, { client: params.id ?? '' }, input);
      const query = new URLSearchParams({
        from: input.from,
        to: input.to,
        ...(input.group ? { group: input.group } : {}),
      });
      return redirect(
        `/clients/${params.id}/generate-invoices?${query}`,
        invoices.length ? 'taxes.generate.issued' : 'taxes.generate.nothing_issued',
      );
    },
  })(args);

export default function GenerateInvoices() {
  const { t, i18n } = useTranslation();
  const { preview, invalid } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const rows = preview.invoices;
  const money = (minor: number, currency: string) => formatMinor(minor, currency);
  const columns: Column<PlannedInvoice>[] = [
    {
      key: 'billed',
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
      header: t('taxes.generate.columns.policies'),
      render: (r) => r.policies,
      className: 'text-right',
    },
    {
      key: 'premium',
      header: t('taxes.generate.columns.premium'),
      render: (r) => money(r.insurance_cost_minor, r.currency),
      className: 'text-right tabular-nums',
    },
    {
      key: 'tax',
      header: t('taxes.generate.columns.tax'),
      render: (r) => money(r.tax_minor + r.stamp_duty_minor, r.currency),
      className: 'text-right tabular-nums',
    },
    {
      key: 'total',
      header: t('taxes.generate.columns.total'),
      render: (r) => <span className="font-semibold">{money(r.total_minor, r.currency)}</span>,
      className: 'text-right tabular-nums',
    },
  ];
  const count = rows.length;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={t('taxes.generate.title')}
        description={t('taxes.generate.intro', { client: preview.client.name })}
        actions={
          <ButtonLink variant="secondary" to={localePath(i18n.language, `/clients/${preview.client.id}`)}>
            {t('taxes.generate.back')}
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
          meta={{
            from: count ? 1 : 0,
            to: count,
            per_page: Math.max(count, 1),
            total: count,
            current_page: 1,
            last_page: 1,
          }}
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
