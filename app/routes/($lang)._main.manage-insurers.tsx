import {
  json,
  type LoaderFunctionArgs,
  type MetaFunction,
  type ActionFunctionArgs,
} from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { visibleCompanies } from '@server/domain/access/scope';
import { activeCountries } from '@server/domain/countries/service';
import {
  constraintsOf,
  idSchema,
  insurerListSchema,
  insurerSchema,
  insurerStatusSchema,
} from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import {
  createInsurer,
  deleteInsurer,
  getInsurer,
  insurerActivity,
  insurersSummary,
  listInsurers,
  updateInsurer,
  updateInsurerStatus,
} from '@server/domain/insurers/service';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, Field, FormErrors, Label, SelectField, inputClass } from '~/components/forms';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, Card, PageHeader } from '~/components/ui/card';
import { DataTable, type Column } from '~/components/ui/data-table';
import { FiltersBar, useExportHref } from '~/components/ui/list-controls';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ActivityLog } from '~/components/activity/activity-log';
import { ConfirmButton } from '~/components/ui/confirm';
import { msg } from '@server/domain/messages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_insurer',
    query: insurerListSchema,
    async load({ ctx, query, request, context }) {
      const editId = new URL(request.url).searchParams.get('edit');
      const [list, summary, editing, logs, countries] = await Promise.all([
        listInsurers(ctx, query),
        insurersSummary(ctx),
        editId ? getInsurer(ctx, editId) : null,
        editId ? insurerActivity(ctx, editId, 1) : null,
        activeCountries(ctx.db),
      ]);
      const companies = visibleCompanies(ctx.actor).map((c) => ({ id: c.public_id, name: c.name }));
      return json({
        list,
        summary,
        editing,
        logs,
        companies,
        phoneCountries: countries.map((c) => ({
          abbreviation: c.abbreviation,
          name: c.name,
          dial_code: c.dial_code,
        })),
        canCreate: can(ctx.actor, 'create_insurer'),
        canUpdate: can(ctx.actor, 'update_insurer'),
        canDelete: can(ctx.actor, 'delete_insurer'),
        constraint: constraintsOf(insurerSchema),
        title: pageTitle(context, request, 'insurers.title'),
      });
    },
  })(args);

/** Add, update, activate or archive, and delete an insurer. */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    intents: {
      create: { schema: insurerSchema, permission: 'create_insurer' },
      update: { schema: idSchema.and(insurerSchema), permission: 'update_insurer' },
      status: { schema: idSchema.merge(insurerStatusSchema), permission: 'update_insurer' },
      delete: {
        schema: idSchema,
        permission: 'delete_insurer',
        confirm: {
          question: async ({ id }: { id: string }, { ctx }) =>
            msg('insurers.delete_confirm', { name: (await getInsurer(ctx, id)).name }),
          button: 'insurers.delete',
        },
      },
    },
    async handle(input, { ctx, request, redirect }) {
      // Back to the list as it was (filters, page), with the form closed.
      const back = (toast: string) => {
        const params = new URL(request.url).searchParams;
        params.delete('edit');
        params.delete('add');
        return redirect(`/manage-insurers?${params}`, toast);
      };
      switch (input.intent) {
        case 'create':
          await createInsurer(ctx, input);
          return back('insurers.created');
        case 'update':
          await updateInsurer(ctx, input.id, input);
          return back('insurers.updated');
        case 'status':
          await updateInsurerStatus(ctx, input.id, input.status);
          return { toast: input.status === 'active' ? 'insurers.activated' : 'insurers.archived' };
        case 'delete':
          await deleteInsurer(ctx, input.id);
          return { toast: 'insurers.deleted' };
        default:
          return unreachable(input);
      }
    },
  })(args);

type Row = ReturnType<typeof useLoaderData<typeof loader>>['list']['items'][number];

