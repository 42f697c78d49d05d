/**
 * /clients/{id}/campuses/{campus_id}: a campus with its summary and tabs (`?tab=`): details (profile and
 * billing), contacts, addresses, contracts (with one contract's detail, logs, archive/reactivate and
 * clone at `?contract=`), users, notes and logs. Archive, activate, clone and the enrolment template
 * are in the header. Every form works without JavaScript and keeps what was typed on an error.
 */
import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { can } from '@server/domain/access/actor';
import {
  CAMPUS_CONTACT_TYPES,
  campusBillingShape,
  campusContactsSchema,
  campusProfileShape,
} from '@server/domain/campuses/schema';
import {
  activateCampus,
  addCampusNote,
  archiveCampus,
  campusContract,
  campusContracts,
  campusFormOptions,
  campusLogs,
  campusNotes,
  campusUsers,
  cloneCampus,
  getCampus,
  updateCampusAddresses,
  updateCampusContacts,
  updateCampusDetails,
} from '@server/domain/campuses/service';
import { addressSchemas } from '@server/domain/contacts/schema';
import { countryOptions } from '@server/domain/contacts/service';
import { addressFormValue, contactsFormValue } from '@server/domain/contacts/values';
import {
  cloneContractSchema,
  contractListQuerySchema,
  contractStatusSchema,
} from '@server/domain/contracts/schema';
import { cloneContract, contractActivities, updateContractStatus } from '@server/domain/contracts/service';
import { isDomainError } from '@server/domain/errors';
import { listQuerySchema } from '@server/domain/lists';
import { translate } from '@server/platform/i18n';
import { langOf, orNotFound, requirePermissions, withFormErrors } from '~/lib/guards.server';
import { queryOf } from '~/lib/lists.server';
import { addNoteAction, notesQueryOf } from '~/lib/notes.server';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { DataTable } from '~/components/ui/data-table';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { useActionSnack } from '~/components/ui/snackbar';
import { ActivityLog } from '~/components/activity/activity-log';
import { NotesPanel } from '~/components/notes/notes-panel';
import { AddressFieldset, ContactsEditor, type ObjectField } from '~/components/contacts/contacts-editor';
import { AddressView, ContactsView } from '~/components/contacts/contacts-view';
import {
  CampusBillingFields,
  CampusProfileFields,
  DefaultSubmit,
  Facts,
  TabLinks,
  campusFormValue,
} from '~/components/campuses/campus-bits';
import { ContractStatus, ContractsTable } from '~/components/contracts/contracts-table';
import { formatMoney } from '~/lib/money';

const TABS = ['details', 'contacts', 'addresses', 'contracts', 'users', 'notes', 'logs'] as const;
type Tab = (typeof TABS)[number];

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_campus');
  const campusId = params.campusId ?? '';
  const campus = await orNotFound(getCampus(ctx, campusId));
  if (campus.client.id !== params.id) throw new Response('Not Found', { status: 404 });
  const query = queryOf(request);
  const tabs = TABS.filter((t) => t !== 'contracts' || can(ctx.actor, 'read_contract'));
  const tab: Tab = (tabs as readonly string[]).includes(query.tab ?? '') ? (query.tab as Tab) : 'details';
  const canUpdate = can(ctx.actor, 'update_campus');
  const lang = langOf(request);
  const needsCountries = canUpdate && ['details', 'contacts', 'addresses'].includes(tab);
  const [countries, options, contracts, contract, contractLogs, users, notes, logs] = await Promise.all([
    needsCountries ? countryOptions(ctx.db) : null,
    canUpdate && tab === 'details' ? campusFormOptions(ctx, params.id ?? '') : null,
    tab === 'contracts' ? campusContracts(ctx, campusId, contractListQuerySchema.parse(query)) : null,
    tab === 'contracts' && query.contract ? orNotFound(campusContract(ctx, campusId, query.contract)) : null,
    tab === 'contracts' && query.contract ? orNotFound(contractActivities(ctx, query.contract, 1, 50)) : null,
    tab === 'users' ? campusUsers(ctx, campusId, listQuerySchema.parse(query)) : null,
    tab === 'notes' ? campusNotes(ctx, campusId, notesQueryOf(request)) : null,
    tab === 'logs' ? campusLogs(ctx, campusId, Number(query.page) || 1) : null,
  ]);
  return {
    campus,
    tab,
    tabs,
    countries,
    managers: options?.account_managers ?? [],
    contracts,
    contract,
    contractLogs,
    users,
    notes,
    logs,
    saved: query.saved === '1',
    can: {
      update: canUpdate,
      archive: can(ctx.actor, 'archive_campus'),
      clone: can(ctx.actor, 'create_campus'),
      archiveContract: can(ctx.actor, 'archive_contract'),
      cloneContract: can(ctx.actor, 'create_contract'),
      createAgreement: can(ctx.actor, 'create_service_agreement'),
      companyUser: ctx.actor.user_type === 'company',
    },
    title: translate(lang, 'app.title_template', { title: campus.name, product: context.env.PRODUCT_NAME }),
  };
}

