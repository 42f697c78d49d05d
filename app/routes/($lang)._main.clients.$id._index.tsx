/**
 * /clients/{id}: the client page with its tabs (`?tab=`): profile, contacts, billing, addresses, users,
 * campuses, service agreements, logs, notes, receivables, payments, invoices, transactions. Tabs are
 * query parameters, not child routes, so the campus and service-agreement pages under /clients/{id}/...
 * (other areas) are not nested in this page.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import {
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useNavigation,
  useSearchParams,
} from '@remix-run/react';
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can, type Actor } from '@server/domain/access/actor';
import {
  CLIENT_ACTION_RULES,
  CLIENT_ACTIONS,
  FACT_FIND_QUESTIONS,
  clientBillingSchema,
  clientProfileSchema,
  factFindSchema,
  type ClientAction,
} from '@server/domain/clients/schema';
import { type ClientDetail } from '@server/domain/clients/detail';
import { setClientFile } from '@server/domain/clients/files';
import { addClientNote, clientActivities, clientNotes } from '@server/domain/clients/notes';
import { getClient, updateClient } from '@server/domain/clients/service';
import { clientMetadata } from '@server/domain/clients/queries';
import {
  clientRequesters,
  listClientAgreements,
  listClientCampuses,
  listClientSchoolUsers,
} from '@server/domain/clients/tabs';
import { applyClientAction, CLIENT_ACTION_PERMISSIONS } from '@server/domain/clients/status';
import { addressesSchema, contactsSchema } from '@server/domain/contacts/schema';
import { countryOptions } from '@server/domain/contacts/service';
import { addressFormValue, contactsFormValue } from '@server/domain/contacts/values';
import { isDomainError, ValidationFailed } from '@server/domain/errors';
import { translate } from '@server/platform/i18n';
import { langOf, orNotFound, requirePermissions } from '~/lib/guards.server';
import { failedReply, saveClient } from '~/lib/clients.server';
import { addNoteAction, notesQueryOf } from '~/lib/notes.server';
import { queryOf } from '~/lib/lists.server';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { useActionSnack, useSnackbar } from '~/components/ui/snackbar';
import { ActivityLog } from '~/components/activity/activity-log';
import { NotesPanel } from '~/components/notes/notes-panel';
import { AddressFieldset, ContactsEditor, type ObjectField } from '~/components/contacts/contacts-editor';
import { AddressView, ContactsView } from '~/components/contacts/contacts-view';
import { ClientStatusBadge, Facts, LinkTabs } from '~/components/clients/client-bits';
import {
  ClientBillingFields,
  ClientFileInput,
  ClientProfileFields,
  FactFindFields,
  LOGO_ACCEPT,
  RETURN_POLICY_ACCEPT,
  clientFormValue,
} from '~/components/clients/client-form';
import { AgreementsTab, CampusesTab, MoneyTab, UsersTab } from '~/components/clients/client-tabs';

export const DETAIL_TABS = [
  'profile',
  'contacts',
  'billing',
  'addresses',
  'users',
  'campuses',
  'service_agreements',
  'logs',
  'notes',
  'receivables',
  'payments',
  'invoices',
  'transactions',
] as const;
type DetailTab = (typeof DETAIL_TABS)[number];

/** The tabs a user may open, by permission. */
function tabsFor(actor: Actor): DetailTab[] {
  return DETAIL_TABS.filter((tab) => {
    if (tab === 'users') return can(actor, 'read_client_user') || can(actor, 'read_user');
    if (tab === 'campuses') return can(actor, 'read_campus');
    if (tab === 'service_agreements') return can(actor, 'read_service_agreement');
    if (tab === 'logs') return can(actor, 'read_client_log');
    if (['receivables', 'payments', 'invoices', 'transactions'].includes(tab))
      return can(actor, 'read_client_billing') || can(actor, 'read_invoice');
    return true;
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const id = params.id ?? '';
  const client = await orNotFound(getClient(ctx, id));
  const query = queryOf(request);
  const tabs = tabsFor(ctx.actor);
  const tab = (tabs as string[]).includes(query.tab ?? '') ? (query.tab as DetailTab) : 'profile';
  const canUpdate = can(ctx.actor, 'update_client');
  const lang = langOf(request);
  const base = {
    client,
    tab,
    tabs,
    canUpdate,
    actions: CLIENT_ACTIONS.filter(
      (a) =>
        can(ctx.actor, CLIENT_ACTION_PERMISSIONS[a]) &&
        (a === 'delete' || CLIENT_ACTION_RULES[a].from.includes(client.status)),
    ),
    title: translate(lang, 'app.title_template', { title: client.name, product: context.env.PRODUCT_NAME }),
  };
  const needsCountries = canUpdate && (tab === 'contacts' || tab === 'addresses');
  const [countries, managers, users, campuses, agreements, logs, notes, requesters] = await Promise.all([
    needsCountries ? countryOptions(ctx.db) : null,
    canUpdate && tab === 'profile' ? clientMetadata(ctx).then((m) => m.account_managers) : null,
    tab === 'users' ? listClientSchoolUsers(ctx, id, { ...query, items: 25 }) : null,
    tab === 'campuses' ? listClientCampuses(ctx, id, query) : null,
    tab === 'service_agreements' ? listClientAgreements(ctx, id, query) : null,
    tab === 'logs' ? clientActivities(ctx, id, Number(query.page) || 1) : null,
    tab === 'notes' ? clientNotes(ctx, id, notesQueryOf(request)) : null,
    tab === 'notes' && canUpdate
      ? clientRequesters(ctx, client.id_numeric, clientCompanyId(ctx.actor, client))
      : null,
  ]);
  return json({
    ...base,
    countries,
    managers,
    users,
    campuses,
    agreements,
    logs,
    notes,
    requesters,
    canCreateCampus: can(ctx.actor, 'create_campus'),
    canCreateAgreement: can(ctx.actor, 'create_service_agreement'),
    canUpdateAgreement: can(ctx.actor, 'update_service_agreement'),
  });
}

function clientCompanyId(actor: Actor, client: ClientDetail): number {
  return actor.companies.find((c) => c.public_id === client.company.id)?.id ?? 0;
}

const contactsForm = z.object({ contacts: contactsSchema });
const factFindForm = z.object({ fact_find: factFindSchema });
const FORM_SCHEMAS = {
  profile: clientProfileSchema,
  contacts: contactsForm,
  billing: clientBillingSchema,
  addresses: addressesSchema,
  fact_find: factFindForm,
} as const;
type FormIntent = keyof typeof FORM_SCHEMAS;

type ActionAnswer =
  | { intent: FormIntent | 'files'; result: SubmissionResult<string[]>; saved: boolean }
  | { intent: 'add_note'; result: SubmissionResult<string[]>; saved: boolean }
  | { intent: 'status'; action: ClientAction; error: string | null; saved: boolean };

/**
 * Every form of the page behind an `intent`: the edit forms (profile, contacts, billing, addresses,
 * fact-find, files), the status actions and adding a note. Each calls its service, which checks the
 * permission and scope; an id of another tenant answers 404.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_client');
  const id = params.id ?? '';
  const formData = await request.formData();
  const intent = String(formData.get('intent') ?? '');
  const answer = (a: ActionAnswer, status = 200) => json(a, { status });

  if (intent === 'add_note')
    return addNoteAction(formData, (input, file) => orNotFound(addClientNote(ctx, id, input, file)));

  if (intent === 'status') {
    const action = String(formData.get('action') ?? '') as ClientAction;
    if (!CLIENT_ACTIONS.includes(action))
      return answer({ intent, action, error: 'clients.errors.action_invalid', saved: false }, 400);
    try {
      await orNotFound(applyClientAction(ctx, id, action));
    } catch (e) {
      if (!isDomainError(e)) throw e;
      const message = e instanceof ValidationFailed ? (e.errors[0]?.message ?? e.message) : e.message;
      return answer({ intent, action, error: message, saved: false }, e.status);
    }
    if (action === 'delete') throw redirect(localePath(langOf(request), '/clients'));
    return answer({ intent, action, error: null, saved: true });
  }

  if (intent === 'files') {
    const submission = parseWithZod(formData, { schema: z.object({}) });
    const r = await saveClient(submission, async () => {
      for (const kind of ['logo', 'return_policy'] as const) {
        const file = formData.get(kind);
        if (file instanceof File && (file.size > 0 || file.name))
          await orNotFound(setClientFile(ctx, id, kind, file));
      }
    });
    return answer(
      { intent, result: r.ok ? submission.reply({ resetForm: true }) : r.reply, saved: r.ok },
      r.ok ? 200 : r.status,
    );
  }

  if (!(intent in FORM_SCHEMAS)) throw new Response('Bad Request', { status: 400 });
  const formIntent = intent as FormIntent;
  const submission = parseWithZod(formData, { schema: FORM_SCHEMAS[formIntent] });
  if (submission.status === undefined)
    return answer({ intent: formIntent, result: submission.reply(), saved: false });
  if (submission.status !== 'success')
    return answer({ intent: formIntent, result: failedReply(submission), saved: false }, 400);
  const value = submission.value as Record<string, unknown>;
  const patch =
    formIntent === 'addresses'
      ? { billing_address: value.billing_address ?? null, mailing_address: value.mailing_address ?? null }
      : value;
  const r = await saveClient(submission, () => orNotFound(updateClient(ctx, id, patch as never)));
  return answer(
    { intent: formIntent, result: r.ok ? submission.reply() : r.reply, saved: r.ok },
    r.ok ? 200 : r.status,
  );
}

// ---------------------------------------------------------------- the page

function useSavedSnack() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>() as ActionAnswer | undefined;
  const m = useMessage();
  const text = !data?.saved
    ? null
    : data.intent === 'add_note'
      ? t('notes.added')
      : data.intent === 'status'
        ? t(`clients.actions.done.${data.action}`)
        : data.intent === 'files'
          ? t('clients.files.uploaded')
          : t('clients.saved');
  useActionSnack(data?.saved ? data : null, 'success', text);
  const failed = data && !data.saved && data.intent === 'status' ? data.error : null;
  useActionSnack(failed ? data : null, 'error', failed ? m(failed) : null);
  // After creating a client the page opens with ?saved=1: say so once, then drop the flag.
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const show = useSnackbar();
  useEffect(() => {
    if (params.get('saved') === '1') {
      show('success', t('clients.saved'));
      const next = new URLSearchParams(params);
      next.delete('saved');
      navigate(`${location.pathname}${next.toString() ? `?${next}` : ''}`, {
        replace: true,
        preventScrollReset: true,
      });
    }
  }, [params, navigate, location.pathname, show, t]);
  return data;
}

function resultFor(data: ActionAnswer | undefined, intent: string) {
  return data && data.intent === intent && 'result' in data ? data.result : undefined;
}

function EditCard({
  intent,
  title,
  children,
  busy,
  errors,
}: {
  intent: string;
  title: string;
  children: ReactNode;
  busy: boolean;
  errors?: string[];
}) {
  const { t } = useTranslation();
  return (
    <Card>
      <h2 className="mb-4 text-base font-semibold">{title}</h2>
      {/* The intent travels with every post of the form, "Add another" and "Remove" included. */}
      <input type="hidden" name="intent" value={intent} />
      {/* Enter in a field saves this card (the form's first submit button), not "Add another" or "Remove". */}
      <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
      <div className="mb-4">
        <FormErrors errors={errors} />
      </div>
      {children}
      <div className="mt-6 flex justify-end">
        <Button type="submit" disabled={busy}>
          {t('common.save')}
        </Button>
      </div>
    </Card>
  );
}

