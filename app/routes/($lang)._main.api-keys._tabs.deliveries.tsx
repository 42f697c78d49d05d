/**
 * /api-keys/deliveries: the webhook delivery log, newest event first, filtered by status (and by
 * endpoint, from an endpoint's "Deliveries" link); each delivery opens its own page with every attempt.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { WEBHOOK_DELIVERY_STATUSES } from '../../drizzle/schema/partners-enums';
import { deliveryQuerySchema, idSchema } from '~/lib/schemas.server';
import { listWebhookDeliveries, redeliverWebhook } from '@server/domain/webhooks/log';
import { listWebhookEndpoints } from '@server/domain/webhooks/service';
import { formAction } from '~/lib/actions.server';
import { localePath } from '~/i18n/config';
import { AppForm } from '~/components/forms';
import { DataTable, type Column } from '~/components/ui/data-table';
import { FilterLinks } from '~/components/ui/list-controls';
import { useAnswerError } from '~/components/ui/snackbar';
import { AnswerExcerpt, DeliveryStatus, dateTime } from '~/components/api-keys/bits';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MANAGE_PARTNER_ACCESS,
    query: deliveryQuerySchema,
    async load({ ctx, query }) {
      const [deliveries, endpoints] = await Promise.all([
        listWebhookDeliveries(ctx, query),
        query.endpoint_id ? listWebhookEndpoints(ctx) : Promise.resolve([]),
      ]);
      return json({
        deliveries,
        filtered: Boolean(query.status || query.endpoint_id),
        endpoint: endpoints.find((e) => e.id === query.endpoint_id)?.url ?? query.endpoint_id ?? null,
      });
    },
  })(args);

/** Redeliver a webhook. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: idSchema,
    permission: MANAGE_PARTNER_ACCESS,
    async handle(input, { ctx }) {
      await redeliverWebhook(ctx, input.id);
      return { toast: 'webhooks.redelivered' };
    },
  })(args);

type DeliveryRow = ReturnType<typeof useLoaderData<typeof loader>>['deliveries']['items'][number];

export default function DeliveriesTab() {
  const { t, i18n } = useTranslation();
  const { deliveries, filtered, endpoint } = useLoaderData<typeof loader>();
  useAnswerError(useActionData<typeof action>());
  const busy = useNavigation().state === 'submitting';
  const base = localePath(i18n.language, '/api-keys/deliveries');

  const columns: Column<DeliveryRow>[] = [
    {
      key: 'event',
      card: 'title',
      header: t('webhooks.fields.event'),
      render: (r) => (
        <div>
          <Link
            to={`${base}/${r.id}`}
            className="text-sm font-medium text-primary-800 hover:underline"
            aria-label={t('webhooks.open_delivery', { event: r.event_type, id: r.id })}
          >
            <code>{r.event_type}</code>
          </Link>
          <div className="max-w-56 truncate text-xs text-slate-600" title={r.endpoint_url}>
            {r.endpoint_url}
          </div>
        </div>
      ),
    },
    {
      key: 'happened',
      card: 'figure',
      header: t('webhooks.fields.happened'),
      render: (r) => <span className="whitespace-nowrap">{dateTime(r.created_at)}</span>,
    },
    {
      key: 'status',
      card: 'status',
      header: t('webhooks.fields.status'),
      render: (r) => (
        <div className="whitespace-nowrap">
          <DeliveryStatus status={r.status} />
          <div className="mt-1 text-xs text-slate-600">{t('webhooks.attempts', { count: r.attempts })}</div>
        </div>
      ),
    },
    {
      key: 'answer',
      card: 'figure',
      header: t('webhooks.fields.answer'),
      render: (r) =>
        r.attempts ? (
          <AnswerExcerpt status={r.response_status} excerpt={r.response_excerpt} error={r.last_error} />
        ) : (
          '—'
        ),
    },
    {
      key: 'when',
      card: 'hidden',
      header: t('webhooks.fields.last_attempt'),
      render: (r) => (
        <div className="whitespace-nowrap">
          <div>{dateTime(r.last_attempt_at)}</div>
          {r.status === 'pending' && r.next_attempt_at ? (
            <div className="text-xs text-slate-600">
              {t('webhooks.next_attempt', { when: dateTime(r.next_attempt_at, true) })}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('api_keys.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <AppForm method="post" preventScrollReset>
          <input type="hidden" name="id" value={r.id} />
          <button
            type="submit"
            disabled={busy}
            className="font-medium text-primary-800 hover:underline"
            aria-label={t('webhooks.redeliver_named', { event: r.event_type, id: r.id })}
          >
            {t('webhooks.redeliver')}
          </button>
        </AppForm>
      ),
    },
  ];

  return (
    <>
      {endpoint ? (
        <p className="mb-3 text-sm text-slate-700" data-testid="log-endpoint">
          {t('webhooks.log_of', { url: endpoint })}{' '}
          <Link to={base} className="font-medium text-primary-800 hover:underline">
            {t('webhooks.log_every_endpoint')}
          </Link>
        </p>
      ) : null}
      <FilterLinks
        name="status"
        label={t('webhooks.log_filter')}
        any={t('webhooks.log_all')}
        options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`webhooks.statuses.${s}`) }))}
      />
      <DataTable
        rows={deliveries.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={deliveries.meta}
        caption={t('webhooks.log_title')}
        empty={<span>{t(filtered ? 'webhooks.log_empty_filtered' : 'webhooks.log_empty')}</span>}
      />
    </>
  );
}
