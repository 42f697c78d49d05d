import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_GROUPS } from '@server/domain/access/permissions';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { permissionVerb } from '@server/domain/roles/verbs';
import { seesAllCampuses, visibleCompanies } from '@server/domain/access/scope';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from '../../drizzle/schema/partners-enums';
import { britishDate } from '@server/domain/formats';
import {
  apiKeyListQuerySchema,
  constraintsOf,
  deliveryQuerySchema,
  generateApiKeySchema,
  idSchema,
  webhookEndpointSchema,
} from '~/lib/schemas.server';
import {
  generateApiKey,
  grantablePermissions,
  keyCampusOptions,
  listApiKeys,
  revokeApiKey,
} from '@server/domain/api-keys/service';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
} from '@server/domain/webhooks/service';
import { requirePermissions } from '~/lib/guards.server';
import { intentAction, unreachable } from '~/lib/actions';
import { queryOf } from '~/lib/lists.server';
import { pageTitle } from '~/lib/meta';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm, ErrorList, Field, FormErrors, Input, Label, Select } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { FilterLinks } from '~/components/ui/list-controls';
import { StatusBadge } from '~/components/ui/status-badge';
import { useAnswerError } from '~/components/ui/snackbar';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, MANAGE_PARTNER_ACCESS);
  const query = apiKeyListQuerySchema.parse(queryOf(request));
  // The delivery log is the page's second list: its own page and status, under `log_*` names.
  const address = new URL(request.url).searchParams;
  const log = deliveryQuerySchema.parse({
    page: address.get('log_page') ?? undefined,
    status: address.get('log_status') ?? undefined,
  });
  const [keys, endpoints, deliveries, campuses] = await Promise.all([
    listApiKeys(ctx, query),
    listWebhookEndpoints(ctx),
    listWebhookDeliveries(ctx, log),
    keyCampusOptions(ctx),
  ]);
  const held = new Set(grantablePermissions(ctx.actor));
  const groups = Object.entries(PERMISSION_GROUPS)
    .map(([group, names]) => ({ group, names: (names as readonly string[]).filter((p) => held.has(p)) }))
    .filter((g) => g.names.length);
  return json({
    keys,
    endpoints,
    deliveries,
    logFiltered: Boolean(log.status),
    constraints: { key: constraintsOf(generateApiKeySchema), webhook: constraintsOf(webhookEndpointSchema) },
    groups,
    campuses,
    campusRequired: ctx.actor.user_type === 'school' && !seesAllCampuses(ctx.actor),
    companies:
      ctx.actor.user_type === 'company'
        ? visibleCompanies(ctx.actor).map((c) => ({ value: c.public_id, label: c.name }))
        : [],
    title: pageTitle(context, request, 'api_keys.title'),
  });
}