function ProfileTab({ data }: { data: ActionAnswer | undefined }) {
  const { t } = useTranslation();
  const { client, canUpdate, managers } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const defaults = clientFormValue(client);
  const [form, fields] = useForm({
    id: 'client-profile',
    lastResult: resultFor(data, 'profile'),
    defaultValue: defaults,
    constraint: getZodConstraint(clientProfileSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: clientProfileSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const [factForm, factFields] = useForm({
    id: 'client-fact-find',
    lastResult: resultFor(data, 'fact_find'),
    defaultValue: { fact_find: client.fact_find },
    constraint: getZodConstraint(factFindForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: factFindForm }),
    shouldValidate: 'onBlur',
  });
  const [filesForm] = useForm({ id: 'client-files', lastResult: resultFor(data, 'files') });
  const fileErrors = (name: string) =>
    (resultFor(data, 'files')?.error?.[name] as string[] | undefined) ?? undefined;
  const location = useLocation();
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
      <AppForm method="post" {...getFormProps(form)}>
        <EditCard intent="profile" title={t('clients.sections.profile')} busy={busy} errors={form.errors}>
          <ClientProfileFields fields={fields as never} managers={managers ?? []} />
        </EditCard>
      </AppForm>
      <AppForm method="post" encType="multipart/form-data" {...getFormProps(filesForm)}>
        <EditCard intent="files" title={t('clients.sections.files')} busy={busy} errors={filesForm.errors}>
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
      <AppForm method="post" {...getFormProps(factForm)}>
        <EditCard
          intent="fact_find"
          title={t('clients.sections.fact_find')}
          busy={busy}
          errors={factForm.errors}
        >
          <p className="-mt-2 mb-4 text-sm text-slate-500">{t('clients.sections.fact_find_hint')}</p>
          <FactFindFields field={factFields.fact_find as never} />
        </EditCard>
      </AppForm>
    </div>
  );
}

function ContactsTab({ data }: { data: ActionAnswer | undefined }) {
  const { t } = useTranslation();
  const { client, canUpdate, countries } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'client-contacts',
    lastResult: resultFor(data, 'contacts'),
    defaultValue: { contacts: contactsFormValue(client.contacts) },
    constraint: getZodConstraint(contactsForm),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactsForm }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate)
    return (
      <Card>
        <ContactsView contacts={client.contacts} />
      </Card>
    );
  return (
    <AppForm method="post" {...getFormProps(form)}>
      <EditCard intent="contacts" title={t('clients.sections.contacts')} busy={busy} errors={form.errors}>
        <ContactsEditor
          form={form}
          field={fields.contacts as unknown as ObjectField}
          countries={countries ?? []}
        />
      </EditCard>
    </AppForm>
  );
}

