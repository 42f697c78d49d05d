/** A client's logs tab: every change of the client, who made it and what changed. */
import { json, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { clientActivities } from '@server/domain/clients/notes';
import { requireClientTab } from '~/lib/clients.server';
import { ActivityLog } from '~/components/activity/activity-log';
import { pageLoader } from '~/lib/loaders.server';
import { idSchema } from '~/lib/schemas.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    params: idSchema,
    async load({ ctx, request, params }) {
      requireClientTab(ctx, 'logs');
      const page = Number(new URL(request.url).searchParams.get('page')) || 1;
      return json({ logs: await clientActivities(ctx, params.id, page) });
    },
  })(args);

/** Enum values of the client's log rows in words ("invoiced_directly" → "Invoiced directly"). */
const VALUE_LABELS: Record<string, string> = {
  type: 'clients.types',
  status: 'clients.statuses',
  payment_terms: 'clients.payment_terms',
  payment_method: 'clients.payment_methods',
  payment_frequency: 'clients.payment_frequencies',
  invoice_rule: 'clients.invoice_rules',
  preferred_lang: 'clients.languages',
  note_type: 'notes.types',
  note_source: 'notes.sources',
  fact_find_typical_trip_length: 'clients.fact_find.options',
  fact_find_renewal_month: 'clients.fact_find.options',
  fact_find_group_trips_abroad: 'clients.fact_find.options',
};

export default function ClientLogsTab() {
  const { t } = useTranslation();
  const { logs } = useLoaderData<typeof loader>();
  const clientValue = (field: string, value: unknown) =>
    VALUE_LABELS[field] && typeof value === 'string'
      ? t(`${VALUE_LABELS[field]}.${value}`, { defaultValue: value })
      : undefined;
  return <ActivityLog rows={logs.items} meta={logs.meta} formatValue={clientValue} />;
}
