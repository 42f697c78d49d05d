/** /api-keys/webhooks: add an endpoint, and the endpoints with their signing secrets; remove one. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { visibleCompanies } from '@server/domain/access/scope';
import { isLocalHttp, isProduction } from '@server/env';
import { WEBHOOK_EVENTS } from '../../drizzle/schema/partners-enums';
import { constraintsOf, idSchema, webhookEndpointSchema } from '~/lib/schemas.server';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookEndpoints,
  webhookEndpointUrl,
} from '@server/domain/webhooks/service';
import { intentAction } from '~/lib/actions.server';
import { unreachable } from '~/lib/actions';
import { useSchemaForm } from '~/lib/schema-form';
import { localePath } from '~/i18n/config';
import { AppForm, ErrorList, Field, FormErrors, Label, Select } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { ConfirmButton } from '~/components/ui/confirm';
import { pageLoader } from '~/lib/loaders.server';
import { msg } from '@server/domain/messages';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MANAGE_PARTNER_ACCESS,
    async load({ ctx, context }) {
      const env = context.env;
      return json({
        endpoints: await listWebhookEndpoints(ctx),
        constraint: constraintsOf(webhookEndpointSchema),
        companies:
          ctx.actor.user_type === 'company'
            ? visibleCompanies(ctx.actor).map((c) => ({ value: c.public_id, label: c.name }))
            : [],
        // Outside production the portal's own test receiver takes any address under it (local http only).
        receiver: !isProduction(env) && isLocalHttp(env) ? `${env.PUBLIC_URL}/dev/webhooks` : null,
      });
    },
  })(args);

/** Add and remove webhook endpoints. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      add_webhook: { schema: webhookEndpointSchema, permission: MANAGE_PARTNER_ACCESS },
      delete_webhook: {
        schema: idSchema,
        permission: MANAGE_PARTNER_ACCESS,
        confirm: {
          question: async ({ id }: { id: string }, { ctx }) =>
            msg('webhooks.delete_confirm', { url: await webhookEndpointUrl(ctx, id) }),
          button: 'webhooks.delete',
        },
      },
    },
    async handle(input, { ctx }) {
      switch (input.intent) {
        case 'add_webhook':
          await createWebhookEndpoint(ctx, input);
          return { toast: 'webhooks.created' };
        case 'delete_webhook':
          await deleteWebhookEndpoint(ctx, input.id);
          return { toast: 'webhooks.deleted' };
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function WebhooksTab() {
  const { t, i18n } = useTranslation();
  const { endpoints, receiver } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useAnswerError(answer);
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const deliveries = localePath(i18n.language, '/api-keys/deliveries');
  return (
    <>
      <p className="mb-6 max-w-3xl text-sm text-slate-600">{t('webhooks.intro')}</p>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('webhooks.add_title')}</h2>
          {receiver ? (
            <p className="mb-4 rounded-md bg-slate-50 p-3 text-sm text-slate-700" data-testid="receiver-hint">
              {t('webhooks.receiver_hint', { example: `${receiver}/my-system` })}{' '}
              <a href={receiver} className="font-medium text-primary-800 underline">
                {t('webhooks.receiver_link')}
              </a>
            </p>
          ) : null}
          <WebhookForm key={location.key} answer={answer} busy={busy} />
        </Card>
        <Card>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">{t('webhooks.endpoints_title')}</h2>
          {endpoints.length ? (
            <ul className="divide-y divide-slate-200">
              {endpoints.map((e) => (
                <li key={e.id} className="py-3" data-testid="webhook-endpoint">
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
                  <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
                    <Link
                      to={`${deliveries}?endpoint_id=${encodeURIComponent(e.id)}`}
                      className="font-medium text-primary-800 hover:underline"
                      aria-label={t('webhooks.deliveries_of', { url: e.url })}
                    >
                      {t('webhooks.deliveries')}
                    </Link>
                    <AppForm method="post" preventScrollReset>
                      <input type="hidden" name="id" value={e.id} />
                      <ConfirmButton
                        name="intent"
                        value="delete_webhook"
                        disabled={busy}
                        className="font-medium text-red-700 hover:underline"
                        aria-label={t('webhooks.delete_named', { url: e.url })}
                        question={t('webhooks.delete_confirm', { url: e.url })}
                      >
                        {t('webhooks.delete')}
                      </ConfirmButton>
                    </AppForm>
                  </div>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-600">{t('webhooks.no_endpoints')}</p>
          )}
        </Card>
      </div>
    </>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

/** The "add an endpoint" form; keyed by the location like the key form. */
function WebhookForm({ answer, busy }: { answer: Answer; busy: boolean }) {
  const { t } = useTranslation();
  const { companies, constraint } = useLoaderData<typeof loader>();
  const [hookForm, hookFields] = useSchemaForm({
    id: 'webhook',
    schema: () => import('@server/domain/webhooks/schema').then((m) => m.webhookEndpointSchema),
    lastResult: answer?.intent === 'add_webhook' ? answer.submission : undefined,
    constraint,
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