const profileIntent = z.object({
  intent: z.literal('profile'),
  ...campusProfileShape,
  ...campusBillingShape,
});
const contactsIntent = campusContactsSchema.extend({ intent: z.literal('contacts') });
const addressesIntent = z.object({
  intent: z.literal('addresses'),
  billing_address: addressSchemas.billing,
  mailing_address: addressSchemas.mailing,
});
const statusIntent = z.object({ intent: z.enum(['archive', 'activate', 'clone']) });
const contractStatusIntent = contractStatusSchema.extend({
  intent: z.literal('contract_status'),
  contract_id: z.string().min(1).max(40),
});
const contractCloneIntent = cloneContractSchema.extend({
  intent: z.literal('contract_clone'),
  contract_id: z.string().min(1).max(40),
});
const intents = z.discriminatedUnion('intent', [
  profileIntent,
  contactsIntent,
  addressesIntent,
  statusIntent,
  contractStatusIntent,
  contractCloneIntent,
]);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'read_campus');
  const campusId = params.campusId ?? '';
  const lang = langOf(request);
  const formData = await request.formData();
  const intent = String(formData.get('intent') ?? '');
  if (intent === 'add_note')
    return addNoteAction(formData, (input, file) => orNotFound(addCampusNote(ctx, campusId, input, file)));
  const submission = parseWithZod(formData, { schema: intents });
  if (submission.status !== 'success')
    return json({ intent, result: submission.reply(), saved: false }, { status: 400 });
  const v = submission.value;
  const reply = async (run: () => Promise<unknown>) => {
    const r = await withFormErrors(submission, () => orNotFound(run()));
    return json(
      { intent, result: r.ok ? submission.reply() : r.reply, saved: r.ok },
      { status: r.ok ? 200 : r.status },
    );
  };
  switch (v.intent) {
    case 'profile': {
      const {
        intent: _i,
        account_number_ap,
        account_number_ar,
        payment_terms,
        pay_with_bank_transfer,
        ...profile
      } = v;
      return reply(() =>
        updateCampusDetails(ctx, campusId, profile, {
          account_number_ap,
          account_number_ar,
          payment_terms,
          pay_with_bank_transfer,
        }),
      );
    }
    case 'contacts':
      return reply(() => updateCampusContacts(ctx, campusId, v));
    case 'addresses':
      return reply(() => updateCampusAddresses(ctx, campusId, v));
    case 'archive':
      return reply(() => archiveCampus(ctx, campusId));
    case 'activate':
      return reply(() => activateCampus(ctx, campusId));
    case 'clone': {
      try {
        const copy = await orNotFound(cloneCampus(ctx, campusId));
        return redirect(localePath(lang, `/clients/${params.id}/campuses/${copy.id}?saved=1`));
      } catch (e) {
        if (!isDomainError(e)) throw e;
        return json(
          { intent, result: submission.reply({ formErrors: [e.message] }), saved: false },
          { status: 400 },
        );
      }
    }
    case 'contract_status':
      return reply(async () => {
        await orNotFound(campusContract(ctx, campusId, v.contract_id));
        return updateContractStatus(ctx, v.contract_id, v.status);
      });
    case 'contract_clone': {
      const { intent: _i, contract_id, ...input } = v;
      const r = await withFormErrors(submission, async () => {
        await orNotFound(campusContract(ctx, campusId, contract_id));
        return cloneContract(ctx, contract_id, input);
      });
      if (!r.ok) return json({ intent, result: r.reply, saved: false }, { status: r.status });
      const target = r.value.campus.id;
      return redirect(
        localePath(
          lang,
          `/clients/${params.id}/campuses/${target}?tab=contracts&contract=${r.value.id}&saved=1`,
        ),
      );
    }
  }
}