export default function ManageInsurers() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const {
    list,
    summary,
    editing,
    logs,
    companies,
    phoneCountries,
    canCreate,
    canUpdate,
    canDelete,
    constraint,
  } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const [params] = useSearchParams();
  const exportHref = useExportHref();
  const busy = useNavigation().state === 'submitting';
  const to = (path: string) => localePath(i18n.language, path);

  const formOpen =
    !!editing ||
    params.get('add') === '1' ||
    ((data?.intent === 'create' || data?.intent === 'update') && !data.ok);
  const formId = editing ? `insurer-${editing.id}` : 'insurer-new';
  const [form, fields] = useSchemaForm({
    id: formId,
    schema: () => import('@server/domain/insurers/schema').then((m) => m.insurerSchema),
    lastResult: data?.intent === 'create' || data?.intent === 'update' ? data.submission : undefined,
    defaultValue: editing
      ? {
          name: editing.name,
          code: editing.code ?? '',
          email: editing.email ?? '',
          phone_country: editing.phone_country ?? '',
          phone_number: editing.phone_number ?? '',
          website: editing.website ?? '',
        }
      : { company_id: companies.length === 1 ? companies[0].id : '' },
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });

  const closeHref = (() => {
    const next = new URLSearchParams(params);
    next.delete('edit');
    next.delete('add');
    return `?${next}`;
  })();
  const linkWith = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.delete('edit');
    next.delete('add');
    next.set(key, value);
    return `?${next}`;
  };

  const columns: Column<Row>[] = [
    {
      key: 'name',
      card: 'title',
      header: t('insurers.name'),
      sort: 'name',
      render: (r) => <span className="font-medium text-slate-900">{r.name}</span>,
    },
    { key: 'code', card: 'figure', header: t('insurers.code'), sort: 'code', render: (r) => r.code ?? '—' },
    {
      key: 'email',
      card: 'figure',
      header: t('insurers.email'),
      sort: 'email',
      render: (r) =>
        r.email ? (
          <a href={`mailto:${r.email}`} className="text-primary-800 hover:underline">
            {r.email}
          </a>
        ) : (
          '—'
        ),
    },
    {
      key: 'phone',
      card: 'hidden',
      header: t('insurers.phone'),
      render: (r) => {
        if (!r.phone_number) return '—';
        const dial = phoneCountries.find((c) => c.abbreviation === r.phone_country)?.dial_code;
        return (
          <span className="whitespace-nowrap">{dial ? `+${dial} ${r.phone_number}` : r.phone_number}</span>
        );
      },
    },
    {
      key: 'website',
      card: 'hidden',
      header: t('insurers.website'),
      render: (r) =>
        r.website ? (
          <a
            href={r.website}
            target="_blank"
            rel="noreferrer noopener"
            className="text-primary-800 hover:underline"
          >
            {r.website.replace(/^https?:\/\//, '')}
          </a>
        ) : (
          '—'
        ),
    },
    ...(companies.length > 1
      ? [
          {
            key: 'company',
            card: 'hidden' as const,
            header: t('insurers.company'),
            sort: 'company',
            render: (r: Row) => r.company_name,
          },
        ]
      : []),
    {
      key: 'status',
      card: 'status',
      header: t('insurers.status'),
      sort: 'status',
      render: (r) => (
        <StatusBadge tone={statusTone(r.status)}>{t(`insurers.statuses.${r.status}`)}</StatusBadge>
      ),
    },
    {
      key: 'actions',
      card: 'actions',
      header: <span className="sr-only">{t('insurers.actions')}</span>,
      className: 'text-right',
      render: (r) => (
        <div className="flex justify-end gap-3 whitespace-nowrap">
          {canUpdate ? (
            <>
              <Link
                to={linkWith('edit', r.id)}
                preventScrollReset
                className="font-medium text-primary-800 hover:underline"
              >
                {t('insurers.edit')}
              </Link>
              <AppForm method="post" preventScrollReset>
                <input type="hidden" name="intent" value="status" />
                <input type="hidden" name="id" value={r.id} />
                <input type="hidden" name="status" value={r.status === 'active' ? 'archived' : 'active'} />
                <button
                  type="submit"
                  disabled={busy}
                  className="font-medium text-slate-600 hover:text-slate-900 hover:underline"
                >
                  {t(r.status === 'active' ? 'insurers.archive' : 'insurers.activate')}
                </button>
              </AppForm>
            </>
          ) : null}
          {canDelete ? (
            <AppForm method="post" preventScrollReset>
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={r.id} />
              <ConfirmButton
                disabled={busy}
                className="font-medium text-red-700 hover:underline"
                question={t('insurers.delete_confirm', { name: r.name })}
              >
                {t('insurers.delete')}
              </ConfirmButton>
            </AppForm>
          ) : null}
        </div>
      ),
    },
  ];

  const failure = data && !data.ok && data.error ? data : null;
  return (
    <div className="mx-auto max-w-7xl">
      <PageHeader
        title={t('insurers.title')}
        description={t('insurers.intro')}
        actions={
          canCreate && !formOpen ? (
            <ButtonLink to={linkWith('add', '1')} preventScrollReset>
              {t('insurers.add')}
            </ButtonLink>
          ) : null
        }
      />
      <SummaryTiles
        tiles={[
          { label: t('insurers.summary.total'), value: summary.total },
          { label: t('insurers.summary.active'), value: summary.active },
          { label: t('insurers.summary.archived'), value: summary.archived },
        ]}
      />
      {failure ? (
        <div className="mb-4">
          <Alert>
            <p className="font-semibold">
              {t(failure.intent === 'delete' ? 'insurers.delete_failed' : 'insurers.status_failed')}
            </p>
            <p>{m(failure.error)}</p>
          </Alert>
        </div>
      ) : null}
      {formOpen && (editing ? canUpdate : canCreate) ? (
        <Card className="mb-6">
          <h2 className="mb-4 text-lg font-semibold text-slate-900">
            {editing ? t('insurers.edit_title', { name: editing.name }) : t('insurers.add')}
          </h2>
          <AppForm method="post" {...getFormProps(form)} key={formId} className="space-y-4">
            <FormErrors errors={form.errors} />
            {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              <Field label={t('insurers.name')} field={fields.name} />
              <Field label={t('insurers.code')} field={fields.code} hint={t('insurers.code_hint')} />
              <Field label={t('insurers.email')} field={fields.email} type="email" />
              <div className="grid grid-cols-[7rem_1fr] items-start gap-3">
                <Field
                  label={t('insurers.phone_country')}
                  field={fields.phone_country}
                  hint={t('insurers.phone_country_hint')}
                  inputProps={{
                    maxLength: 2,
                    list: 'insurer-phone-countries',
                    autoComplete: 'off',
                    style: { textTransform: 'uppercase' },
                  }}
                />
                <Field
                  label={t('insurers.phone_number')}
                  field={fields.phone_number}
                  type="tel"
                  inputProps={{ inputMode: 'numeric' }}
                />
              </div>
              <Field
                label={t('insurers.website')}
                field={fields.website}
                inputProps={{ placeholder: 'https://' }}
              />
              {!editing && companies.length > 1 ? (
                <SelectField
                  label={t('insurers.company')}
                  field={fields.company_id}
                  placeholder={t('insurers.choose_company')}
                  options={companies.map((c) => ({ value: c.id, label: c.name }))}
                />
              ) : (
                <input
                  type="hidden"
                  name={fields.company_id.name}
                  value={editing ? '' : (companies[0]?.id ?? '')}
                />
              )}
            </div>
            <datalist id="insurer-phone-countries">
              {phoneCountries.map((c) => (
                <option key={c.abbreviation} value={c.abbreviation}>
                  {c.name}
                  {c.dial_code ? ` (+${c.dial_code})` : ''}
                </option>
              ))}
            </datalist>
            <div className="flex flex-wrap gap-3">
              <Button type="submit" name="intent" value={editing ? 'update' : 'create'} disabled={busy}>
                {editing ? t('common.save') : t('insurers.create')}
              </Button>
              <Link to={closeHref} preventScrollReset className={buttonClass('secondary')}>
                {t('common.cancel')}
              </Link>
            </div>
          </AppForm>
          {editing && logs ? (
            <details className="mt-6">
              <summary className="cursor-pointer text-sm font-semibold text-primary-800">
                {t('insurers.logs', { count: logs.meta.total })}
              </summary>
              <div className="mt-3">
                <ActivityLog rows={logs.items} meta={logs.meta} />
              </div>
            </details>
          ) : null}
        </Card>
      ) : null}
      <FiltersBar exportHref={exportHref}>
        <div>
          <Label htmlFor="insurer-search">{t('insurers.search')}</Label>
          <input
            id="insurer-search"
            name="search"
            type="search"
            defaultValue={params.get('search') ?? ''}
            placeholder={t('insurers.search_placeholder')}
            className={inputClass}
          />
        </div>
        <div>
          <Label htmlFor="insurer-status">{t('insurers.status')}</Label>
          <select
            id="insurer-status"
            name="status"
            defaultValue={params.get('status') ?? 'all'}
            className={inputClass}
          >
            <option value="all">{t('insurers.statuses.all')}</option>
            <option value="active">{t('insurers.statuses.active')}</option>
            <option value="archived">{t('insurers.statuses.archived')}</option>
          </select>
        </div>
      </FiltersBar>
      <DataTable
        rows={list.items}
        columns={columns}
        rowId={(r) => r.id}
        meta={list.meta}
        caption={t('insurers.title')}
        empty={
          <span>
            {t('insurers.empty')}{' '}
            {canCreate ? (
              <Link
                to={to(`/manage-insurers${linkWith('add', '1')}`)}
                className="font-medium text-primary-800 hover:underline"
              >
                {t('insurers.add')}
              </Link>
            ) : null}
          </span>
        }
      />
    </div>
  );
}
