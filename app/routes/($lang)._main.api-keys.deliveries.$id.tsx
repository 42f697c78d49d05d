/**
 * /api-keys/deliveries/{id}: one webhook delivery: when its event happened, where it stands, the body
 * sent, and every attempt (when, the answer code, the start of the answer or the error, how long it
 * took); Redeliver.
 */
import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { getWebhookDelivery, redeliverWebhook } from '@server/domain/webhooks/log';
import { emptySchema, idSchema } from '~/lib/schemas.server';
import { pageLoader } from '~/lib/loaders.server';
import { formAction } from '~/lib/actions.server';
import { pageTitle } from '~/lib/meta';
import { HTML_LANG, localePath, type Language } from '~/i18n/config';
import { AppForm } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { Facts } from '~/components/ui/facts';
import { useAnswerError } from '~/components/ui/snackbar';
import { AnswerExcerpt, DeliveryStatus, dateTime } from '~/components/api-keys/bits';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MANAGE_PARTNER_ACCESS,
    params: idSchema,
    async load({ ctx, request, context, params }) {
      return json({
        delivery: await getWebhookDelivery(ctx, params.id),
        title: pageTitle(context, request, 'webhooks.delivery_title'),
      });
    },
  })(args);

/** Redeliver this delivery. */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: emptySchema,
    permission: MANAGE_PARTNER_ACCESS,
    params: idSchema,
    async handle(_input, { ctx, params }) {
      await redeliverWebhook(ctx, params.id);
      return { toast: 'webhooks.redelivered' };
    },
  })(args);

type Attempt = ReturnType<typeof useLoaderData<typeof loader>>['delivery']['attempt_log'][number];

/** The body as sent, laid out for reading (the bytes sent are the API's `payload`). */
function readable(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    return payload;
  }
}

export default function DeliveryPage() {
  const { t, i18n } = useTranslation();
  const { delivery: d } = useLoaderData<typeof loader>();
  useAnswerError(useActionData<typeof action>());
  const busy = useNavigation().state === 'submitting';
  // "120 ms" as the language writes a duration (the unit's symbol comes from the browser's locale data).
  const milliseconds = new Intl.NumberFormat(HTML_LANG[i18n.language as Language] ?? 'en-GB', {
    style: 'unit',
    unit: 'millisecond',
  });
  const columns: Column<Attempt>[] = [
    { key: 'number', header: '#', render: (a) => a.number },
    {
      key: 'time',
      header: t('webhooks.fields.attempted_at'),
      render: (a) => <span className="whitespace-nowrap">{dateTime(a.attempted_at, true)}</span>,
    },
    {
      key: 'answer',
      header: t('webhooks.fields.answer'),
      render: (a) => (
        <AnswerExcerpt status={a.response_status} excerpt={a.response_excerpt} error={a.error} wide />
      ),
    },
    {
      key: 'duration',
      header: t('webhooks.fields.duration'),
      className: 'text-right',
      render: (a) => (
        <span className="whitespace-nowrap">
          {a.duration_ms === null ? '—' : milliseconds.format(a.duration_ms)}
        </span>
      ),
    },
  ];
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            <code>{d.event_type}</code>
            <DeliveryStatus status={d.status} />
          </span>
        }
        description={t('webhooks.delivery_title')}
        actions={
          <>
            <ButtonLink to={localePath(i18n.language, '/api-keys/deliveries')} variant="secondary">
              {t('webhooks.back_to_log')}
            </ButtonLink>
            {d.can_redeliver ? (
              <AppForm method="post" preventScrollReset>
                <Button type="submit" disabled={busy}>
                  {t('webhooks.redeliver')}
                </Button>
              </AppForm>
            ) : null}
          </>
        }
      />
      <Card className="mb-6">
        <Facts
          items={[
            { label: t('webhooks.fields.happened'), value: dateTime(d.created_at, true), testId: 'happened' },
            {
              label: t('webhooks.fields.endpoint'),
              value: <span className="break-all">{d.endpoint_url}</span>,
            },
            { label: t('webhooks.fields.webhook_id'), value: <code className="break-all">{d.id}</code> },
            { label: t('webhooks.fields.attempt_count'), value: String(d.attempts) },
            { label: t('webhooks.fields.last_attempt'), value: dateTime(d.last_attempt_at, true) },
            {
              label: t('webhooks.fields.next_attempt'),
              value: d.status === 'pending' ? dateTime(d.next_attempt_at, true) : null,
            },
          ]}
        />
      </Card>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('webhooks.attempts_title')}</h2>
      <p className="mb-3 text-sm text-slate-600">{t('webhooks.attempts_intro')}</p>
      <div className="mb-6">
        <DataTable
          rows={d.attempt_log}
          columns={columns}
          rowId={(a) => String(a.number)}
          caption={t('webhooks.attempts_title')}
          empty={<span>{t('webhooks.no_attempts')}</span>}
        />
      </div>
      <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('webhooks.payload_title')}</h2>
      <pre
        tabIndex={0}
        aria-label={t('webhooks.payload_title')}
        className="overflow-x-auto rounded-lg border border-slate-200 bg-white p-4 text-xs text-slate-800"
      >
        {readable(d.payload)}
      </pre>
    </div>
  );
}
