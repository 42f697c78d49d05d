/**
 * A campus's contracts tab: its contracts (filtered by status, period and words) and, at `?contract=`,
 * one contract's detail with its logs, archive/reactivate and clone.
 */
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { campusContract, campusContracts } from '@server/domain/campuses/service';
import { cloneContract, contractActivities, updateContractStatus } from '@server/domain/contracts/service';
import {
  cloneContractFormSchema,
  constraintsOf,
  campusContractsQuerySchema,
  contractStatusFormSchema,
  idsSchema,
} from '~/lib/schemas.server';
import { requireCampusTab } from '~/lib/campuses.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { useSchemaForm } from '~/lib/schema-form';
import { formatDate, formatDateTime } from '~/lib/dates';
import { formatMoney } from '~/lib/money';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { useAnswerError } from '~/components/ui/snackbar';
import { ActivityLog } from '~/components/activity/activity-log';
import { Facts } from '~/components/ui/facts';
import { ContractStatus, ContractsTable } from '~/components/contracts/contracts-table';
import { campusBase, useCampus } from '~/components/campuses/campus-page';
import { pageLoader } from '~/lib/loaders.server';

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_campus',
    params: idsSchema('campusId'),
    query: campusContractsQuerySchema,
    async load({ ctx, params, query }) {
      requireCampusTab(ctx, 'contracts');
      const campusId = params.campusId;
      const [contracts, contract, contractLogs] = await Promise.all([
        campusContracts(ctx, campusId, query),
        query.contract ? campusContract(ctx, campusId, query.contract) : null,
        query.contract ? contractActivities(ctx, query.contract, 1, 50) : null,
      ]);
      return json({ contracts, contract, contractLogs, constraint: constraintsOf(cloneContractFormSchema) });
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idsSchema('id', 'campusId'),
    intents: {
      contract_status: { schema: contractStatusFormSchema, permission: 'archive_contract' },
      contract_clone: { schema: cloneContractFormSchema, permission: 'create_contract' },
    },
    async handle(input, { ctx, params, redirect }) {
      const campusId = params.campusId;
      // The contract must be this campus's (another campus's id answers 404).
      await campusContract(ctx, campusId, input.contract_id);
      switch (input.intent) {
        case 'contract_status':
          await updateContractStatus(ctx, input.contract_id, input.status);
          return { toast: 'campuses.saved' };
        case 'contract_clone': {
          const { intent: _intent, contract_id, ...clone } = input;
          const copy = await cloneContract(ctx, contract_id, clone);
          return redirect(
            `/clients/${params.id}/campuses/${copy.campus.id}/contracts?contract=${copy.id}`,
            'campuses.saved',
          );
        }
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function CampusContractsTab() {
  const { t } = useTranslation();
  const { contracts, contract } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const href = (id: string) => {
    const next = new URLSearchParams(params);
    next.set('contract', id);
    return `?${next}`;
  };
  const select = 'rounded-lg border-0 py-2 ring-1 ring-slate-300';
  return (
    <div className="space-y-6">
      {contract ? <ContractDetail key={contract.id} /> : null}
      <form method="get" className="flex flex-wrap items-end gap-3" role="search">
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('contracts.filters.status')}</span>
          <select name="status" defaultValue={params.get('status') ?? ''} className={select}>
            <option value="">{t('contracts.filters.any')}</option>
            <option value="active">{t('contracts.statuses.active')}</option>
            <option value="archived">{t('contracts.statuses.archived')}</option>
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('contracts.filters.period')}</span>
          <select name="period" defaultValue={params.get('period') ?? ''} className={select}>
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
          <input name="search" defaultValue={params.get('search') ?? ''} className={select} />
        </label>
        <Button type="submit" variant="secondary">
          {t('contracts.filters.apply')}
        </Button>
      </form>
      <ContractsTable contracts={contracts} href={(c) => href(c.id)} showCampus={false} />
    </div>
  );
}

function ContractDetail() {
  const { t, i18n } = useTranslation();
  const { campus, can: allowed } = useCampus();
  const { contract, contractLogs, constraint } = useLoaderData<typeof loader>();
  const data = answerOf(useActionData<typeof action>());
  useAnswerError(data);
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: 'contract-clone',
    schema: () => import('@server/domain/contracts/schema').then((m) => m.cloneContractFormSchema),
    lastResult: data?.intent === 'contract_clone' ? data.submission : undefined,
    defaultValue: { contract_id: contract?.id ?? '', campus_id: campus.id, start_date: '', end_date: '' },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  if (!contract) return null;
  const statusError = data?.intent === 'contract_status' && !data.ok ? data.error : null;
  const close = localePath(i18n.language, `${campusBase(campus)}/contracts`);
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
      {statusError ? <FormErrors errors={[statusError]} /> : null}
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
          open={data?.intent === 'contract_clone' || undefined}
        >
          <summary className="cursor-pointer px-4 py-3 text-sm font-semibold text-primary-800">
            {t('contracts.clone')}
          </summary>
          <AppForm method="post" {...getFormProps(form)} className="grid gap-4 px-4 pb-4 sm:grid-cols-3">
            <input type="hidden" name="contract_id" value={contract.id} />
            <input type="hidden" name="campus_id" value={campus.id} />
            <div className="sm:col-span-3">
              <FormErrors errors={form.errors} />
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