type ActionData = { intent: string; result: SubmissionResult<string[]>; saved: boolean } | undefined;

export default function CampusPage() {
  const { t, i18n } = useTranslation();
  const data = useLoaderData<typeof loader>();
  const action = useActionData<typeof action>() as ActionData;
  const { campus, tab } = data;
  const to = (path: string) => localePath(i18n.language, path);
  const base = `/clients/${campus.client.id}/campuses/${campus.id}`;
  useActionSnack(action?.saved ? action : null, 'success', t('campuses.saved'));
  const tabLabel = (k: Tab) => t(`campuses.tabs.${k}`);
  return (
    <div className="mx-auto max-w-6xl">
      <nav className="mb-2 text-sm text-slate-600" aria-label={t('campuses.breadcrumb')}>
        <Link to={to(`/clients/${campus.client.id}/campuses`)} className="hover:underline">
          {campus.client.name}
        </Link>{' '}
        / {t('campuses.title')}
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {campus.name}
            {campus.initial ? (
              <span className="text-base font-medium text-slate-500">({campus.initial})</span>
            ) : null}
            <StatusBadge tone={statusTone(campus.status)}>
              {t(`campuses.statuses.${campus.status}`)}
            </StatusBadge>
          </span>
        }
        description={t('campuses.of_client', { client: campus.client.name, company: campus.company.name })}
        actions={<HeaderActions />}
      />
      {data.saved ? (
        <div className="mb-4">
          <Alert tone="success">{t('campuses.saved')}</Alert>
        </div>
      ) : null}
      {action && !action.saved && ['archive', 'activate', 'clone'].includes(action.intent) ? (
        <div className="mb-4">
          <FormErrors errors={action.result.error?.[''] ?? action.result.error?.status ?? null} />
        </div>
      ) : null}
      <SummaryTiles
        tiles={[
          { label: t('campuses.summary.contracts'), value: campus.summary.contracts },
          { label: t('campuses.summary.active_contracts'), value: campus.summary.active_contracts },
          { label: t('campuses.summary.current_contracts'), value: campus.summary.current_contracts },
          { label: t('campuses.summary.users'), value: campus.summary.users },
        ]}
      />
      <TabLinks
        label={t('campuses.tabs_label')}
        current={tab}
        tabs={data.tabs.map((k) => ({
          key: k,
          label: tabLabel(k),
          href: to(`${base}?tab=${k}`),
          count:
            k === 'contracts' ? campus.summary.contracts : k === 'users' ? campus.summary.users : undefined,
        }))}
      />
      {tab === 'details' ? <DetailsTab /> : null}
      {tab === 'contacts' ? <ContactsTab /> : null}
      {tab === 'addresses' ? <AddressesTab /> : null}
      {tab === 'contracts' ? <ContractsTab /> : null}
      {tab === 'users' && data.users ? <UsersTab /> : null}
      {tab === 'notes' && data.notes ? (
        <NotesPanel
          notes={data.notes}
          canAdd={data.can.update}
          lastResult={action?.intent === 'add_note' ? action.result : null}
          downloadHref={(noteId) => to(`${base}/notes/${noteId}/download`)}
        />
      ) : null}
      {tab === 'logs' && data.logs ? <ActivityLog rows={data.logs.items} meta={data.logs.meta} /> : null}
    </div>
  );
}

function HeaderActions() {
  const { t, i18n } = useTranslation();
  const { campus, can: allowed } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);
  const base = `/clients/${campus.client.id}/campuses/${campus.id}`;
  return (
    <div className="flex flex-wrap gap-2">
      <a href={to(`${base}/enrollment-template`)} className={buttonClass('secondary')} download>
        {t('campuses.download_template')}
      </a>
      {allowed.createAgreement ? (
        <ButtonLink
          to={to(`/clients/${campus.client.id}/service-agreement/create?campus=${campus.id}`)}
          variant="secondary"
        >
          {t('campuses.add_agreement')}
        </ButtonLink>
      ) : null}
      {allowed.clone ? (
        <AppForm method="post">
          <Button type="submit" name="intent" value="clone" variant="secondary" disabled={busy}>
            {t('campuses.clone')}
          </Button>
        </AppForm>
      ) : null}
      {allowed.archive ? (
        <AppForm method="post">
          {campus.status === 'active' ? (
            <Button type="submit" name="intent" value="archive" variant="danger" disabled={busy}>
              {t('campuses.archive')}
            </Button>
          ) : (
            <Button type="submit" name="intent" value="activate" disabled={busy}>
              {t('campuses.activate')}
            </Button>
          )}
        </AppForm>
      ) : null}
    </div>
  );
}

