/** A client's profile tab, the page's own address: overview, profile, files and fact-find. */
import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { FACT_FIND_QUESTIONS } from '@server/domain/clients/values';
import { setClientFile } from '@server/domain/clients/files';
import { updateClient } from '@server/domain/clients/service';
import { clientMetadata } from '@server/domain/clients/queries';
import {
  clientFactFindFormSchema,
  clientFilesFormSchema,
  clientProfileSchema,
  constraintsOf,
  idSchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { formatDateTime } from '~/lib/dates';
import { AppForm } from '~/components/fields';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { Facts } from '~/components/ui/facts';
import { ClientStatusBadge } from '~/components/clients/client-bits';
import {
  ClientFileInput,
  ClientProfileFields,
  FactFindFields,
  LOGO_ACCEPT,
  RETURN_POLICY_ACCEPT,
  clientFormValue,
} from '~/components/clients/client-form';
import { EditCard, saveErrors, useClient } from '~/components/clients/client-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_client',
    async load({ ctx }) {
      const managers = can(ctx.actor, 'update_client') ? (await clientMetadata(ctx)).account_managers : null;
      return json({
        managers,
        constraints: {
          profile: constraintsOf(clientProfileSchema),
          factFind: constraintsOf(clientFactFindFormSchema),
        },
      });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      profile: { schema: clientProfileSchema, permission: 'update_client' },
      fact_find: { schema: clientFactFindFormSchema, permission: 'update_client' },
      files: { schema: clientFilesFormSchema, permission: 'update_client' },
    },
    async handle(input, { ctx, params, redirect }) {
      const id = params.id;
      switch (input.intent) {
        case 'profile':
        case 'fact_find': {
          const { intent: _intent, ...patch } = input;
          await updateClient(ctx, id, patch as never);
          return redirect(`/clients/${id}`, 'clients.saved');
        }
        case 'files':
          for (const kind of ['logo', 'return_policy'] as const) {
            const file = input[kind];
            if (file instanceof File) await setClientFile(ctx, id, kind, file);
          }
          return redirect(`/clients/${id}`, 'clients.files.uploaded');
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function ClientProfileTab() {
  const { t } = useTranslation();
  const { client, canUpdate } = useClient();
  const { managers, constraints } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const location = useLocation();
  const lastResult = (intent: string) => (data?.intent === intent ? data.submission : undefined);
  const [form, fields] = useSchemaForm({
    id: `client-profile-${client.updated_at}`,
    schema: () => import('@server/domain/clients/schema').then((m) => m.clientProfileSchema),
    lastResult: lastResult('profile'),
    defaultValue: clientFormValue(client),
    constraint: constraints.profile,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const [factForm, factFields] = useSchemaForm({
    id: `client-fact-find-${client.updated_at}`,
    schema: () => import('@server/domain/clients/schema').then((m) => m.clientFactFindFormSchema),
    lastResult: lastResult('fact_find'),
    defaultValue: { fact_find: client.fact_find },
    constraint: constraints.factFind,
    shouldValidate: 'onBlur',
  });
  const [filesFormMeta] = useForm({ id: `client-files-${location.key}`, lastResult: lastResult('files') });
  const fileErrors = (name: string) => lastResult('files')?.error?.[name] ?? undefined;
  const fileLink = (kind: 'logo' | 'return-policy', name: string | null) =>
    name ? (
      <a
        href={`${location.pathname.replace(/\/$/, '')}/files/${kind}`}
        className="font-medium text-primary-800 hover:underline"
        target="_blank"
        rel="noreferrer"
      >
        {name}
      </a>
    ) : (
      <span className="text-slate-500">{t('clients.files.none')}</span>
    );
  const overview = (
    <Card>
      <h2 className="mb-4 text-base font-semibold">{t('clients.sections.overview')}</h2>
      <Facts
        items={[
          { label: t('clients.fields.status'), value: <ClientStatusBadge status={client.status} /> },
          { label: t('clients.fields.company'), value: client.company.name },
          { label: t('clients.columns.id'), value: client.id },
          { label: t('clients.counts.campuses'), value: client.counts.campuses },
          { label: t('clients.counts.users'), value: client.counts.users },
          { label: t('clients.counts.service_agreements'), value: client.counts.service_agreements },
          { label: t('clients.counts.contracts'), value: client.counts.contracts },
          { label: t('clients.fields.quickbooks_id'), value: client.quickbooks_id ?? '—' },
          { label: t('clients.fields.created_at'), value: formatDateTime(client.created_at) },
          { label: t('clients.fields.updated_at'), value: formatDateTime(client.updated_at) },
        ]}
      />
    </Card>
  );
  if (!canUpdate) {
    return (
      <div className="space-y-6">
        {overview}
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.profile')}</h2>
          <Facts
            items={[
              { label: t('clients.fields.type'), value: t(`clients.types.${client.type}`) },
              { label: t('clients.fields.website'), value: client.website ?? '—' },
              {
                label: t('clients.fields.phone_number'),
                value: client.phone_number ? `${client.phone_country ?? ''} ${client.phone_number}` : '—',
              },
              {
                label: t('clients.fields.preferred_lang'),
                value: t(`clients.languages.${client.preferred_lang}`),
              },
              { label: t('clients.fields.account_manager'), value: client.account_manager?.name ?? '—' },
              {
                label: t('reminders.setting.label'),
                value: client.expiry_reminders ? t('reminders.setting.on') : t('reminders.setting.off'),
              },
              { label: t('clients.fields.description'), value: client.description ?? '—' },
              { label: t('clients.fields.logo'), value: fileLink('logo', client.logo) },
              {
                label: t('clients.fields.return_policy'),
                value: fileLink('return-policy', client.return_policy),
              },
            ]}
          />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.fact_find')}</h2>
          <Facts
            items={FACT_FIND_QUESTIONS.map((q) => {
              const answer = client.fact_find[q.key];
              return {
                label: t(`clients.fact_find.questions.${q.key}`),
                value: answer
                  ? q.kind === 'choice'
                    ? t(`clients.fact_find.options.${answer}`)
                    : answer
                  : t('clients.fact_find.not_answered'),
              };
            })}
          />
        </Card>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      {overview}
      <AppForm method="post" {...getFormProps(form)} key={form.id}>
        <EditCard
          intent="profile"
          title={t('clients.sections.profile')}
          busy={busy}
          errors={saveErrors(data, form.errors, 'profile')}
        >
          <ClientProfileFields fields={fields as never} managers={managers ?? []} />
        </EditCard>
      </AppForm>
      <AppForm
        method="post"
        encType="multipart/form-data"
        {...getFormProps(filesFormMeta)}
        key={filesFormMeta.id}
      >
        <EditCard
          intent="files"
          title={t('clients.sections.files')}
          busy={busy}
          errors={saveErrors(data, filesFormMeta.errors, 'files')}
        >
          <div className="grid gap-4 sm:grid-cols-2">
            <ClientFileInput
              name="logo"
              label={t('clients.fields.logo')}
              hint={t('clients.fields.logo_hint')}
              accept={LOGO_ACCEPT}
              errors={fileErrors('logo')}
              current={fileLink('logo', client.logo)}
            />
            <ClientFileInput
              name="return_policy"
              label={t('clients.fields.return_policy')}
              hint={t('clients.fields.return_policy_hint')}
              accept={RETURN_POLICY_ACCEPT}
              errors={fileErrors('return_policy')}
              current={fileLink('return-policy', client.return_policy)}
            />
          </div>
        </EditCard>
      </AppForm>
      <AppForm method="post" {...getFormProps(factForm)} key={factForm.id}>
        <EditCard
          intent="fact_find"
          title={t('clients.sections.fact_find')}
          busy={busy}
          errors={saveErrors(data, factForm.errors, 'fact_find')}
        >
          <p className="-mt-2 mb-4 text-sm text-slate-500">{t('clients.sections.fact_find_hint')}</p>
          <FactFindFields field={factFields.fact_find as never} />
        </EditCard>
      </AppForm>
    </div>
  );
}
