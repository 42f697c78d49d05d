import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { can } from '@server/domain/access/actor';
import { canArchive } from '@server/domain/access/archiving';
import {
  companyActivity,
  getCompany,
  SAVE_FAILED,
  updateCompany,
  updateCompanyStatus,
} from '@server/domain/companies/service';
import { countryOptions } from '@server/domain/contacts/service';
import { translate } from '@server/platform/i18n';
import { pageLoader } from '~/lib/loaders.server';
import { intentAction, unreachable } from '~/lib/actions';
import { useSchemaForm } from '~/lib/schema-form';
import {
  companySchema,
  companyStatusSchema,
  constraintsOf,
  idSchema,
  pageQuerySchema,
} from '~/lib/schemas.server';
import { useMessage } from '~/lib/messages';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink, buttonClass } from '~/components/ui/button';
import { Alert, PageHeader } from '~/components/ui/card';
import { StatusBadge, statusTone } from '~/components/ui/status-badge';
import { SummaryTiles } from '~/components/ui/summary-tiles';
import { ActivityLog } from '~/components/activity/activity-log';
import { CompanyFormSections, companyFormValue } from '~/components/companies/company-form';
import { ConfirmButton } from '~/components/ui/confirm';
import { msg } from '@server/domain/messages';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'read_company',
    params: idSchema,
    query: pageQuerySchema,
    async load({ ctx, params: { id }, query, lang, context }) {
      const [company, logs, countries] = await Promise.all([
        getCompany(ctx, id),
        companyActivity(ctx, id, query.page),
        countryOptions(ctx.db),
      ]);
      return json({
        company,
        logs,
        countries,
        constraint: constraintsOf(companySchema),
        canUpdate: can(ctx.actor, 'update_company'),
        canArchive: canArchive(ctx.actor, 'company'),
        title: translate(lang, 'app.title_template', {
          title: company.name,
          product: context.env.PRODUCT_NAME,
        }),
      });
    },
  })(args);

/**
 * Save the company (every field, contacts and addresses) or change its status. A refused save says
 * 'Unable to save the company!' above the form (spec 001 s.8).
 */
export const action = (args: ActionFunctionArgs) =>
  intentAction({
    params: idSchema,
    intents: {
      save: { schema: companySchema, permission: 'update_company', formError: SAVE_FAILED },
      status: {
        schema: companyStatusSchema,
        permission: 'update_company|archive_company',
        confirm: {
          question: async (_input: unknown, { ctx, params }) =>
            msg('companies.archive_confirm', {
              name: (await getCompany(ctx, (params as { id: string }).id)).name,
            }),
          button: 'companies.archive',
          when: (input: { status: string }) => input.status === 'archived',
        },
      },
    },
    async handle(input, { ctx, params: { id } }) {
      switch (input.intent) {
        case 'save':
          await updateCompany(ctx, id, input);
          return { toast: 'companies.updated' };
        case 'status':
          await updateCompanyStatus(ctx, id, input.status);
          return { toast: input.status === 'active' ? 'companies.activated' : 'companies.archived' };
        default:
          return unreachable(input);
      }
    },
  })(args);

export default function EditCompany() {
  const { t, i18n } = useTranslation();
  const m = useMessage();
  const { company, logs, countries, canUpdate, canArchive, constraint } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    id: `company-${company.id}`,
    schema: () => import('@server/domain/companies/schema').then((m) => m.companySchema),
    lastResult: data?.intent === 'save' ? data.submission : undefined,
    constraint,
    defaultValue: companyFormValue(company as never) as never,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  const failure = data?.intent === 'status' && !data.ok && data.error ? data.error : null;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-3">
            {company.name}
            <StatusBadge tone={statusTone(company.status)}>
              {t(`companies.statuses.${company.status}`)}
            </StatusBadge>
          </span>
        }
        description={[company.country_name, company.currency, company.registration_number]
          .filter(Boolean)
          .join(' · ')}
        actions={
          <>
            <ButtonLink to={localePath(i18n.language, '/manage-company')} variant="secondary">
              {t('companies.back_to_list')}
            </ButtonLink>
            {canArchive ? (
              <AppForm method="post">
                <input type="hidden" name="intent" value="status" />
                <input
                  type="hidden"
                  name="status"
                  value={company.status === 'active' ? 'archived' : 'active'}
                />
                {company.status === 'active' ? (
                  <ConfirmButton
                    className={buttonClass('danger')}
                    disabled={busy}
                    question={t('companies.archive_confirm', { name: company.name })}
                  >
                    {t('companies.archive')}
                  </ConfirmButton>
                ) : (
                  <Button type="submit" variant="primary" disabled={busy}>
                    {t('companies.activate')}
                  </Button>
                )}
              </AppForm>
            ) : null}
          </>
        }
      />
      {failure ? (
        <Alert>
          <p className="font-semibold">{t('companies.status_failed')}</p>
          <p>{m(failure)}</p>
        </Alert>
      ) : null}
      <SummaryTiles
        tiles={[
          { label: t('companies.summary.users'), value: company.summary.users },
          { label: t('companies.summary.clients'), value: company.summary.clients },
          { label: t('companies.fields.currency'), value: company.currency },
          {
            label: t('companies.fields.payment_gateway'),
            value: t(`companies.gateways.${company.payment_gateway ?? 'none'}`),
          },
        ]}
      />
      {canUpdate ? (
        <AppForm method="post" {...getFormProps(form)} className="space-y-6">
          <button
            type="submit"
            name="intent"
            value="save"
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
          />
          <FormErrors errors={form.errors} />
          <CompanyFormSections form={form} fields={fields as never} countries={countries} />
          <FormErrors errors={form.errors} />
          <div className="flex flex-wrap justify-end gap-3">
            <Button type="submit" name="intent" value="save" disabled={busy}>
              {t('companies.save')}
            </Button>
          </div>
        </AppForm>
      ) : (
        <Alert tone="info">{t('companies.read_only')}</Alert>
      )}
      <section>
        <h2 className="mb-3 text-lg font-semibold text-slate-900">{t('companies.sections.logs')}</h2>
        <ActivityLog rows={logs.items} meta={logs.meta} />
      </section>
    </div>
  );
}
