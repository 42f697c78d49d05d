/**
 * /clients/{id}/service-agreement/{service_agreement}/edit: the agreement with its status (pending,
 * active, inactive) and validity; "Update" saves it (an active agreement's contracts follow its rows),
 * "Update and approve" makes a pending or inactive one active; "Deactivate" archives its contracts.
 * Documents (several, stored in R2, downloaded by index), the contracts it made, and its logs.
 */
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare';
import { Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import {
  AGREEMENT_DOCUMENT_KINDS,
  AGREEMENT_DOCUMENT_MAX_MB,
} from '@server/domain/service-agreements/values';
import { addAgreementDocuments, removeAgreementDocument } from '@server/domain/service-agreements/documents';
import {
  agreementFormOptions,
  getServiceAgreement,
  serviceAgreementActivities,
  serviceAgreementContracts,
} from '@server/domain/service-agreements/queries';
import { setServiceAgreementStatus, updateServiceAgreement } from '@server/domain/service-agreements/service';
import { translate } from '@server/platform/i18n';
import { useSchemaForm } from '~/lib/schema-form';
import {
  agreementDocumentIndexSchema,
  constraintsOf,
  contractListQuerySchema,
  emptySchema,
  updateAgreementSchema,
  idsSchema,
} from '~/lib/schemas.server';
import { intentAction } from '~/lib/actions.server';
import { answerOf, unreachable } from '~/lib/actions';
import { queryOf } from '~/lib/lists.server';
import { formatDate, formatDateTime } from '~/lib/dates';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import { ActivityLog } from '~/components/activity/activity-log';
import { Facts } from '~/components/ui/facts';
import { DefaultSubmit } from '~/components/campuses/campus-bits';
import { ContractsTable } from '~/components/contracts/contracts-table';
import {
  AgreementFields,
  AgreementStatus,
  agreementFormValue,
} from '~/components/service-agreements/agreement-form';
import { pageLoader, notFound } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_service_agreement',
    params: idsSchema('id', 'agreementId'),
    async load({ ctx, request, context, params, lang }) {
      const id = params.agreementId;
      const agreement = await getServiceAgreement(ctx, id);
      if (agreement.client.id !== params.id) throw notFound();
      const query = queryOf(request);
      const canReadContracts = can(ctx.actor, 'read_contract');
      const [options, contracts, logs] = await Promise.all([
        agreementFormOptions(ctx, agreement.client.id),
        canReadContracts
          ? serviceAgreementContracts(ctx, id, contractListQuerySchema.parse({ ...query, search: undefined }))
          : null,
        serviceAgreementActivities(ctx, id, 1, 20),
      ]);
      return {
        constraint: constraintsOf(updateAgreementSchema),
        agreement,
        options,
        contracts,
        logs,
        can: { update: can(ctx.actor, 'update_service_agreement') },
        title: translate(lang, 'app.title_template', {
          title: agreement.name,
          product: context.env.PRODUCT_NAME,
        }),
      };
    },
  })(args);

