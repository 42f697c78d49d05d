import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { createCompany, SAVE_FAILED } from '@server/domain/companies/service';
import { countryOptions } from '@server/domain/contacts/service';
import { companySchema, constraintsOf } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { Button, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { CompanyFormSections, companyFormValue } from '~/components/companies/company-form';
import { pageLoader } from '~/lib/loaders.server';
import { useRootData } from '~/root';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_company',
    otherwise: '/manage-company',
    async load({ ctx, request, context }) {
      return json({
        constraint: constraintsOf(companySchema),
        countries: await countryOptions(ctx.db),
        title: pageTitle(context, request, 'companies.new_title'),
      });
    },
  })(args);

/** On any refusal 'Unable to save the company!' is said above the form (spec 001 s.8). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: companySchema,
    permission: 'create_company',
    formError: SAVE_FAILED,
    async handle(input, { ctx, redirect }) {
      const { id } = await createCompany(ctx, input);
      return redirect(`/manage-company/${id}/edit`, 'companies.created');
    },
  })(args);

export default function NewCompany() {
  const { t, i18n } = useTranslation();
  const { countries, constraint } = useLoaderData<typeof loader>();
  const { region } = useRootData();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/companies/schema').then((m) => m.companySchema),
    id: 'new-company',
    lastResult,
    defaultValue: companyFormValue(null, region) as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t('companies.new_title')}
        description={t('companies.new_intro')}
        actions={
          <ButtonLink to={localePath(i18n.language, '/manage-company')} variant="secondary">
            {t('companies.back_to_list')}
          </ButtonLink>
        }
      />
      <AppForm method="post" {...getFormProps(form)} className="space-y-6">
        {/* Enter in a field saves the company (the first submit button), not "Add another" or "Remove". */}
        <button type="submit" className="sr-only" tabIndex={-1} aria-hidden="true" />
        <FormErrors errors={form.errors} />
        <CompanyFormSections form={form} fields={fields as never} countries={countries} />
        <FormErrors errors={form.errors} />
        <div className="flex flex-wrap justify-end gap-3">
          <ButtonLink to={localePath(i18n.language, '/manage-company')} variant="secondary">
            {t('common.cancel')}
          </ButtonLink>
          <Button type="submit" disabled={busy}>
            {t('companies.create')}
          </Button>
        </div>
      </AppForm>
    </div>
  );
}