/** Generate and revoke keys; add and remove webhook endpoints; redeliver a webhook. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      generate: { schema: generateApiKeySchema, permission: MANAGE_PARTNER_ACCESS },
      revoke: { schema: idSchema, permission: MANAGE_PARTNER_ACCESS },
      add_webhook: { schema: webhookEndpointSchema, permission: MANAGE_PARTNER_ACCESS },
      delete_webhook: { schema: idSchema, permission: MANAGE_PARTNER_ACCESS },
      redeliver: { schema: idSchema, permission: MANAGE_PARTNER_ACCESS },
    },
    async handle(input, { ctx }) {
      switch (input.intent) {
        case 'generate': {
          const { key, api_key } = await generateApiKey(ctx, input);
          // Shown once, in this answer only: the page never reads it again.
          return { toast: 'api_keys.generated', data: { key, name: api_key.name } };
        }
        case 'revoke':
          await revokeApiKey(ctx, input.id);
          return { toast: 'api_keys.revoked' };
        case 'add_webhook':
          await createWebhookEndpoint(ctx, input);
          return { toast: 'webhooks.created' };
        case 'delete_webhook':
          await deleteWebhookEndpoint(ctx, input.id);
          return { toast: 'webhooks.deleted' };
        case 'redeliver':
          await redeliverWebhook(ctx, input.id);
          return { toast: 'webhooks.redelivered' };
        default:
          return unreachable(input);
      }
    },
  })(args);

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type KeyRow = Data['keys']['items'][number];
type DeliveryRow = Data['deliveries']['items'][number];

const stateTone = { active: 'green', expired: 'amber', revoked: 'slate' } as const;
const deliveryTone = { delivered: 'green', pending: 'amber', failed: 'red' } as const;

function dateTime(iso: string | null): string {
  if (!iso) return '—';
  return `${britishDate(iso.slice(0, 10))} ${iso.slice(11, 16)}`;
}

export default function ApiKeys() {
  const { t } = useTranslation();
  const { keys, endpoints, deliveries, logFiltered } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useAnswerError(answer);
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const generated =
    answer?.ok && answer.intent === 'generate' ? (answer.data as { key: string; name: string }) : null;

  const keyColumns: Column<KeyRow>[] = [
    {
      key: 'name',
      header: t('api_keys.fields.name'),
      render: (r) => (
        <div>
          <div className="font-medium text-slate-900">{r.name}</div>
          <code className="text-xs text-slate-600">{r.display}</code>
        </div>
      ),
    },
    {
      key: 'scope',
      header: t('api_keys.fields.scope'),
      render: (r) => (
        <div className="min-w-40">
          <div>{r.campus ?? r.client ?? r.company}</div>
          <div className="text-xs text-slate-600">
            {t('api_keys.permission_count', { count: r.permissions.length })}
          </div>
        </div>
      ),
    },
    {
      key: 'created',
      header: t('api_keys.fields.created'),
      render: (r) => (
        <div className="whitespace-nowrap">
          <div>{dateTime(r.created_at)}</div>
          <div className="text-xs text-slate-600">{r.created_by}</div>
        </div>
      ),
    },
    {
      key: 'last_used',
      header: t('api_keys.fields.last_used'),
      render: (r) => (
        <span className="whitespace-nowrap">
          {r.last_used_at ? dateTime(r.last_used_at) : t('api_keys.never')}
        </span>
      ),
    },
    {
      key: 'expires',
      header: t('api_keys.fields.expires'),
      render: (r) => (
        <span className="whitespace-nowrap">
          {r.expires_at ? britishDate(r.expires_at.slice(0, 10)) : t('api_keys.no_expiry')}
        </span>
      ),
    },
    {
      key: 'state',
      header: t('api_keys.fields.state'),
      render: (r) => <StatusBadge tone={stateTone[r.state]}>{t(`api_keys.states.${r.state}`)}</StatusBadge>,
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('api_keys.actions')}</span>,
      className: 'text-right',
      render: (r) =>
        r.state === 'revoked' ? null : (
          <AppForm
            method="post"
            preventScrollReset
            onSubmit={(e) => {
              if (!window.confirm(t('api_keys.revoke_confirm', { name: r.name }))) e.preventDefault();
            }}
          >
            <input type="hidden" name="id" value={r.id} />
            <button
              type="submit"
              name="intent"
              value="revoke"
              disabled={busy}
              className="font-medium text-red-700 hover:underline"
              aria-label={t('api_keys.revoke_named', { name: r.name })}
            >
              {t('api_keys.revoke')}
            </button>
          </AppForm>
        ),
    },
  ];

  const deliveryColumns: Column<DeliveryRow>[] = [
    {
      key: 'event',
      header: t('webhooks.fields.event'),
      render: (r) => (
        <div>
          <code className="text-sm font-medium text-slate-900">{r.event_type}</code>
          <div className="max-w-56 truncate text-xs text-slate-600" title={r.endpoint_url}>
            {r.endpoint_url}
          </div>
        </div>
      ),
    },
    {
      key: 'status',
      header: t('webhooks.fields.status'),
      render: (r) => (
        <div className="whitespace-nowrap">
          <StatusBadge tone={deliveryTone[r.status]}>{t(`webhooks.statuses.${r.status}`)}</StatusBadge>
          <div className="mt-1 text-xs text-slate-600">{t('webhooks.attempts', { count: r.attempts })}</div>
        </div>
      ),
    },
    {
      key: 'answer',
      header: t('webhooks.fields.answer'),
      render: (r) => (
        <div className="max-w-72">
          <div className="font-medium">{r.response_status ?? '—'}</div>
          {r.response_excerpt || r.last_error ? (
            <div className="truncate text-xs text-slate-600" title={r.response_excerpt ?? r.last_error ?? ''}>
              {r.response_excerpt || r.last_error}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'when',
      header: t('webhooks.fields.when'),
      render: (r) => (
        <div className="whitespace-nowrap">
          <div>{dateTime(r.last_attempt_at ?? r.created_at)}</div>
          {r.status === 'pending' && r.next_attempt_at ? (
            <div className="text-xs text-slate-600">
              {t('webhooks.next_attempt', { when: dateTime(r.next_attempt_at) })}
            </div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('api_keys.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <AppForm method="post" preventScrollReset>
          <input type="hidden" name="id" value={r.id} />
          <button
            type="submit"
            name="intent"
            value="redeliver"
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
    <div className="mx-auto max-w-7xl">
      <PageHeader title={t('api_keys.title')} description={t('api_keys.intro')} />

      {generated ? (
        <div className="mb-6" data-testid="new-api-key">
          <Alert tone="success">
            <p className="font-semibold">{t('api_keys.shown_once', { name: generated.name })}</p>
            <label htmlFor="new-key" className="mt-2 block text-sm">
              {t('api_keys.your_key')}
            </label>
            <Input id="new-key" readOnly value={generated.key} className="mt-1 font-mono" />
          </Alert>
        </div>
      ) : null}

      <Card className="mb-6">
        <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('api_keys.generate_title')}</h2>
        <GenerateKeyForm key={location.key} answer={answer} busy={busy} />
      </Card>

      <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('api_keys.list_title')}</h2>
      <div className="mb-10">
        <DataTable
          rows={keys.items}
          columns={keyColumns}
          rowId={(r) => r.id}
          meta={keys.meta}
          caption={t('api_keys.list_title')}
          empty={<span>{t('api_keys.empty')}</span>}
        />
      </div>

      <section aria-labelledby="webhooks-title" className="mb-6">
        <h2 id="webhooks-title" className="text-xl font-bold tracking-tight text-slate-900">
          {t('webhooks.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('webhooks.intro')}</p>
      </section>
      <div className="mb-6 grid gap-6 lg:grid-cols-2">
        <Card>
          <h3 className="mb-4 text-base font-semibold text-slate-900">{t('webhooks.add_title')}</h3>
          <WebhookForm key={location.key} answer={answer} busy={busy} />
        </Card>
        <Card>
          <h3 className="mb-4 text-base font-semibold text-slate-900">{t('webhooks.endpoints_title')}</h3>
          {endpoints.length ? (
            <ul className="divide-y divide-slate-200">
              {endpoints.map((e) => (
                <li key={e.id} className="py-3">
                  <p className="break-all font-medium text-slate-900">{e.url}</p>
                  <p className="text-sm text-slate-600">
                    {e.owner}
                    {e.description ? ` · ${e.description}` : ''}
                  </p>
                  <p className="mt-1 flex flex-wrap gap-1">
                    {e.events.map((ev) => (
                      <code key={ev} className="rounded bg-slate-100 px-1.5 text-xs">
                        {ev}
                      </code>
                    ))}
                  </p>
                  <details className="mt-2 text-sm">
                    <summary className="cursor-pointer font-medium text-primary-800">
                      {t('webhooks.show_secret')}
                    </summary>
                    <code className="mt-1 block break-all rounded bg-slate-100 p-2 text-xs">{e.secret}</code>
                  </details>
                  <AppForm
                    method="post"
                    preventScrollReset
                    className="mt-2"
                    onSubmit={(ev) => {
                      if (!window.confirm(t('webhooks.delete_confirm', { url: e.url }))) ev.preventDefault();
                    }}
                  >
                    <input type="hidden" name="id" value={e.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="delete_webhook"
                      disabled={busy}
                      className="text-sm font-medium text-red-700 hover:underline"
                      aria-label={t('webhooks.delete_named', { url: e.url })}
                    >
                      {t('webhooks.delete')}
                    </button>
                  </AppForm>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('webhooks.no_endpoints')}</p>
          )}
        </Card>
      </div>
      <h3 className="mb-3 text-base font-semibold text-slate-900">{t('webhooks.log_title')}</h3>
      <FilterLinks
        name="log_status"
        pageParam="log_page"
        label={t('webhooks.log_filter')}
        any={t('webhooks.log_all')}
        options={WEBHOOK_DELIVERY_STATUSES.map((s) => ({ value: s, label: t(`webhooks.statuses.${s}`) }))}
      />
      <DataTable
        rows={deliveries.items}
        columns={deliveryColumns}
        rowId={(r) => r.id}
        meta={deliveries.meta}
        pageParam="log_page"
        caption={t('webhooks.log_title')}
        empty={<span>{t(logFiltered ? 'webhooks.log_empty_filtered' : 'webhooks.log_empty')}</span>}
      />
    </div>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

/**
 * The "generate a key" form. Keyed by the location by the page, so it starts empty again after each
 * submission; its Conform id stays the same (a changing id leaves Conform watching another form).
 */
