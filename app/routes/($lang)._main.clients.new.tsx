import {
  json,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/cloudflare';
import { useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { getFormProps } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { clientMetadata } from '@server/domain/clients/queries';
import { createClient } from '@server/domain/clients/service';
import { countryOptions } from '@server/domain/contacts/service';
import { contactsFormValue } from '@server/domain/contacts/values';
import { CLIENT_SAVE_FAILED } from '@server/domain/clients/saving';
import { clientCreateSchema, constraintsOf } from '~/lib/schemas.server';
import { useSchemaForm } from '~/lib/schema-form';
import { formAction } from '~/lib/actions';
import { pageTitle } from '~/lib/meta';
import { localePath } from '~/i18n/config';
import { AppForm, FormErrors } from '~/components/fields';
import { errorsOf } from '~/components/forms';
import { Button, ButtonLink } from '~/components/ui/button';
import { Card, PageHeader } from '~/components/ui/card';
import {
  AddressFieldset,
  ContactsEditor,
  fieldsetOf,
  type ObjectField,
} from '~/components/contacts/contacts-editor';
import {
  ClientBillingFields,
  ClientFileInput,
  ClientProfileFields,
  FactFindFields,
  LOGO_ACCEPT,
  RETURN_POLICY_ACCEPT,
} from '~/components/clients/client-form';
import { pageLoader } from '~/lib/loaders.server';

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? '' }];

export const loader = (args: LoaderFunctionArgs) =>
  pageLoader({
    permission: 'create_client',
    otherwise: '/clients',
    async load({ ctx, request, context }) {
      const [metadata, countries] = await Promise.all([clientMetadata(ctx), countryOptions(ctx.db)]);
      return json({
        constraint: constraintsOf(clientCreateSchema),
        companies: metadata.companies,
        managers: metadata.account_managers,
        countries,
        title: pageTitle(context, request, 'clients.new_title'),
      });
    },
  })(args);

/** On any refusal 'Unable to save the client!' is said above the form (spec 001 s.8). */
export const action = (args: ActionFunctionArgs) =>
  formAction({
    schema: clientCreateSchema,
    permission: 'create_client',
    formError: CLIENT_SAVE_FAILED,
    async handle(input, { ctx, formData, redirect }) {
      const { id } = await createClient(ctx, input, {
        logo: formData.get('logo'),
        return_policy: formData.get('return_policy'),
      });
      return redirect(`/clients/${id}`, 'clients.saved');
    },
  })(args);

export default function NewClient() {
  const { t, i18n } = useTranslation();
  const { companies, managers, countries, constraint } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>()?.submission;
  const busy = useNavigation().state === 'submitting';
  const [form, fields] = useSchemaForm({
    schema: () => import('@server/domain/clients/schema').then((m) => m.clientCreateSchema),
    id: 'new-client',
    lastResult,
    defaultValue: {
      type: 'school',
      preferred_lang: 'en',
      billing_enabled: 'true',
      expiry_reminders: 'on',
      payment_terms: 'invoiced_directly',
      payment_method: 'bank_transfer',
      invoice_rule: 'by_location',
      contacts: contactsFormValue(null) as never,
    } as never,
    constraint,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
  });
  // The schema loads lazily (useSchemaForm), so Conform cannot type the fields; the nested ones are read by name.
  const all = fields as unknown as Record<string, ObjectField>;
  const fileErrors = (name: string) => errorsOf(fields, name);
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={t('clients.new_title')}
        actions={
          <ButtonLink to={localePath(i18n.language, '/clients')} variant="secondary">
            {t('clients.back_to_list')}
          </ButtonLink>
        }
      />
      <AppForm method="post" encType="multipart/form-data" {...getFormProps(form)} className="space-y-6">
        {/* Enter in a field saves the client (the form's first submit button), not "Add another" or "Remove". */}
        <button
          type="submit"
          name="status"
          value="active"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <FormErrors errors={form.errors} />
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.profile')}</h2>
          <ClientProfileFields fields={all} managers={managers} companies={companies} />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.files')}</h2>
          <div className="grid gap-4 sm:grid-cols-2">
            <ClientFileInput
              name="logo"
              label={t('clients.fields.logo')}
              hint={t('clients.fields.logo_hint')}
              accept={LOGO_ACCEPT}
              errors={fileErrors('logo')}
            />
            <ClientFileInput
              name="return_policy"
              label={t('clients.fields.return_policy')}
              hint={t('clients.fields.return_policy_hint')}
              accept={RETURN_POLICY_ACCEPT}
              errors={fileErrors('return_policy')}
            />
          </div>
          <p className="mt-3 text-xs text-slate-500">{t('clients.fields.file_again')}</p>
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.contacts')}</h2>
          <ContactsEditor form={form} field={fieldsetOf(fields, 'contacts')} countries={countries} />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.billing')}</h2>
          <ClientBillingFields fields={all} />
        </Card>
        <Card>
          <h2 className="mb-4 text-base font-semibold">{t('clients.sections.addresses')}</h2>
          <div className="grid gap-4 lg:grid-cols-2">
            <AddressFieldset
              field={fieldsetOf(fields, 'billing_address')}
              kind="billing"
              countries={countries}
            />
            <AddressFieldset
              field={fieldsetOf(fields, 'mailing_address')}
              kind="mailing"
              countries={countries}
            />
          </div>
        </Card>
        <Card>
          <h2 className="text-base font-semibold">{t('clients.sections.fact_find')}</h2>
          <p className="mb-4 text-sm text-slate-500">{t('clients.sections.fact_find_hint')}</p>
          <FactFindFields field={fieldsetOf(fields, 'fact_find')} />
        </Card>
        <FormErrors errors={form.errors} />
        <div className="flex flex-wrap justify-end gap-3">
          <Button type="submit" name="status" value="draft" variant="secondary" disabled={busy}>
            {t('clients.save_draft')}
          </Button>
          <Button type="submit" name="status" value="active" disabled={busy}>
            {t('clients.save')}
          </Button>
        </div>
      </AppForm>
    </div>
  );
}
