/** /api-keys, the keys tab: generate a key (shown once) and the list of keys, with Revoke. */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { PERMISSION_GROUPS } from '@server/domain/access/permissions';
import { MANAGE_PARTNER_ACCESS } from '@server/domain/access/api-keys';
import { permissionVerb } from '@server/domain/roles/verbs';
import { visibleCompanies } from '@server/domain/access/scope';
import { britishDate } from '@server/domain/formats';
import { apiKeyListQuerySchema, constraintsOf, generateApiKeySchema, idSchema } from '~/lib/schemas.server';
import { msg } from '@server/domain/messages';
import {
  apiKeyName,
  generateApiKey,
  grantablePermissions,
  keyCampusOptions,
  keyCampusRequired,
  listApiKeys,
  revokeApiKey,
} from '@server/domain/api-keys/service';
import { intentAction } from '~/lib/actions.server';
import { unreachable } from '~/lib/actions';
import { useSchemaForm } from '~/lib/schema-form';
import { AppForm, ErrorList, Field, FormErrors, Input, Label, Select } from '~/components/forms';
import { Button } from '~/components/ui/button';
import { Alert, Card } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { StatusBadge } from '~/components/ui/status-badge';
import { useAnswerError } from '~/components/ui/snackbar';
import { dateTime } from '~/components/api-keys/bits';
import { ConfirmButton } from '~/components/ui/confirm';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: MANAGE_PARTNER_ACCESS,
    query: apiKeyListQuerySchema,
    async load({ ctx, query }) {
      const [keys, campuses] = await Promise.all([listApiKeys(ctx, query), keyCampusOptions(ctx)]);
      const held = new Set(grantablePermissions(ctx.actor));
      const groups = Object.entries(PERMISSION_GROUPS)
        .map(([group, names]) => ({ group, names: (names as readonly string[]).filter((p) => held.has(p)) }))
        .filter((g) => g.names.length);
      return json({
        keys,
        constraint: constraintsOf(generateApiKeySchema),
        groups,
        campuses,
        campusRequired: keyCampusRequired(ctx.actor),
        companies:
          ctx.actor.user_type === 'company'
            ? visibleCompanies(ctx.actor).map((c) => ({ value: c.public_id, label: c.name }))
            : [],
      });
    },
  })(args);

/** Generate and revoke keys. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      generate: { schema: generateApiKeySchema, permission: MANAGE_PARTNER_ACCESS },
      revoke: {
        schema: idSchema,
        permission: MANAGE_PARTNER_ACCESS,
        confirm: {
          question: async ({ id }: { id: string }, { ctx }) =>
            msg('api_keys.revoke_confirm', { name: await apiKeyName(ctx, id) }),
          button: 'api_keys.revoke',
        },
      },
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
        default:
          return unreachable(input);
      }
    },
  })(args);

type KeyRow = ReturnType<typeof useLoaderData<typeof loader>>['keys']['items'][number];

const stateTone = { active: 'green', expired: 'amber', revoked: 'slate' } as const;

export default function ApiKeysTab() {
  const { t } = useTranslation();
  const { keys } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  useAnswerError(answer);
  const location = useLocation();
  const busy = useNavigation().state === 'submitting';
  const generated =
    answer?.ok && answer.intent === 'generate' ? (answer.data as { key: string; name: string }) : null;

  const keyColumns: Column<KeyRow>[] = [
    {
      key: 'name',
      card: 'title',
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
      card: 'figure',
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
      card: 'hidden',
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
      card: 'figure',
      header: t('api_keys.fields.last_used'),
      render: (r) => (
        <span className="whitespace-nowrap">
          {r.last_used_at ? dateTime(r.last_used_at) : t('api_keys.never')}
        </span>
      ),
    },
    {
      key: 'expires',
      card: 'figure',
      header: t('api_keys.fields.expires'),
      render: (r) => (
        <span className="whitespace-nowrap">
          {r.expires_at ? britishDate(r.expires_at.slice(0, 10)) : t('api_keys.no_expiry')}
        </span>
      ),
    },
    {
      key: 'state',
      card: 'status',
      header: t('api_keys.fields.state'),
      render: (r) => <StatusBadge tone={stateTone[r.state]}>{t(`api_keys.states.${r.state}`)}</StatusBadge>,
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('api_keys.actions')}</span>,
      className: 'text-right',
      render: (r) =>
        r.state === 'revoked' ? null : (
          <AppForm method="post" preventScrollReset>
            <input type="hidden" name="id" value={r.id} />
            <ConfirmButton
              name="intent"
              value="revoke"
              disabled={busy}
              className="font-medium text-red-700 hover:underline"
              aria-label={t('api_keys.revoke_named', { name: r.name })}
              question={t('api_keys.revoke_confirm', { name: r.name })}
            >
              {t('api_keys.revoke')}
            </ConfirmButton>
          </AppForm>
        ),
    },
  ];

  return (
    <>
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
      <DataTable
        rows={keys.items}
        columns={keyColumns}
        rowId={(r) => r.id}
        meta={keys.meta}
        caption={t('api_keys.list_title')}
        empty={<span>{t('api_keys.empty')}</span>}
      />
    </>
  );
}

type Answer = ReturnType<typeof useActionData<typeof action>>;

/**
 * The "generate a key" form. Keyed by the location by the page, so it starts empty again after each
 * submission; its Conform id stays the same (a changing id leaves Conform watching another form).
 */
function GenerateKeyForm({ answer, busy }: { answer: Answer; busy: boolean }) {
  const { t } = useTranslation();
  const { groups, campuses, campusRequired, companies, constraint } = useLoaderData<typeof loader>();
  const [keyForm, keyFields] = useSchemaForm({
    id: 'api-key',
    schema: () => import('@server/domain/api-keys/schema').then((m) => m.generateApiKeySchema),
    lastResult: answer?.intent === 'generate' ? answer.submission : undefined,
    constraint,
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