function GenerateKeyForm({ answer, busy }: { answer: Answer; busy: boolean }) {
  const { t } = useTranslation();
  const { groups, campuses, campusRequired, companies, constraints } = useLoaderData<typeof loader>();
  const [keyForm, keyFields] = useSchemaForm({
    id: 'api-key',
    schema: () => import('@server/domain/api-keys/schema').then((m) => m.generateApiKeySchema),
    lastResult: answer?.intent === 'generate' ? answer.submission : undefined,
    constraint: constraints.key,
    shouldValidate: 'onBlur',
  });
  return (
    <AppForm method="post" {...getFormProps(keyForm)} className="space-y-4">
      <FormErrors errors={keyForm.errors} />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Field label={t('api_keys.fields.name')} field={keyFields.name} hint={t('api_keys.name_hint')} />
        {companies.length > 1 ? (
          <div>
            <Label htmlFor="key-company">{t('api_keys.fields.company')}</Label>
            <Select id="key-company" name="company_id" options={companies} />
            <ErrorList errors={keyFields.company_id.errors} />
          </div>
        ) : null}
        {campuses.length ? (
          <div>
            <Label htmlFor="key-campus">{t('api_keys.fields.campus')}</Label>
            <Select
              id="key-campus"
              name="campus_id"
              options={campuses.map((c) => ({ value: c.id, label: c.name }))}
              placeholder={campusRequired ? undefined : t('api_keys.all_campuses')}
            />
            <ErrorList errors={keyFields.campus_id.errors} />
          </div>
        ) : null}
        <Field
          label={t('api_keys.fields.expires_on')}
          field={keyFields.expires_on}
          type="date"
          hint={t('api_keys.expires_hint')}
        />
      </div>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t('api_keys.fields.permissions')}</legend>
        <p className="mb-2 text-sm text-slate-600">{t('api_keys.permissions_hint')}</p>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {groups.map((g) => (
            <fieldset key={g.group} className="min-w-0 rounded-lg border border-slate-200 p-3">
              <legend className="px-1 text-xs font-semibold uppercase tracking-wide text-slate-600">
                {t(`roles.groups.${g.group}`)}
              </legend>
              {g.names.map((p) => (
                <label key={p} className="flex items-start gap-2 py-0.5 text-sm">
                  <input
                    type="checkbox"
                    name="permissions"
                    value={p}
                    className="mt-0.5 rounded border-slate-400"
                  />
                  <span className="min-w-0">{t(`roles.verbs.${permissionVerb(g.group, p)}`)}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        <ErrorList errors={keyFields.permissions.errors} />
      </fieldset>
      <Button type="submit" name="intent" value="generate" disabled={busy}>
        {t('api_keys.generate')}
      </Button>
    </AppForm>
  );
}

/** The "add an endpoint" form; keyed by the location like the key form. */
function WebhookForm({ answer, busy }: { answer: Answer; busy: boolean }) {
  const { t } = useTranslation();
  const { companies, constraints } = useLoaderData<typeof loader>();
  const [hookForm, hookFields] = useSchemaForm({
    id: 'webhook',
    schema: () => import('@server/domain/webhooks/schema').then((m) => m.webhookEndpointSchema),
    lastResult: answer?.intent === 'add_webhook' ? answer.submission : undefined,
    constraint: constraints.webhook,
    shouldValidate: 'onBlur',
  });
  return (
    <AppForm method="post" {...getFormProps(hookForm)} className="space-y-4">
      <FormErrors errors={hookForm.errors} />
      <Field
        label={t('webhooks.fields.url')}
        field={hookFields.url}
        type="url"
        hint={t('webhooks.url_hint')}
        inputProps={{ placeholder: 'https://' }}
      />
      <Field label={t('webhooks.fields.description')} field={hookFields.description} />
      {companies.length > 1 ? (
        <div>
          <Label htmlFor="hook-company">{t('api_keys.fields.company')}</Label>
          <Select id="hook-company" name="company_id" options={companies} />
          <ErrorList errors={hookFields.company_id.errors} />
        </div>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">{t('webhooks.fields.events')}</legend>
        <div className="mt-1 grid gap-1 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((e) => (
            <label key={e} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name="events"
                value={e}
                defaultChecked
                className="rounded border-slate-400"
              />
              <span>
                {t(`webhooks.events.${e.replace('.', '_')}`)} <code className="text-xs">{e}</code>
              </span>
            </label>
          ))}
        </div>
        <ErrorList errors={hookFields.events.errors} />
      </fieldset>
      <Button type="submit" name="intent" value="add_webhook" disabled={busy}>
        {t('webhooks.add')}
      </Button>
    </AppForm>
  );
}