export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idsSchema('id', 'agreementId'),
    intents: {
      save: { schema: updateAgreementSchema, permission: 'update_service_agreement' },
      activate: { schema: emptySchema, permission: 'update_service_agreement' },
      deactivate: { schema: emptySchema, permission: 'update_service_agreement' },
      documents: { schema: emptySchema, permission: 'update_service_agreement' },
      remove_document: {
        schema: agreementDocumentIndexSchema,
        permission: 'update_service_agreement',
      },
    },
    async handle(input, { ctx, params, formData, redirect }) {
      const id = params.agreementId;
      // Saving or activating an active agreement writes its contracts, and the toast says so.
      const done = (status?: string) =>
        redirect(
          `/clients/${params.id}/service-agreement/${id}/edit`,
          status === 'active' ? 'contracts.saved' : 'service_agreements.saved',
        );
      switch (input.intent) {
        case 'save': {
          const { intent: _intent, ...values } = input;
          return done((await updateServiceAgreement(ctx, id, values)).status);
        }
        case 'activate':
        case 'deactivate': {
          const status = input.intent === 'activate' ? 'active' : 'inactive';
          return done((await setServiceAgreementStatus(ctx, id, status)).status);
        }
        case 'documents':
          await addAgreementDocuments(ctx, id, formData.getAll('documents'));
          return done();
        case 'remove_document':
          await removeAgreementDocument(ctx, id, input.index);
          return done();
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function EditAgreement() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { agreement, options, contracts, logs, can: allowed, constraint } = useLoaderData<typeof loader>();
  const answer = answerOf(useActionData<typeof action>());
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/service-agreements/schema').then((m) => m.updateAgreementSchema),
    id: 'agreement',
    lastResult: answer?.intent === 'save' ? answer.submission : undefined,
    defaultValue: agreementFormValue(agreement) as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const to = (path: string) => localePath(i18n.language, path);
  const clientPage = to(`/clients/${agreement.client.id}/service-agreements`);
  const base = `/clients/${agreement.client.id}/service-agreement/${agreement.id}`;
  const actionErrors = answer && answer.intent !== 'save' && answer.error ? [answer.error] : [];
  return (
    <div className="mx-auto max-w-6xl">
      <nav className="mb-2 text-sm text-slate-600" aria-label={t('service_agreements.breadcrumb')}>
        <Link to={clientPage} className="hover:underline">
          {agreement.client.name}
        </Link>{' '}
        / {t('service_agreements.title')}
      </nav>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {agreement.name}
            <AgreementStatus status={agreement.status} valid={agreement.valid} />
          </span>
        }
        description={t('service_agreements.summary', {
          start: formatDate(agreement.start_date),
          end: agreement.end_date ? formatDate(agreement.end_date) : t('service_agreements.no_end'),
          rows: agreement.rows.length,
          contracts: agreement.active_contracts,
        })}
        actions={
          allowed.update ? (
            <AppForm method="post">
              {agreement.status === 'active' ? (
                <Button type="submit" name="intent" value="deactivate" variant="danger" disabled={busy}>
                  {t('service_agreements.deactivate')}
                </Button>
              ) : (
                <Button type="submit" name="intent" value="activate" disabled={busy}>
                  {agreement.status === 'pending'
                    ? t('service_agreements.approve')
                    : t('service_agreements.activate')}
                </Button>
              )}
            </AppForm>
          ) : null
        }
      />
      {actionErrors.length ? (
        <div className="mb-4">
          <FormErrors errors={actionErrors.map((e) => m(e))} />
        </div>
      ) : null}
      <div className="space-y-6">
        <Card>
          <Facts
            items={[
              {
                label: t('service_agreements.fields.status'),
                value: t(`service_agreements.statuses.${agreement.status}`),
              },
              {
                label: t('service_agreements.fields.started'),
                value: agreement.started
                  ? t('service_agreements.started')
                  : t('service_agreements.not_started'),
              },
              {
                label: t('service_agreements.fields.approved_at'),
                value: agreement.approved_at ? formatDateTime(agreement.approved_at) : '—',
              },
            ]}
          />
        </Card>
        {allowed.update ? (
          <AppForm method="post" {...getFormProps(form)} className="space-y-6">
            <input type="hidden" name="intent" value="save" />
            <DefaultSubmit name="approve" value="save" />
            <FormErrors errors={form.errors} />
            <Card>
              {/* The schema loads lazily (useSchemaForm), so Conform cannot type the fields: they are updateAgreementSchema's. */}
              <AgreementFields
                form={form}
                fields={fields as unknown as Parameters<typeof AgreementFields>[0]['fields']}
                options={options}
                usedProductIds={agreement.rows.map((r) => r.product.id)}
              />
            </Card>
            <div className="flex flex-wrap gap-3">
              <Button
                type="submit"
                name="approve"
                value="save"
                variant={agreement.status === 'active' ? 'primary' : 'secondary'}
                disabled={busy}
              >
                {t('service_agreements.update')}
              </Button>
              {agreement.status !== 'active' ? (
                <Button type="submit" name="approve" value="approve" disabled={busy}>
                  {agreement.status === 'pending'
                    ? t('service_agreements.update_and_approve')
                    : t('service_agreements.update_and_activate')}
                </Button>
              ) : null}
              <ButtonLink to={clientPage} variant="ghost">
                {t('common.cancel')}
              </ButtonLink>
            </div>
            <p className="text-sm text-slate-600">
              {agreement.status === 'active'
                ? t('service_agreements.active_hint')
                : t('service_agreements.approve_hint')}
            </p>
          </AppForm>
        ) : null}
        <Card>
          <h2 className="mb-3 text-base font-semibold">{t('service_agreements.documents.title')}</h2>
          {agreement.files.length ? (
            <ul className="divide-y divide-slate-100 text-sm">
              {agreement.files.map((f) => (
                <li key={f.index} className="flex flex-wrap items-center justify-between gap-3 py-2">
                  <a
                    href={to(`${base}/documents/${f.index}`)}
                    className="font-medium text-primary-800 hover:underline"
                    download
                  >
                    {f.name}
                  </a>
                  <span className="text-slate-500">
                    {Math.max(1, Math.round(f.size / 1024))} KB · {formatDateTime(f.created_at)}
                  </span>
                  {allowed.update ? (
                    <AppForm method="post">
                      <input type="hidden" name="index" value={f.index} />
                      <Button
                        type="submit"
                        name="intent"
                        value="remove_document"
                        variant="ghost"
                        className="py-1 text-red-700"
                        disabled={busy}
                      >
                        {t('service_agreements.documents.remove')}
                      </Button>
                    </AppForm>
                  ) : null}
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-slate-500">{t('service_agreements.documents.empty')}</p>
          )}
          {allowed.update ? (
            <AppForm
              method="post"
              encType="multipart/form-data"
              className="mt-4 flex flex-wrap items-end gap-3"
            >
              <label className="text-sm">
                <span className="mb-1 block font-medium text-slate-700">
                  {t('service_agreements.documents.add')}
                </span>
                <input
                  type="file"
                  name="documents"
                  multiple
                  required
                  accept={AGREEMENT_DOCUMENT_KINDS.map((k) => `.${k}`).join(',')}
                  className="block text-sm"
                />
                <span className="mt-1 block text-xs text-slate-500">
                  {t('service_agreements.documents.hint', { size: AGREEMENT_DOCUMENT_MAX_MB })}
                </span>
              </label>
              <Button type="submit" name="intent" value="documents" variant="secondary" disabled={busy}>
                {t('service_agreements.documents.upload')}
              </Button>
            </AppForm>
          ) : null}
        </Card>
        {contracts ? (
          <section>
            <h2 className="mb-3 text-base font-semibold">{t('service_agreements.contracts')}</h2>
            <ContractsTable
              contracts={contracts}
              showAgreement={false}
              href={(c) =>
                to(`/clients/${agreement.client.id}/campuses/${c.campus.id}/contracts?contract=${c.id}`)
              }
            />
          </section>
        ) : null}
        <section>
          <h2 className="mb-3 text-base font-semibold">{t('service_agreements.logs')}</h2>
          <ActivityLog rows={logs.items} meta={logs.meta} />
        </section>
      </div>
    </div>
  );
}