function BillingTab({ data }: { data: ActionAnswer | undefined }) {
  const { t } = useTranslation();
  const { client, canUpdate } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'client-billing',
    lastResult: resultFor(data, 'billing'),
    defaultValue: clientFormValue(client),
    constraint: getZodConstraint(clientBillingSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: clientBillingSchema }),
    shouldValidate: 'onBlur',
  });
  if (!canUpdate)
    return (
      <Card>
        <Facts
          items={[
            {
              label: t('clients.fields.payment_terms'),
              value: t(`clients.payment_terms.${client.payment_terms}`),
            },
            {
              label: t('clients.fields.payment_method'),
              value: t(`clients.payment_methods.${client.payment_method}`),
            },
            {
              label: t('clients.fields.payment_frequency'),
              value: client.payment_frequency
                ? t(`clients.payment_frequencies.${client.payment_frequency}`)
                : t('clients.fields.no_frequency'),
            },
            {
              label: t('clients.fields.invoice_rule'),
              value: t(`clients.invoice_rules.${client.invoice_rule}`),
            },
            {
              label: t('clients.fields.billing_enabled'),
              value: client.billing_enabled
                ? t('clients.fields.billing_enabled_yes')
                : t('clients.fields.billing_enabled_no'),
            },
            { label: t('clients.fields.tax_number'), value: client.tax_number ?? '—' },
            { label: t('clients.fields.account_number_ap'), value: client.account_number_ap ?? '—' },
            { label: t('clients.fields.account_number_ar'), value: client.account_number_ar ?? '—' },
          ]}
        />
      </Card>
    );
  return (
    <AppForm method="post" {...getFormProps(form)}>
      <EditCard intent="billing" title={t('clients.sections.billing')} busy={busy} errors={form.errors}>
        <ClientBillingFields fields={fields as never} />
      </EditCard>
    </AppForm>
  );
}