function useIntentForm<S extends z.ZodTypeAny>(
  intent: string,
  schema: S,
  defaultValue: Record<string, unknown>,
) {
  const action = useActionData<typeof action>() as ActionData;
  // The intents' schemas differ; their fields are read by name.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return useForm<Record<string, any>>({
    id: `campus-${intent}`,
    lastResult: action?.intent === intent ? action.result : undefined,
    defaultValue,
    constraint: getZodConstraint(schema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
}

function SaveButton({ intent, children }: { intent: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const busy = useNavigation().state === 'submitting';
  return (
    <Button type="submit" name="intent" value={intent} disabled={busy}>
      {children ?? t('common.save')}
    </Button>
  );
}

function DetailsTab() {
  const { t } = useTranslation();
  const { campus, countries, managers, can: allowed } = useLoaderData<typeof loader>();
  const [form, fields] = useIntentForm('profile', profileIntent, campusFormValue(campus));
  if (!allowed.update || !countries) {
    return (
      <div className="space-y-6">
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.profile')}</h2>
          <Facts
            items={[
              { label: t('campuses.fields.name'), value: campus.name },
              { label: t('campuses.fields.initial'), value: campus.initial },
              { label: t('campuses.fields.country'), value: campus.country?.name },
              {
                label: t('campuses.fields.phone_number'),
                value: campus.phone_number ? `${campus.phone_country ?? ''} ${campus.phone_number}` : null,
              },
              { label: t('campuses.fields.website'), value: campus.website },
              {
                label: t('campuses.fields.preferred_lang'),
                value: t(`campuses.languages.${campus.preferred_lang}`),
              },
              { label: t('campuses.fields.account_manager'), value: campus.account_manager?.name },
              { label: t('campuses.fields.description'), value: campus.description },
            ]}
          />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.billing')}</h2>
          <Facts
            items={[
              { label: t('campuses.fields.account_number_ap'), value: campus.account_number_ap },
              { label: t('campuses.fields.account_number_ar'), value: campus.account_number_ar },
              {
                label: t('campuses.fields.payment_terms'),
                value: campus.payment_terms ? t(`campuses.payment_terms.${campus.payment_terms}`) : null,
              },
              {
                label: t('campuses.fields.pay_with_bank_transfer'),
                value: campus.pay_with_bank_transfer ? t('campuses.yes') : t('campuses.no'),
              },
            ]}
          />
        </Card>
      </div>
    );
  }
  return (
    <AppForm method="post" {...getFormProps(form)} className="space-y-6">
      <FormErrors errors={form.errors} />
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.profile')}</h2>
        <CampusProfileFields
          fields={fields}
          managers={allowed.companyUser ? managers : campus.account_manager ? [campus.account_manager] : []}
          countries={countries}
        />
      </Card>
      <Card>
        <h2 className="mb-4 text-base font-semibold">{t('campuses.sections.billing')}</h2>
        <CampusBillingFields fields={fields} />
      </Card>
      <SaveButton intent="profile" />
    </AppForm>
  );
}

function ContactsTab() {
  const { campus, countries, can: allowed } = useLoaderData<typeof loader>();
  const [form, fields] = useIntentForm('contacts', contactsIntent, {
    contacts: contactsFormValue(campus.contacts, { secondary: 1, custom: 0 }),
  });
  if (!allowed.update || !countries)
    return <ContactsView contacts={campus.contacts} types={CAMPUS_CONTACT_TYPES} />;
  return (
    <AppForm method="post" {...getFormProps(form)} className="space-y-6">
      <DefaultSubmit value="contacts" />
      <FormErrors errors={form.errors} />
      <Card>
        <ContactsEditor
          form={form}
          field={fields.contacts as unknown as ObjectField}
          types={CAMPUS_CONTACT_TYPES}
          countries={countries}
        />
      </Card>
      <SaveButton intent="contacts" />
    </AppForm>
  );
}

function AddressesTab() {
  const { t } = useTranslation();
  const { campus, countries, can: allowed } = useLoaderData<typeof loader>();
  const [form, fields] = useIntentForm('addresses', addressesIntent, {
    billing_address: addressFormValue(campus.billing_address),
    mailing_address: addressFormValue(campus.mailing_address),
  });
  if (!allowed.update || !countries)
    return (
      <div className="grid gap-6 lg:grid-cols-2">
        <AddressView address={campus.billing_address} title={t('contacts.address.billing')} />
        <AddressView address={campus.mailing_address} title={t('contacts.address.mailing')} />
      </div>
    );
  return (
    <AppForm method="post" {...getFormProps(form)} className="space-y-6">
      <FormErrors errors={form.errors} />
      <div className="grid gap-6 lg:grid-cols-2">
        <AddressFieldset
          field={fields.billing_address as unknown as ObjectField}
          kind="billing"
          countries={countries}
        />
        <AddressFieldset
          field={fields.mailing_address as unknown as ObjectField}
          kind="mailing"
          countries={countries}
        />
      </div>
      <SaveButton intent="addresses" />
    </AppForm>
  );
}

function ContractsTab() {
  const { t, i18n } = useTranslation();
  const { campus, contracts, contract } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const base = `/clients/${campus.client.id}/campuses/${campus.id}`;
  const href = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'contracts');
    next.set('contract', id);
    next.delete('saved');
    return localePath(i18n.language, `${base}?${next}`);
  };
  return (
    <div className="space-y-6">
      {contract ? <ContractDetail /> : null}
      <form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <input type="hidden" name="tab" value="contracts" />
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('contracts.filters.status')}</span>
          <select
            name="status"
            defaultValue={params.get('status') ?? ''}
            className="rounded-lg border-0 py-2 ring-1 ring-slate-300"
          >
            <option value="">{t('contracts.filters.any')}</option>
            <option value="active">{t('contracts.statuses.active')}</option>
            <option value="archived">{t('contracts.statuses.archived')}</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('contracts.filters.period')}</span>
          <select
            name="period"
            defaultValue={params.get('period') ?? ''}
            className="rounded-lg border-0 py-2 ring-1 ring-slate-300"
          >
            <option value="">{t('contracts.filters.any')}</option>
            {(['current', 'future', 'expired'] as const).map((p) => (
              <option key={p} value={p}>
                {t(`contracts.periods.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('contracts.filters.search')}</span>
          <input
            name="search"
            defaultValue={params.get('search') ?? ''}
            className="rounded-lg border-0 py-2 ring-1 ring-slate-300"
          />
        </label>
        <Button type="submit" variant="secondary">
          {t('contracts.filters.apply')}
        </Button>
      </form>
      {contracts ? (
        <ContractsTable contracts={contracts} href={(c) => href(c.id)} showCampus={false} />
      ) : null}
    </div>
  );
}

function ContractDetail() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { campus, contract, contractLogs, can: allowed } = useLoaderData<typeof loader>();
  const action = useActionData<typeof action>() as ActionData;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useIntentForm('contract_clone', contractCloneIntent, {
    contract_id: contract?.id ?? '',
    campus_id: campus.id,
    start_date: '',
    end_date: '',
  });
  if (!contract) return null;
  const statusError = action?.intent === 'contract_status' && !action.saved ? action.result.error : null;
  const close = localePath(i18n.language, `/clients/${campus.client.id}/campuses/${campus.id}?tab=contracts`);
  return (
    <Card>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold text-slate-900" data-testid="contract-title">
            {contract.name === contract.product.name
              ? contract.product.name
              : `${contract.product.name} · ${contract.name}`}
          </h2>
          <div className="mt-1">
            <ContractStatus contract={contract} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {allowed.archiveContract ? (
            <AppForm method="post">
              <input type="hidden" name="contract_id" value={contract.id} />
              <input
                type="hidden"
                name="status"
                value={contract.status === 'active' ? 'archived' : 'active'}
              />
              <Button
                type="submit"
                name="intent"
                value="contract_status"
                variant={contract.status === 'active' ? 'danger' : 'primary'}
                disabled={busy}
              >
                {contract.status === 'active' ? t('contracts.archive') : t('contracts.reactivate')}
              </Button>
            </AppForm>
          ) : null}
          <ButtonLink to={close} variant="secondary">
            {t('common.close')}
          </ButtonLink>
        </div>
      </div>
      {statusError ? <FormErrors errors={Object.values(statusError).flat() as string[]} /> : null}
      <Facts
        items={[
          {
            label: t('contracts.fields.product'),
            value: `${contract.product.name} (${contract.product.code})`,
          },
          {
            label: t('contracts.fields.agreement'),
            value: contract.service_agreement?.name ?? t('contracts.no_agreement'),
          },
          { label: t('contracts.fields.start_date'), value: formatDate(contract.start_date) },
          {
            label: t('contracts.fields.end_date'),
            value: contract.end_date ? formatDate(contract.end_date) : t('contracts.open_ended'),
          },
          {
            label: t('contracts.fields.net_price'),
            value: formatMoney(contract.net_price, contract.currency),
          },
          {
            label: t('contracts.fields.sale_price'),
            value: formatMoney(contract.sale_price, contract.currency),
          },
          {
            label: t('contracts.fields.custom_price'),
            value: formatMoney(contract.custom_price, contract.currency),
          },
          { label: t('contracts.fields.min_days'), value: contract.min_days },
          { label: t('contracts.fields.po_number'), value: contract.po_number },
          {
            label: t('contracts.fields.tax_rate'),
            value: contract.tax_rate == null ? null : `${contract.tax_rate}%`,
          },
          { label: t('contracts.fields.unit'), value: contract.unit },
          { label: t('contracts.fields.updated_at'), value: formatDateTime(contract.updated_at) },
        ]}
      />
      {allowed.cloneContract ? (
        <details
          className="mt-6 rounded-lg ring-1 ring-slate-200"
          open={action?.intent === 'contract_clone' || undefined}
        >
          <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-primary-800">
            {t('contracts.clone')}
          </summary>
          <AppForm method="post" {...getFormProps(form)} className="grid gap-4 px-4 pb-4 sm:grid-cols-3">
            <input type="hidden" name="contract_id" value={contract.id} />
            <input type="hidden" name="campus_id" value={campus.id} />
            <div className="sm:col-span-3">
              <FormErrors errors={form.errors?.map((e) => m(e))} />
              <p className="text-sm text-slate-600">{t('contracts.clone_hint')}</p>
            </div>
            <Field label={t('contracts.fields.start_date')} field={fields.start_date} type="date" />
            <Field label={t('contracts.fields.end_date')} field={fields.end_date} type="date" />
            <div className="self-end">
              <Button type="submit" name="intent" value="contract_clone" disabled={busy}>
                {t('contracts.clone')}
              </Button>
            </div>
          </AppForm>
        </details>
      ) : null}
      {contractLogs ? (
        <div className="mt-6">
          <h3 className="mb-2 text-sm font-semibold text-slate-900">{t('contracts.logs')}</h3>
          <ActivityLog rows={contractLogs.items} meta={contractLogs.meta} />
        </div>
      ) : null}
    </Card>
  );
}

function UsersTab() {
  const { t } = useTranslation();
  const { users } = useLoaderData<typeof loader>();
  if (!users) return null;
  return (
    <DataTable
      rows={users.items}
      rowId={(u) => u.id}
      meta={users.meta}
      caption={t('campuses.tabs.users')}
      empty={t('campuses.users.empty')}
      columns={[
        {
          key: 'name',
          header: t('campuses.users.name'),
          render: (u) => <span className="font-medium">{u.full_name}</span>,
        },
        { key: 'email', header: t('campuses.users.email'), render: (u) => u.email },
        { key: 'role', header: t('campuses.users.role'), render: (u) => u.role ?? '—' },
        {
          key: 'access',
          header: t('campuses.users.access'),
          render: (u) =>
            u.can_access_all_campuses ? t('campuses.users.all_campuses') : t('campuses.users.this_campus'),
        },
        {
          key: 'status',
          header: t('campuses.users.status'),
          render: (u) => (
            <StatusBadge tone={statusTone(u.status)}>{t(`campuses.user_statuses.${u.status}`)}</StatusBadge>
          ),
        },
      ]}
    />
  );
}
