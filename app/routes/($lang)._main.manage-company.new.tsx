import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps, useForm } from '@conform-to/react';
import { getZodConstraint, parseWithZod } from '@conform-to/zod';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { companySchema } from '@server/domain/companies/schema';
import { createCompany } from '@server/domain/companies/service';
import { countryOptions } from '@server/domain/contacts/service';
import { langOf, requirePermissions } from '~/lib/guards.server';
import { failedCompanyReply, saveCompany } from '~/lib/companies.server';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { PageHeader } from '~/components/ui/card';
import { CompanyFormSections, companyFormValue } from '~/components/companies/company-form';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = requirePermissions(request, context, 'create_company', '/manage-company');
  return json({
    countries: await countryOptions(ctx.db),
    title: pageTitle(context, request, 'companies.new_title'),
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = requirePermissions(request, context, 'create_company', '/manage-company');
  const submission = parseWithZod(await request.formData(), { schema: companySchema });
  // "Add another" / "Remove" without JavaScript: the form comes back with the slot changed.
  if (submission.status === undefined) return json({ result: submission.reply() });
  if (submission.status !== 'success')
    return json({ result: failedCompanyReply(submission) }, { status: 400 });
  const r = await saveCompany(submission, () => createCompany(ctx, submission.value));
  if (!r.ok) return json({ result: r.reply }, { status: r.status });
  return redirect(localePath(langOf(request), `/manage-company/${r.value.id}/edit?saved=created`));
}

export default function NewCompany() {
  const { t, i18n } = useTranslation();
  const { countries } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useForm<z.input<typeof companySchema>>({
    id: 'new-company',
    lastResult: data?.result,
    defaultValue: companyFormValue(null) as never,
    constraint: getZodConstraint(companySchema),
    onValidate: ({ formData }) => parseWithZod(formData, { schema: companySchema }),
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