function AddressesTab({ data }: { data: ActionAnswer | undefined }) {
  const { t } = useTranslation();
  const { client, canUpdate, countries } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm({
    id: 'client-addresses',
    lastResult: resultFor(data, 'addresses'),
    defaultValue: {
      billing_address: addressFormValue(client.billing_address),
      mailing_address: addressFormValue(client.mailing_address),
    },
    constraint: getZodConstraint(addressesSchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: addressesSchema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!canUpdate)
    return (
      <div className="grid gap-4 md:grid-cols-2">
        <AddressView address={client.billing_address} title={t('contacts.address.billing')} />
        <AddressView address={client.mailing_address} title={t('contacts.address.mailing')} />
      </div>
    );
  return (
    <AppForm method="post" {...getFormProps(form)}>
      <EditCard intent="addresses" title={t('clients.sections.addresses')} busy={busy} errors={form.errors}>
        <div className="grid gap-4 lg:grid-cols-2">
          <AddressFieldset
            field={fields.billing_address as unknown as ObjectField}
            kind="billing"
            countries={countries ?? []}
          />
          <AddressFieldset
            field={fields.mailing_address as unknown as ObjectField}
            kind="mailing"
            countries={countries ?? []}
          />
        </div>
      </EditCard>
    </AppForm>
  );
}

function StatusActions() {
  const { t } = useTranslation();
  const { actions } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  if (!actions.length) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {actions.map((a) => (
        <AppForm
          key={a}
          method="post"
          onSubmit={(e) => {
            if (a === 'delete' && !window.confirm(t('clients.actions.confirm_delete'))) e.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="action" value={a} />
          <Button
            type="submit"
            variant={a === 'delete' ? 'danger' : 'secondary'}
            disabled={busy}
            className="py-2"
          >
            {t(`clients.actions.${a}`)}
          </Button>
        </AppForm>
      ))}
    </div>
  );
}

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

export default function ClientPage() {
  const { t, i18n } = useTranslation();
  const clientValue = (field: string, value: unknown) =>
    VALUE_LABELS[field] && typeof value === 'string'
      ? t(`${VALUE_LABELS[field]}.${value}`, { defaultValue: value })
      : undefined;
  const m = useMessage();
  const loaded = useLoaderData<typeof loader>();
  const { client, tab, tabs, canUpdate } = loaded;
  const data = useSavedSnack();
  const location = useLocation();
  const to = (path: string) => localePath(i18n.language, path);
  const statusError = data && data.intent === 'status' && data.error ? data.error : null;
  return (
    <div>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {client.logo ? (
              <img
                src={`${location.pathname.replace(/\/$/, '')}/files/logo`}
                alt=""
                className="h-10 w-10 rounded-lg object-contain ring-1 ring-slate-200"
              />
            ) : null}
            {client.name}
            <ClientStatusBadge status={client.status} />
          </span>
        }
        description={`${t(`clients.types.${client.type}`)} · ${client.company.name}${
          client.account_manager
            ? ` · ${t('clients.fields.account_manager')}: ${client.account_manager.name}`
            : ''
        }`}
        actions={
          <ButtonLink to={to('/clients')} variant="secondary">
            {t('clients.back_to_list')}
          </ButtonLink>
        }
      />
      <div className="mb-4">
        <StatusActions />
      </div>
      {statusError ? (
        <div className="mb-4">
          <Alert>{m(statusError)}</Alert>
        </div>
      ) : null}
      <LinkTabs
        label={client.name}
        current={tab}
        tabs={tabs.map((key) => ({
          key,
          label: t(`clients.detail_tabs.${key}`),
          href: `${location.pathname}?tab=${key}`,
        }))}
      />
      {tab === 'profile' ? <ProfileTab data={data} /> : null}
      {tab === 'contacts' ? <ContactsTab data={data} /> : null}
      {tab === 'billing' ? <BillingTab data={data} /> : null}
      {tab === 'addresses' ? <AddressesTab data={data} /> : null}
      {tab === 'users' && loaded.users ? <UsersTab users={loaded.users} /> : null}
      {tab === 'campuses' && loaded.campuses ? (
        <CampusesTab clientId={client.id} campuses={loaded.campuses} canCreate={loaded.canCreateCampus} />
      ) : null}
      {tab === 'service_agreements' && loaded.agreements ? (
        <AgreementsTab
          clientId={client.id}
          agreements={loaded.agreements}
          canCreate={loaded.canCreateAgreement}
          canUpdate={loaded.canUpdateAgreement}
        />
      ) : null}
      {tab === 'logs' && loaded.logs ? (
        <ActivityLog rows={loaded.logs.items} meta={loaded.logs.meta} formatValue={clientValue} />
      ) : null}
      {tab === 'notes' && loaded.notes ? (
        <NotesPanel
          notes={loaded.notes}
          canAdd={canUpdate}
          lastResult={resultFor(data, 'add_note') ?? null}
          requesters={loaded.requesters ?? undefined}
          downloadHref={(noteId) => `${location.pathname.replace(/\/$/, '')}/notes/${noteId}/download`}
        />
      ) : null}
      {tab === 'receivables' || tab === 'payments' || tab === 'invoices' || tab === 'transactions' ? (
        <MoneyTab tab={tab} />
      ) : null}
      <p className="mt-8 text-xs text-slate-600">
        {t('clients.fields.updated_at')}: {formatDate(client.updated_at)}
      </p>
    </div>
  );
}
